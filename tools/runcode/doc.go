// Package runcode is the run_code tool: programmatic tool calling. The
// model writes a small Starlark program (a Python dialect) in which every
// other tool of the run is a function; the program loops, filters and
// combines tool results in one model round trip instead of one round trip
// per call.
//
// Each function takes keyword arguments (the tool's JSON arguments) and
// returns the tool's result parsed as JSON (dicts, lists, strings,
// numbers), or the plain text when the result is not JSON. A call that
// fails returns a value that failed(v) recognises, since Starlark has no
// exceptions to catch. Every call goes through the run's own path
// (validation, permissions, events), supplied as a tools.Caller on the call
// context. Programs are bounded by wall time and execution steps and stop
// at once when the run is cancelled.
package runcode
