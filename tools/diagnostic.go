package tools

// Diagnostic is a problem found while preparing tools that does not stop a
// run: a skill file that does not parse, an MCP server that did not start,
// an unknown configuration key. Hosts show diagnostics as warnings; a strict
// host refuses to start a run that has any.
type Diagnostic struct {
	// Source names where the problem is: a file, a server, a config key.
	Source  string `json:"source"`
	Message string `json:"message"`
	// Level says how much the problem takes away: DiagnosticWarning, or
	// DiagnosticError when something the run was given is missing (a
	// source that did not start). Empty reads as a warning.
	Level DiagnosticLevel `json:"level,omitempty"`
	// Kind names the sort of problem in a word a host can match on
	// (the engine's are listed with its Diag constants). Empty means
	// its finder did not say.
	Kind string `json:"kind,omitempty"`
}

// DiagnosticLevel is how serious a Diagnostic is.
type DiagnosticLevel string

// Diagnostic levels.
const (
	DiagnosticWarning DiagnosticLevel = "warning"
	DiagnosticError   DiagnosticLevel = "error"
)
