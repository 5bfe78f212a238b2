package cmd

import (
	"fmt"
	"io"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/instructions"
	"github.com/llmrt/llmrt/skills"
	"github.com/llmrt/llmrt/ui"
)

// loadContext finds what a run adds to the model's context besides the
// request: the skills (for every command that resolves tools) and, for
// runs that call a model (withDocs), the project instruction files. Their problems
// reach the host through the runtime's diagnostics, as the sources report
// them (shown as warnings, refused by --strict).
func (s *settings) loadContext(getenv func(string) string, withDocs bool) {
	s.skills = skills.Discover(skillRoots(getenv, s.workDir, s.skillsDirs, s.trusted))
	s.loadCommands(getenv)
	s.loadMCP(getenv, s.mcpConfigs)
	if !withDocs {
		return
	}
	s.projectDocs = instructions.Load(instructions.Options{
		WorkDir: s.workDir, Home: getenv("HOME"), ConfigHome: getenv("XDG_CONFIG_HOME"),
	})
}

// sources returns the tool sources of a run: the project instructions and
// the skill catalogue, each only when it has something to add (text, a
// tool or a problem to report), so a run without either is unchanged.
func (s *settings) sources() []engine.ToolSource {
	var out []engine.ToolSource
	if s.projectDocs != nil && (s.projectDocs.Instructions() != "" || len(s.projectDocs.Diagnostics()) > 0) {
		out = append(out, s.projectDocs)
	}
	if s.skills != nil && (s.skills.Len() > 0 || len(s.skills.Diagnostics()) > 0) {
		out = append(out, s.skills)
	}
	if s.mcp != nil {
		out = append(out, s.mcp)
	}
	return out
}

// printInstructionFiles tells a --verbose user which instruction files
// went into the system prompt.
func printInstructionFiles(w io.Writer, set *instructions.Set) {
	if set == nil {
		return
	}
	w = ui.NewTextWriter(w) // file names
	for _, f := range set.Files() {
		note := ""
		if f.Truncated {
			note = ", truncated by the size cap"
		}
		fmt.Fprintf(w, "llmrt: instructions: %s (%d bytes%s)\n", f.Path, f.Bytes, note)
	}
}
