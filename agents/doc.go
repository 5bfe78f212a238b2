// Package agents finds and parses agent definitions: named sub-agents
// the spawn_agent tool can start, each with its own system prompt, tools
// and model. It reads Claude Code's sub-agent files (.claude/agents/*.md:
// YAML front matter with name, description, tools and model, the body
// being the system prompt), llmrt's own (.llmrt/agents/*.md, which use
// llmrt's tool names and may name a provider) and Codex's custom agents
// (.codex/agents/*.toml), maps Claude Code's tool names and model aliases
// to llmrt's, and owns the precedence between the user's and the
// project's directories. A file that cannot be used is a diagnostic
// naming it, never a failure.
package agents
