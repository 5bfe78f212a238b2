// Package runcode is the run_code tool: programmatic tool calling. The
// model writes a small program in which every other tool of the run is a
// function; the program loops, filters and combines tool results in one
// model round trip instead of one round trip per call.
//
// The tool owns what is the same in every language: its arguments, the
// program's time limit, which tools become functions, and the JSON the
// model sees ({stdout, stderr, return_code, value?, error?}). A Runtime
// owns the language. Starlark (a Python dialect) is the default; a host
// plugs in another language through Options.Runtime and adds values and
// functions of its own through Options.Globals.
//
// Every call of a tool's function goes through the run's own path
// (validation, permissions, events), supplied as a tools.Caller on the
// call context, so a program can do nothing its run could not. Programs
// are bounded by wall time and stop at once when the run is cancelled;
// Starlark also bounds their execution steps, output and memory (a
// program that would take more than its limit stops with an error rather
// than end the process; see memory for what the bound covers).
//
// In Starlark, each function takes keyword arguments (the tool's JSON
// arguments) and returns the tool's result parsed as JSON (dicts, lists,
// strings, numbers), or the plain text when the result is not JSON. A call
// that fails returns a value that failed(v) recognises, since Starlark has
// no exceptions to catch.
package runcode
