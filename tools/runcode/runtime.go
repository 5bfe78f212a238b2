package runcode

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/llmrt/llmrt/tools"
)

// Runtime runs run_code's programs in one language. The default is the
// Starlark type; a host plugs in another language through
// Options.Runtime.
//
// The tool owns what is the same in every language: its arguments, the
// program's wall-time limit (the deadline of Run's context), the functions
// a program may call and the checks those calls meet, and the JSON the
// model sees. The runtime owns the language: how programs are written,
// how they call functions and see globals, and how they fail. A Runtime is
// shared by every run of an engine, so its methods may be called
// concurrently.
type Runtime interface {
	// Language names the language for the model: run_code's schema
	// describes its code argument as "The <Language> program".
	Language() string
	// Describe returns run_code's description: how to write a program in
	// the language, how to call env's functions and test for their
	// failures, and the list of those functions and globals. env is what
	// Run will get, with Timeout the default time limit.
	Describe(env Env) string
	// Run runs one program. Its context carries the run's tool caller and
	// ends at the program's time limit or when the run is cancelled;
	// context.Cause says which. Run must return soon after it ends.
	//
	// A program that fails (does not parse, raises an error, hits a
	// limit) is a Result with Err set: the model sees it and may fix its
	// program. The error is for a runtime that cannot run programs at
	// all, as broken infrastructure: the run reports run_code failed with
	// it.
	Run(ctx context.Context, code string, env Env) (Result, error)
}

// Env is what a program may use besides the language itself.
type Env struct {
	// Functions are the run's other tools, one function each, callable
	// by name.
	Functions []Function
	// Globals are the host's own values and functions
	// (Options.Globals), without those whose name a function takes: a
	// tool wins over a global. A value is a Func or data that
	// encoding/json can encode; a runtime may accept values of its own
	// language besides (Starlark takes any starlark.Value).
	Globals map[string]any
	// Timeout is the program's time limit; in Run it is also the
	// deadline of the context.
	Timeout time.Duration
}

// Function is one tool as a program sees it.
type Function struct {
	// Name is the function's name in the program: the tool's name made
	// an identifier (Identifier).
	Name string
	// Tool is the name of the tool the function calls.
	Tool string
	// Description and Schema are the tool's: its purpose and the JSON
	// Schema of its arguments.
	Description string
	Schema      json.RawMessage
}

// Call calls the function's tool through the run, with args a JSON
// object, exactly as a call from the model is made: the arguments are
// validated against the tool's schema, the call meets the run's deny
// rules and permission mode (asking its Approver in ask mode), and its
// events carry the run_code call as their parent. A refused or failed call is
// a result with IsError set, holding the reason. ctx must be Run's context
// or one derived from it, which carries the run's tools.Caller.
func (f Function) Call(ctx context.Context, args json.RawMessage) tools.Result {
	call := tools.CallerFrom(ctx)
	if call == nil {
		return tools.Errorf("%s: run_code's functions can only be called while a program of a run is running", f.Name)
	}
	return call(ctx, f.Tool, args)
}

// Func is a host function in a program's globals. It takes the call's
// arguments as a JSON object (keyword arguments, as tool functions take
// them) and returns data that encoding/json can encode, or an error, which
// stops the program with the error's message.
//
// A Func is the host's own code: unlike a tool's function, its calls meet
// no permission check and raise no event. Give programs a tool, not a
// global, for anything the run's policy should decide.
type Func func(ctx context.Context, args json.RawMessage) (any, error)

// Result is what a program did.
type Result struct {
	// Stdout is what the program printed.
	Stdout string
	// Stderr is the runtime's diagnostics, such as the backtrace of the
	// error that stopped the program.
	Stderr string
	// Value is the program's own value, for languages whose programs
	// have one (the value of a last expression, a return); nil when it
	// has none. It is data that encoding/json can encode.
	Value any
	// Err is why the program stopped early, or nil when it ran to its
	// end. Use *Error to say where.
	Err error
}

// Error is a program's failure and where in the program it happened.
type Error struct {
	// Line and Column locate the failure, counting from 1; zero when not
	// known.
	Line, Column int
	// Msg says what went wrong.
	Msg string
}

// Error returns the message, prefixed with the place: "line 3: name is
// not defined", "line 2:5: syntax error: unexpected newline".
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("line %d:%d: %s", e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}
