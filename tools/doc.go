// Package tools owns the tool model (Tool, Kind, Result), workspace
// confinement, and the built-in tools of SPEC §5.1. A Tool is a name, a
// description, a JSON Schema, an evidence kind and an optional executor; a
// tool without an executor is host-owned and pauses the loop (SPEC §3.6).
//
// Built-ins are created per run by Builtins, closed over a Workspace that
// confines every path to the working directory (after resolving symlinks)
// and remembers which files the run has read, for stale-write protection.
// Tool failures are Results with IsError set, never Go errors: only broken
// infrastructure and cancellation are errors.
package tools
