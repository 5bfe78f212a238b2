// Package tools owns the tool model (Tool, Kind, Result), workspace
// confinement, and the built-in tools. A Tool is a name, a
// description, a JSON Schema, an evidence kind and an optional executor; a
// tool without an executor is host-owned and pauses the loop. Func builds
// a Tool from a Go function over an argument type, inferring the schema
// from the type and decoding each call's arguments into it.
//
// Built-ins are created per run by Builtins, closed over a Workspace that
// confines every path to the working directory (after resolving symlinks)
// and remembers which files the run has read, for stale-write protection.
// Tool failures are Results with IsError set, never Go errors: only broken
// infrastructure and cancellation are errors.
//
// The built-ins bound what they cost: results stay under the engine's
// default 32 KiB cap and say how to get the rest (an offset, a narrower
// pattern); shell_cmd keeps only the head and tail of a command's output,
// runs it in its own process group and kills the whole group on timeout or
// cancellation; web_fetch reads a capped body, follows a bounded number of
// redirects and refuses non-public addresses at dial time. search_files
// walks in one goroutine (directory listings run ahead in others) and scans
// files in a worker pool, returning matches in path order.
//
// ask_user_input is the one host-owned built-in: AskInput, Answer and
// AskInput.Resolve let hosts validate a person's answer and build the tool
// result the model receives.
package tools
