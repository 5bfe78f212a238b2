package tools

// Diagnostic is a problem found while preparing tools that does not stop a
// run: a skill file that does not parse, an MCP server that did not start,
// an unknown configuration key. Hosts show diagnostics as warnings; a strict
// host refuses to start a run that has any.
type Diagnostic struct {
	// Source names where the problem is: a file, a server, a config key.
	Source  string `json:"source"`
	Message string `json:"message"`
}
