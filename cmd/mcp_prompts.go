package cmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/llmrt/llmrt/cmd/commands"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/ui"
)

// promptListWait bounds how long listing the servers' prompts for the
// chat's completions may take: a slow server must not hold the screen.
const promptListWait = 5 * time.Second

// mcpPrompt resolves /mcp__server__prompt args: the server's prompt with
// args bound to its arguments (by name=value, else in order), expanded
// by the server into the turn's prompt. ok is false when name is no MCP
// prompt's command.
func (s *settings) mcpPrompt(ctx context.Context, name, args string) (p promptCommand, ok bool, err error) {
	if s.mcp == nil || !strings.HasPrefix(name, "mcp__") {
		return p, false, nil
	}
	pr, found := s.mcp.LookupPrompt(ctx, name)
	if !found {
		return p, false, nil
	}
	bound, err := pr.Bind(commands.Words(args))
	if err != nil {
		return p, true, usageErrorf("%v", err)
	}
	parts, err := s.mcp.GetPrompt(ctx, pr, bound)
	if err != nil {
		return p, true, err
	}
	// The server decides the size: it is held to what a typed message may
	// carry.
	b := &inputBudget{lim: limitFor(s.model, s.contextWindow)}
	if n := len(parts[0].Text); n > b.room() {
		return p, true, b.refuse("/"+name+": the server's prompt", int64(n), false, "give the prompt other arguments, or ask the server's author for a shorter one")
	}
	p = promptCommand{name: name, Expansion: commands.Expansion{Prompt: parts[0].Text}, literal: true}
	for _, part := range parts[1:] {
		if part.Type == providers.PartImage {
			p.Problems = append(p.Problems, fmt.Sprintf("/%s: the prompt's image (%s) is not attached", name, part.MediaType))
		}
	}
	return p, true, nil
}

// mcpPromptCommands are the MCP servers' prompts as the chat's prompt
// commands, each with its arguments and description.
func (s *settings) mcpPromptCommands(ctx context.Context) []ui.Command {
	if s.mcp == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, promptListWait)
	defer cancel()
	var out []ui.Command
	for _, p := range s.mcp.Prompts(ctx) {
		desc := "(mcp " + p.Server + ")"
		if p.Description != "" {
			desc += " " + oneLine(p.Description, 80)
		}
		// The server's words reach the terminal: no control sequences.
		out = append(out, ui.Command{Name: p.Command(), Args: ui.Sanitize(oneLine(p.Usage(), 60)), Desc: ui.Sanitize(desc)})
	}
	return out
}

// mcpPromptNames lists the MCP prompt commands, with their slash, for
// an unknown command's error.
func (s *settings) mcpPromptNames(ctx context.Context) []string {
	var out []string
	for _, c := range s.mcpPromptCommands(ctx) {
		out = append(out, c.Name)
	}
	return out
}

// PromptCommands are the chat's prompt commands as they stand: the
// custom commands and skills, then the MCP servers' prompts
// (ui.CommandsHost). The screen asks first once it is up: the servers
// are started then, so that their prompts are offered from the start.
func (c *chatHost) PromptCommands(ctx context.Context) []ui.Command {
	out := c.h.s.customCommands()
	if c.h.s.mcp == nil {
		return out
	}
	c.startServers(ctx)
	return append(out, c.h.s.mcpPromptCommands(ctx)...)
}

// startServers starts the MCP servers unless they are (the runtime starts
// its sources once), holding the chat's lock as a turn does: a turn that
// comes meanwhile waits for them, as it would start them itself.
func (c *chatHost) startServers(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if rt, err := c.runtime(); err == nil {
		_ = rt.Start(ctx) // a server that failed is the first turn's diagnostic
	}
}
