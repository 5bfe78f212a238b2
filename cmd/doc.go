// Package cmd is the llmrt command line: it parses flags, layers
// configuration, wires providers, tools, sessions and output, and delegates
// the work to the engine. Main returns the process exit code (see exit.go
// and docs/design.md);
// errors are mapped to a message, a hint and an exit code in one place
// (exit.go, and stop.go for how a run ended).
//
// Every command that runs the engine goes through the host (host.go): it
// takes the IO, the resolved settings and the session store, and owns what
// surrounds a run — recording the session and the trace behind one
// redactor, resuming, the approver and the asker (drawn by a prompter,
// prompts.go), and the fan-out of events. `run` and `tools call` use it;
// so will `chat`.
package cmd
