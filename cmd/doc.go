// Package cmd is the llmrt command line: it parses flags, layers
// configuration, wires providers, tools, sessions and output, and delegates
// the work to the engine. Main returns the process exit code (SPEC §7.3);
// errors are mapped to a message, a hint and an exit code in one place
// (exit.go).
package cmd
