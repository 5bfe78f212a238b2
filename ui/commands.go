package ui

import (
	"fmt"
	"strings"
)

// command is a slash command the editor completes.
type command struct {
	name, args, desc string
	// local commands are handled by the screen; the others by the Host.
	local bool
}

var commands = []command{
	{name: "help", desc: "keys and commands", local: true},
	{name: "model", args: "[provider/]name", desc: "show or switch the model"},
	{name: "tools", desc: "the tools the model can use"},
	{name: "skills", desc: "the skills the model can load"},
	{name: "sessions", desc: "saved sessions"},
	{name: "resume", args: "[id]", desc: "reopen a saved session"},
	{name: "clear", desc: "start a new session"},
	{name: "usage", desc: "tokens used in this session"},
	{name: "permission", args: "[auto|ask|read]", desc: "show or change the permission mode"},
	{name: "compact", args: "[focus]", desc: "summarise the conversation to free context"},
	{name: "context", desc: "what fills the model's context window"},
	{name: "edit", desc: "edit the prompt in $EDITOR (Ctrl+G)", local: true},
	{name: "exit", desc: "quit (Ctrl+D)", local: true},
}

// lookupCommand finds a command by name.
func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// parseCommand splits "/name arg..." into name and arg; ok is false when
// the text is not a command.
func parseCommand(text string) (name, arg string, ok bool) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") || strings.HasPrefix(text, "//") {
		return "", "", false
	}
	name, arg, _ = strings.Cut(text[1:], " ")
	return name, strings.TrimSpace(arg), name != ""
}

// helpText is what /help shows.
func helpText() string {
	var b strings.Builder
	b.WriteString("**Keys**\n\n")
	for _, k := range [][2]string{
		{"Enter", "send"},
		{"Alt+Enter, Shift+Enter, Ctrl+J", "new line"},
		{"Up, Down", "earlier prompts (on the first or last line)"},
		{"Tab", "complete a /command or an @file"},
		{"Esc, Ctrl+C", "stop the running turn"},
		{"Ctrl+C", "clear the prompt; twice on an empty prompt quits"},
		{"Ctrl+D", "quit, on an empty prompt"},
		{"PgUp, PgDn, mouse wheel", "scroll"},
		{"Ctrl+O", "show or hide tool arguments and results"},
		{"Ctrl+R", "show or hide the model's reasoning"},
		{"Ctrl+G", "edit the prompt in $EDITOR"},
	} {
		fmt.Fprintf(&b, "- `%s` %s\n", k[0], k[1])
	}
	b.WriteString("\n**Commands**\n\n")
	for _, c := range commands {
		name := "/" + c.name
		if c.args != "" {
			name += " " + c.args
		}
		fmt.Fprintf(&b, "- `%s` %s\n", name, c.desc)
	}
	b.WriteString("\nMention a file with `@path` to attach it to the prompt.")
	return b.String()
}
