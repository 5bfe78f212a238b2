package agents

import (
	"slices"
	"strings"

	"github.com/llmrt/llmrt/internal/claudecode"
)

// MapTools turns Claude Code's tool names into llmrt's, in order and
// without repeats. MCP tools (mcp__server__tool) keep the names, which
// llmrt gives them too (mcp__server, a whole server, becomes
// mcp__server__*). Names without an equivalent (TodoWrite,
// WebSearch, NotebookEdit, ...) are returned as dropped. A list that
// named tools but keeps none is empty, not nil: the agent gets no tools
// beyond the control ones, not all of them.
func MapTools(names []string) (mapped, dropped []string) {
	if names == nil {
		return nil, nil
	}
	mapped = []string{}
	for _, n := range names {
		if n == "*" {
			return nil, dropped // Claude Code's "all tools"
		}
		m, ok := claudecode.Tools[n]
		switch {
		case strings.HasPrefix(n, "mcp__"):
			m, ok = claudecode.MCPTool(n)
		case claudecode.LlmrtTool(n):
			m, ok = n, true
		}
		if !ok {
			dropped = append(dropped, n)
			continue
		}
		if !slices.Contains(mapped, m) {
			mapped = append(mapped, m)
		}
	}
	return mapped, dropped
}

// Anthropic's current models for Claude Code's aliases.
var claudeModels = map[string]string{
	"sonnet": "claude-sonnet-4-5",
	"opus":   "claude-opus-4-5",
	"haiku":  "claude-haiku-4-5",
}

// MapModel turns a Claude Code model field into llmrt's for a run on
// provider: an alias becomes Anthropic's model id on anthropic and the
// parent's model (empty) elsewhere, as does a full claude-... id; inherit
// and empty are the parent's; any other value is a model id, kept.
func MapModel(model, provider string) string {
	if id, ok := claudeModels[model]; ok {
		if provider == "anthropic" {
			return id
		}
		return ""
	}
	if model == "inherit" || (strings.HasPrefix(model, "claude-") && provider != "anthropic") {
		return ""
	}
	return model
}
