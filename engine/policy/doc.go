// Package policy decides which tool calls a run may make: it owns the
// permission modes, the allow, allow_once and deny rules (their text form,
// ParseRule, and how they match a call), the analysis of shell command
// lines that lets a rule for one command hold against every command a
// line runs, the rule Suggest proposes for a call a person approves, and
// Check, which finds rules that can never apply to a run's tools.
//
// A Policy is a mode and rules; Decide turns a Call into a Verdict:
// allowed, denied by a rule, refused by read mode, or left to a person.
// The package keeps no state and talks to no one. The engine's loop owns
// everything around a decision: the rules a person adds during a run,
// which allow_once rules are spent, asking the person (Approver or an
// event) and reporting the outcome to the model and the host.
//
// A shell line is parsed as bash (mvdan.cc/sh), the language of the
// shell that runs it (tools' shell_cmd runs lines with bash -c), into the
// simple commands it runs, wherever they sit: after ;, && and ||, in
// pipes, subshells, $(...), functions and loops, `sh -c` strings, and
// behind wrappers such as env, sudo, timeout and xargs. A line that does
// not parse, writes a file with a redirection, runs a program known only
// at run time, feeds a script to a shell (from a pipe, a here-document,
// /dev/stdin or /dev/fd/N, <(...)) or hands bash a value it evaluates as
// code (arithmetic and variable names run the $(...) in an array
// subscript) is never allowed by a command pattern, except one that is
// the exact line; under a deny rule it is "unchecked" (see Unchecked).
//
// A path argument of a file tool is matched in the forms the caller's
// Policy.Paths gives it: the workspace-relative clean path, as written
// and through symlinks, however it was spelled.
package policy
