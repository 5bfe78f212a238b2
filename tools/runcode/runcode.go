package runcode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	starjson "go.starlark.net/lib/json"
	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/llmrt/llmrt/tools"
)

// Name is the tool's name.
const Name = "run_code"

const (
	defaultTimeout = 30 * time.Second
	maxTimeout     = 300 * time.Second
	defaultSteps   = 50_000_000
	defaultOutput  = 30_000
)

// Options bound programs. The zero value is the default configuration.
type Options struct {
	// DefaultTimeout applies when a call gives no timeout_ms; zero means
	// 30s. Calls may ask for up to 300s.
	DefaultTimeout time.Duration
	// MaxSteps bounds the Starlark execution steps of one program; zero
	// means 50 million (a few seconds of pure computation).
	MaxSteps uint64
	// MaxOutputBytes bounds the stdout kept (head and tail); zero means
	// 30,000 bytes.
	MaxOutputBytes int
}

const schema = `{
  "type": "object",
  "properties": {
    "code": {"type": "string", "minLength": 1, "description": "The Starlark program"},
    "timeout_ms": {"type": "integer", "minimum": 1, "maximum": 300000, "description": "Stop the program after this many milliseconds (default 30000)"}
  },
  "required": ["code"],
  "additionalProperties": false
}`

type args struct {
	Code      string `json:"code"`
	TimeoutMS int    `json:"timeout_ms"`
}

// result is the JSON the model sees.
type result struct {
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	ReturnCode int    `json:"return_code"`
	Error      string `json:"error,omitempty"`
}

// function is one tool as the program sees it.
type function struct {
	name string // Starlark identifier
	tool tools.Tool
}

// Tool returns run_code for a run whose other tools are surface. Tools
// without an executor (host-owned), control tools and run_code itself are
// left out; every other tool becomes a function, and the description lists
// them with their parameters.
//
// Its kind is read: a program changes nothing by itself. Every effect it
// has is a call of another tool, which the run checks and counts as
// evidence on its own, so a program may run under permission mode read
// (where its writes are refused) and ask mode asks about its writes, not
// about the program.
func Tool(surface []tools.Tool, opts Options) tools.Tool {
	fns := functions(surface)
	return tools.Tool{
		Name:        Name,
		Description: describe(fns, opts),
		Schema:      json.RawMessage(schema),
		Kind:        tools.KindRead,
		Source:      tools.SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
			var a args
			if err := json.Unmarshal(raw, &a); err != nil {
				return tools.Errorf("invalid arguments: %v", err), nil
			}
			return execute(ctx, fns, a, opts), nil
		},
	}
}

func functions(surface []tools.Tool) []function {
	var fns []function
	seen := map[string]bool{"failed": true, "json": true, "print": true}
	for _, t := range surface {
		if t.Execute == nil || t.Name == Name || t.Source == tools.SourceControl {
			continue
		}
		id := Identifier(t.Name)
		if seen[id] {
			continue
		}
		seen[id] = true
		fns = append(fns, function{name: id, tool: t})
	}
	return fns
}

// Identifier turns a tool name into the Starlark function name: characters
// outside [A-Za-z0-9_] become _, and a leading digit gets a _ prefix.
func Identifier(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) > 0 && b[0] >= '0' && b[0] <= '9' {
		return "_" + string(b)
	}
	return string(b)
}

var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

func execute(ctx context.Context, fns []function, a args, opts Options) tools.Result {
	call := tools.CallerFrom(ctx)
	if call == nil {
		return tools.Errorf("run_code can only run inside an agent run, where its functions can call the run's tools")
	}
	timeout := cmpOr(opts.DefaultTimeout, defaultTimeout)
	if a.TimeoutMS > 0 {
		timeout = min(time.Duration(a.TimeoutMS)*time.Millisecond, maxTimeout)
	}
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	out := &capped{max: cmpOr(opts.MaxOutputBytes, defaultOutput)}
	thread := &starlark.Thread{Name: Name, Print: func(_ *starlark.Thread, msg string) {
		out.WriteString(msg)
		out.WriteString("\n")
	}}
	thread.SetMaxExecutionSteps(cmpOr(opts.MaxSteps, defaultSteps))
	stop := context.AfterFunc(pctx, func() {
		if ctx.Err() != nil {
			thread.Cancel("the run was cancelled")
		} else {
			thread.Cancel(fmt.Sprintf("time limit of %s reached", timeout))
		}
	})
	defer stop()

	_, err := starlark.ExecFileOptions(fileOptions, thread, "program", a.Code, predeclared(pctx, fns, call))
	res := result{Stdout: out.String()}
	if err != nil {
		res.ReturnCode = 1
		res.Error, res.Stderr = describeError(err)
	}
	b, _ := json.Marshal(res)
	return tools.Result{Content: string(b), Failed: err != nil}
}

func predeclared(ctx context.Context, fns []function, call tools.Caller) starlark.StringDict {
	env := starlark.StringDict{
		"json":   starjson.Module,
		"failed": starlark.NewBuiltin("failed", builtinFailed),
	}
	for _, f := range fns {
		f := f
		env[f.name] = starlark.NewBuiltin(f.name, func(thread *starlark.Thread, b *starlark.Builtin, pos starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(pos) > 0 {
				return nil, fmt.Errorf("%s: pass arguments by name, e.g. %s", f.name, example(f))
			}
			m := make(map[string]any, len(kwargs))
			for _, kv := range kwargs {
				v, err := toJSON(kv[1])
				if err != nil {
					return nil, fmt.Errorf("%s: argument %s: %v", f.name, kv[0], err)
				}
				m[string(kv[0].(starlark.String))] = v
			}
			raw, err := json.Marshal(m)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", f.name, err)
			}
			r := call(ctx, f.tool.Name, raw)
			if r.IsError {
				return &toolError{tool: f.tool.Name, msg: r.Content}, nil
			}
			return fromJSONText(r.Content), nil
		})
	}
	return env
}

func builtinFailed(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	_, ok := v.(*toolError)
	return starlark.Bool(ok), nil
}

// describeError returns a one-line message with the line number and the
// full backtrace.
func describeError(err error) (msg, trace string) {
	var ee *starlark.EvalError
	var se syntax.Error
	var re resolve.ErrorList
	switch {
	case errors.As(err, &ee):
		msg = ee.Msg
		if fr := innermost(ee.CallStack); fr.Pos.Line > 0 {
			msg = fmt.Sprintf("line %d: %s", fr.Pos.Line, ee.Msg)
		}
		return msg, ee.Backtrace()
	case errors.As(err, &se):
		msg = fmt.Sprintf("line %d:%d: syntax error: %s", se.Pos.Line, se.Pos.Col, se.Msg)
		return msg, msg
	case errors.As(err, &re):
		lines := make([]string, len(re))
		for i, e := range re {
			lines[i] = fmt.Sprintf("line %d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
		}
		return strings.Join(lines, "; "), strings.Join(lines, "\n")
	}
	return err.Error(), err.Error()
}

// innermost is the deepest frame of the program itself (not a builtin).
func innermost(cs starlark.CallStack) starlark.CallFrame {
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].Pos.Filename() == "program" {
			return cs[i]
		}
	}
	return starlark.CallFrame{}
}

// capped keeps at most max bytes: the head and the tail.
type capped struct {
	max        int
	head, tail strings.Builder
	dropped    int
}

func (c *capped) WriteString(s string) {
	if room := c.max/2 - c.head.Len(); room > 0 {
		n := min(room, len(s))
		c.head.WriteString(s[:n])
		s = s[n:]
	}
	if s == "" {
		return
	}
	c.tail.WriteString(s)
	if over := c.tail.Len() - c.max/2; over > 0 {
		t := c.tail.String()[over:]
		c.dropped += over
		c.tail.Reset()
		c.tail.WriteString(t)
	}
}

func (c *capped) String() string {
	if c.dropped == 0 {
		return c.head.String() + c.tail.String()
	}
	return fmt.Sprintf("%s\n[… %d bytes of output cut …]\n%s", c.head.String(), c.dropped, c.tail.String())
}

func cmpOr[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}
