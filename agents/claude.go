package agents

import (
	"slices"
	"strings"
)

// claudeTools maps Claude Code's tool names to llmrt's.
var claudeTools = map[string][]string{
	"Bash":      {"shell_cmd"},
	"Read":      {"read_file"},
	"Write":     {"write_file"},
	"Edit":      {"edit_file"},
	"MultiEdit": {"edit_file"},
	"Glob":      {"search_files"},
	"Grep":      {"search_files"},
	"LS":        {"list_files"},
	"WebFetch":  {"web_fetch"},
	"Task":      {"spawn_agent"},
	"Agent":     {"spawn_agent"},
}

// MapTools turns Claude Code's tool names into llmrt's, in order and
// without repeats. MCP tools (mcp__server__tool) keep their names, which
// llmrt gives MCP tools too. Names without an equivalent (TodoWrite,
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
		llmrt, ok := claudeTools[n]
		switch {
		case strings.HasPrefix(n, "mcp__"):
			llmrt = []string{n}
		case !ok:
			dropped = append(dropped, n)
			continue
		}
		for _, m := range llmrt {
			if !slices.Contains(mapped, m) {
				mapped = append(mapped, m)
			}
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
