package runcode

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

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

// Options configure run_code. The zero value is the default
// configuration: Starlark programs with no globals of the host's.
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
	// MaxMemoryBytes bounds the memory one Starlark program's values
	// take; zero means 256 MiB. A program that would pass it fails, and
	// the process lives on.
	MaxMemoryBytes uint64
	// Runtime runs the programs; nil means Starlark, bounded by MaxSteps,
	// MaxOutputBytes and MaxMemoryBytes. A Runtime of the host's bounds
	// its programs' steps, output and memory itself.
	Runtime Runtime
	// Globals are values and functions (Func) every program sees by
	// name beside the tools' functions; a tool's function wins over a
	// global of the same name. Each name must be an identifier.
	Globals map[string]any
}

// Validate reports options no program could use: a global whose name is
// not an identifier.
func (o Options) Validate() error {
	for name := range o.Globals {
		if name == "" || Identifier(name) != name {
			return fmt.Errorf("run_code global %q: a name must be an identifier (letters, digits and _, not starting with a digit)", name)
		}
	}
	return nil
}

func (o Options) runtime() Runtime {
	if o.Runtime != nil {
		return o.Runtime
	}
	return Starlark{MaxSteps: o.MaxSteps, MaxOutputBytes: o.MaxOutputBytes, MaxMemoryBytes: o.MaxMemoryBytes}
}

// schemaFormat is run_code's schema, given the description of its code.
const schemaFormat = `{
  "type": "object",
  "properties": {
    "code": {"type": "string", "minLength": 1, "description": %s},
    "timeout_ms": {"type": "integer", "minimum": 1, "maximum": 300000, "description": "Stop the program after this many milliseconds (default 30000)"}
  },
  "required": ["code"],
  "additionalProperties": false
}`

func schema(language string) json.RawMessage {
	desc, _ := json.Marshal("The " + language + " program")
	return json.RawMessage(fmt.Sprintf(schemaFormat, desc))
}

type args struct {
	Code      string `json:"code"`
	TimeoutMS int    `json:"timeout_ms"`
}

// result is the JSON the model sees.
type result struct {
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	ReturnCode int    `json:"return_code"`
	Value      any    `json:"value,omitempty"`
	Error      string `json:"error,omitempty"`
}

// timeLimit is the cause of a program's context ending at its time
// limit. It matches context.DeadlineExceeded.
type timeLimit time.Duration

func (t timeLimit) Error() string {
	return fmt.Sprintf("time limit of %s reached", time.Duration(t))
}

func (t timeLimit) Is(target error) bool { return target == context.DeadlineExceeded }

// Tool returns run_code for a run whose other tools are surface, running
// programs with opts.Runtime (Starlark when nil). Tools without an
// executor (host-owned), control tools and run_code itself are left out;
// every other tool becomes a function, and the runtime describes them.
//
// Its kind is read: a program changes nothing by itself. Every effect it
// has is a call of another tool, which the run checks and counts as
// evidence on its own, so a program may run under permission mode read
// (where its writes are refused) and ask mode asks about its writes, not
// about the program. The host's globals (opts.Globals) are the exception
// the host chose: they run as its own code.
func Tool(surface []tools.Tool, opts Options) tools.Tool {
	rt := opts.runtime()
	fns := functions(surface)
	env := Env{Functions: fns, Globals: visibleGlobals(opts.Globals, fns), Timeout: cmpOr(opts.DefaultTimeout, defaultTimeout)}
	return tools.Tool{
		Name:        Name,
		Description: rt.Describe(env),
		Schema:      schema(rt.Language()),
		Kind:        tools.KindRead,
		Source:      tools.SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
			var a args
			if err := json.Unmarshal(raw, &a); err != nil {
				return tools.Errorf("invalid arguments: %v", err), nil
			}
			return execute(ctx, rt, env, a)
		},
	}
}

// functions are the tools of surface a program may call, one per
// identifier: the first tool wins when two names map to one identifier.
func functions(surface []tools.Tool) []Function {
	var fns []Function
	seen := map[string]bool{}
	for _, t := range surface {
		if t.Execute == nil || t.Name == Name || t.Source == tools.SourceControl {
			continue
		}
		id := Identifier(t.Name)
		if seen[id] {
			continue
		}
		seen[id] = true
		fns = append(fns, Function{Name: id, Tool: t.Name, Description: t.Description, Schema: t.Schema})
	}
	return fns
}

// visibleGlobals are the globals no function's name hides, or nil.
func visibleGlobals(globals map[string]any, fns []Function) map[string]any {
	var out map[string]any
	for name, v := range globals {
		if slices.ContainsFunc(fns, func(f Function) bool { return f.Name == name }) {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(globals))
		}
		out[name] = v
	}
	return out
}

// Identifier turns a tool name into its function's name in a program
// (Function.Name): characters outside [A-Za-z0-9_] become _, and a leading
// digit gets a _ prefix.
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

// execute runs one program under its time limit and turns what it did
// into the JSON the model sees.
func execute(ctx context.Context, rt Runtime, env Env, a args) (tools.Result, error) {
	if tools.CallerFrom(ctx) == nil {
		return tools.Errorf("run_code can only run inside an agent run, where its functions can call the run's tools"), nil
	}
	if a.TimeoutMS > 0 {
		env.Timeout = min(time.Duration(a.TimeoutMS)*time.Millisecond, maxTimeout)
	}
	// Each program gets its own copies, so a runtime that changes them
	// changes nothing for the next program.
	env.Functions, env.Globals = slices.Clone(env.Functions), maps.Clone(env.Globals)
	pctx, cancel := context.WithTimeoutCause(ctx, env.Timeout, timeLimit(env.Timeout))
	defer cancel()

	res, err := rt.Run(pctx, a.Code, env)
	if err != nil {
		return tools.Result{}, fmt.Errorf("%s runtime: %w", rt.Language(), err)
	}
	out := result{Stdout: res.Stdout, Stderr: res.Stderr, Value: res.Value}
	if res.Err != nil {
		out.ReturnCode, out.Error = 1, res.Err.Error()
	}
	b, err := json.Marshal(out)
	if err != nil {
		msg := fmt.Sprintf("the program's value cannot be sent as JSON: %v", err)
		if out.Error != "" {
			msg = out.Error + "; " + msg
		}
		out.Value, out.ReturnCode, out.Error = nil, 1, msg
		b, _ = json.Marshal(out)
	}
	return tools.Result{Content: string(b), Failed: out.ReturnCode != 0}, nil
}

func cmpOr[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}
