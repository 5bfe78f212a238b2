package runcode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Starlark is the default Runtime: programs in Starlark, a Python dialect
// that runs in-process, deterministic and without access to files, the
// network or the clock, so everything a program does is a call of a
// function it was given.
//
// Tool functions take keyword arguments and return the tool's result
// parsed as JSON, or its text; a failed call returns a value that
// failed(v) recognises, since Starlark has no exceptions to catch.
// Globals that are data become Starlark values (each program gets its own
// copy); a Func becomes a function taking keyword arguments; a
// starlark.Value is used as it is, shared by every program, so freeze it
// (Freeze) before handing it over. A global named like one of Starlark's
// own names (print, len, json, failed, ...) is left out.
type Starlark struct {
	// MaxSteps bounds the execution steps of one program; zero means 50
	// million (a few seconds of pure computation).
	MaxSteps uint64
	// MaxOutputBytes bounds the stdout kept (head and tail); zero means
	// 30,000 bytes.
	MaxOutputBytes int
	// MaxMemoryBytes bounds the memory one program's values take; zero
	// means 256 MiB. A program that would pass it stops with an error
	// (see memory for how it is kept and what it does not cover).
	MaxMemoryBytes uint64
}

// Language returns "Starlark".
func (Starlark) Language() string { return "Starlark" }

var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// Run runs one Starlark program. It returns an error only for a global it
// cannot turn into a Starlark value.
func (s Starlark) Run(ctx context.Context, code string, env Env) (Result, error) {
	out := &capped{max: cmpOr(s.MaxOutputBytes, defaultOutput)}
	thread := &starlark.Thread{Name: Name, Print: func(_ *starlark.Thread, msg string) {
		out.WriteString(msg)
		out.WriteString("\n")
	}}
	mem := newMemory(cmpOr(s.MaxMemoryBytes, defaultMemory))
	limitSteps(thread, cmpOr(s.MaxSteps, defaultSteps), mem)
	stop := context.AfterFunc(ctx, func() { thread.Cancel(stopReason(ctx)) })
	defer stop()

	pre, err := predeclared(ctx, env, mem)
	if err != nil {
		return Result{}, err
	}
	err = execGuarded(thread, code, pre)
	res := Result{Stdout: out.String()}
	if err != nil {
		res.Err, res.Stderr = programError(err)
	}
	return res, nil
}

// limitSteps stops thread after max steps and, every pollSteps steps,
// checks that its program has not outgrown its memory.
func limitSteps(thread *starlark.Thread, max uint64, mem *memory) {
	thread.SetMaxExecutionSteps(min(pollSteps, max))
	thread.OnMaxSteps = func(thread *starlark.Thread) {
		if thread.Steps >= max {
			thread.Cancel("too many steps")
			return
		}
		if err := mem.check(); err != nil {
			thread.Cancel(err.Error())
			return
		}
		thread.SetMaxExecutionSteps(min(thread.Steps+pollSteps, max))
	}
}

// execGuarded parses the program, guards its allocations (guardProgram),
// and runs it with the predeclared names pre.
func execGuarded(thread *starlark.Thread, code string, pre starlark.StringDict) error {
	f, err := fileOptions.Parse("program", code, 0)
	if err != nil {
		return err
	}
	if err := guardProgram(f); err != nil {
		return err
	}
	prog, err := starlark.FileProgram(f, pre.Has)
	if err != nil {
		return err
	}
	_, err = prog.Init(thread, pre)
	return err
}

// stopReason says why a program's context ended: its time limit, or the
// run's end.
func stopReason(ctx context.Context) string {
	var limit timeLimit
	if errors.As(context.Cause(ctx), &limit) {
		return limit.Error()
	}
	return "the run was cancelled"
}

// reserved are the names of a program's own that no function or global
// takes.
var reserved = map[string]bool{"failed": true, "json": true, "print": true}

// starlarkFunctions are env's functions a program can call by name.
func starlarkFunctions(fns []Function) []Function {
	var out []Function
	for _, f := range fns {
		if !reserved[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// starlarkGlobals are the names of env's globals a program can use.
func starlarkGlobals(globals map[string]any) []string {
	var names []string
	for name := range globals {
		if _, universal := starlark.Universe[name]; !reserved[name] && !universal {
			names = append(names, name)
		}
	}
	return names
}

// predeclared are the names a program sees besides Starlark's own: the
// host's globals, json and failed, the guards of its memory (which stand
// in for some of Starlark's builtins), and the tools' functions.
func predeclared(ctx context.Context, env Env, mem *memory) (starlark.StringDict, error) {
	pre := guards(mem)
	for _, name := range starlarkGlobals(env.Globals) {
		v, err := global(ctx, name, env.Globals[name])
		if err != nil {
			return nil, fmt.Errorf("global %s: %w", name, err)
		}
		pre[name] = v
	}
	pre["failed"] = starlark.NewBuiltin("failed", builtinFailed)
	for _, f := range starlarkFunctions(env.Functions) {
		pre[f.Name] = starlark.NewBuiltin(f.Name, func(_ *starlark.Thread, _ *starlark.Builtin, pos starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			raw, err := kwargsJSON(f.Name, pos, kwargs, signature(f))
			if err != nil {
				return nil, err
			}
			r := f.Call(ctx, raw)
			if r.IsError {
				return &toolError{tool: f.Tool, msg: r.Content}, nil
			}
			return fromJSONText(r.Content), nil
		})
	}
	return pre, nil
}

// global turns one of the host's globals into a Starlark value.
func global(ctx context.Context, name string, v any) (starlark.Value, error) {
	switch v := v.(type) {
	case starlark.Value:
		return v, nil
	case func(context.Context, json.RawMessage) (any, error):
		return hostFunc(ctx, name, v), nil
	case Func:
		return hostFunc(ctx, name, v), nil
	}
	return fromGo(v)
}

func hostFunc(ctx context.Context, name string, fn Func) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, pos starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		raw, err := kwargsJSON(name, pos, kwargs, name+"(name=value)")
		if err != nil {
			return nil, err
		}
		out, err := fn(ctx, raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		v, err := fromGo(out)
		if err != nil {
			return nil, fmt.Errorf("%s: its result: %v", name, err)
		}
		return v, nil
	})
}

func builtinFailed(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	_, ok := v.(*toolError)
	return starlark.Bool(ok), nil
}

// programError returns why a program stopped, with its line, and the
// full backtrace for stderr.
func programError(err error) (*Error, string) {
	var ee *starlark.EvalError
	var se syntax.Error
	var re resolve.ErrorList
	switch {
	case errors.As(err, &ee):
		return &Error{Line: int(innermost(ee.CallStack).Pos.Line), Msg: ee.Msg}, ee.Backtrace()
	case errors.As(err, &se):
		e := &Error{Line: int(se.Pos.Line), Column: int(se.Pos.Col), Msg: "syntax error: " + se.Msg}
		return e, e.Error()
	case errors.As(err, &re) && len(re) > 0:
		lines := make([]string, len(re))
		for i, e := range re {
			lines[i] = fmt.Sprintf("line %d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
		}
		// The first error locates the failure; the others follow its
		// message.
		first := &Error{Line: int(re[0].Pos.Line), Column: int(re[0].Pos.Col), Msg: re[0].Msg}
		if len(re) > 1 {
			first.Msg += "; " + strings.Join(lines[1:], "; ")
		}
		return first, strings.Join(lines, "\n")
	}
	return &Error{Msg: err.Error()}, err.Error()
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
