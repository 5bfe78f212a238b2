package ui

import (
	"context"
	"slices"
	"strings"
)

// Command is a slash command of the chat screen. The list of them
// (Commands) is the one declaration /help, Tab completion and dispatch
// all come from: the screen runs its own commands, and a host gives the
// handlers of the others it implements in Options.Commands, keyed by
// Name. A command no handler implements is left out of /help and the
// completions, and typing it says it is not available.
type Command struct {
	// Name is the command without its slash.
	Name string
	// Args shows what argument it takes ("[id]"); "" for none.
	Args string
	// Desc says in a few words what it does.
	Desc string
	// Screen commands are run by the screen itself; a host gives no
	// handler for them.
	Screen bool
	// Prompt commands are the host's custom commands (a Markdown file
	// of prompt, a skill): running one sends the line as typed as a turn
	// (Turn.Command), and the host expands it into the prompt the model
	// gets. They come from Options.Custom, after the built-in ones.
	Prompt bool
}

// CommandFunc runs a slash command for the chat screen: arg is the rest
// of the line after the name, trimmed. It runs on a goroutine of its own
// while the screen shows it busy; ctx ends when the person presses Esc.
type CommandFunc func(ctx context.Context, arg string) (Reply, error)

var commands = []Command{
	{Name: "help", Desc: "keys and commands", Screen: true},
	{Name: "model", Args: "[provider/]name", Desc: "show or switch the model"},
	{Name: "tools", Desc: "the tools the model can use"},
	{Name: "skills", Desc: "the skills the model can load"},
	{Name: "agents", Desc: "the agents spawn_agent can start"},
	{Name: "sessions", Args: "[all]", Desc: "this directory's saved sessions, or every one"},
	{Name: "resume", Args: "[id]", Desc: "reopen a saved session"},
	{Name: "clear", Desc: "start a new session"},
	{Name: "usage", Desc: "tokens used in this session"},
	{Name: "permission", Args: "[auto|ask|read|plan]", Desc: "show or change the permission mode"},
	{Name: "plan", Args: "[prompt]", Desc: "plan mode: read, then propose a plan to approve"},
	{Name: "compact", Args: "[focus]", Desc: "summarise the conversation to free context"},
	{Name: "context", Desc: "what fills the model's context window"},
	{Name: "rewind", Args: "[turn]", Desc: "restore files and chat to before a turn"},
	{Name: "mcp", Args: "[action server]", Desc: "MCP servers: status, reconnect, log in"},
	{Name: "edit", Desc: "edit the prompt in $EDITOR (Ctrl+G)", Screen: true},
	{Name: "exit", Desc: "quit (Ctrl+D)", Screen: true},
}

// Commands returns every slash command of the chat screen, in the order
// /help lists them.
func Commands() []Command { return slices.Clone(commands) }

// usage is how /help shows the command: its name and its argument.
func (c Command) usage() string { return strings.TrimSpace("/" + c.Name + " " + c.Args) }

// commandSet is the screen's commands: those it runs itself and those
// its host gave handlers for.
type commandSet struct {
	handlers map[string]CommandFunc
	// custom are the host's prompt commands (Options.Custom); a name
	// the screen's own commands hold is never one of them.
	custom []Command
}

// find looks a command up by name. ok is false for a name that is no
// command; run is nil for a screen command and for one the host does not
// implement.
func (s commandSet) find(name string) (c Command, run CommandFunc, ok bool) {
	i := slices.IndexFunc(commands, func(c Command) bool { return c.Name == name })
	if i < 0 {
		j := slices.IndexFunc(s.custom, func(c Command) bool { return c.Name == name })
		if j < 0 {
			return Command{}, nil, false
		}
		return s.custom[j], nil, true
	}
	c = commands[i]
	if c.Screen {
		return c, nil, true
	}
	return c, s.handlers[name], true
}

// available lists the commands that can run here, in declaration order.
func (s commandSet) available() []Command {
	var out []Command
	for _, c := range commands {
		if c.Screen || s.handlers[c.Name] != nil {
			out = append(out, c)
		}
	}
	return append(out, s.custom...)
}

// customCommands keeps the prompt commands whose names the screen's own
// commands do not hold, marked as prompt commands.
func customCommands(cs []Command) []Command {
	var out []Command
	for _, c := range cs {
		if c.Name == "" || slices.ContainsFunc(commands, func(b Command) bool { return b.Name == c.Name }) {
			continue
		}
		c.Prompt, c.Screen = true, false
		out = append(out, c)
	}
	return out
}

// setCustom replaces the host's prompt commands (CommandsHost); a
// command's name being typed is completed from the new list.
func (m *Model) setCustom(cs []Command) {
	m.cmds.custom = customCommands(cs)
	if v := m.in.value(); strings.HasPrefix(v, "/") && !strings.Contains(v, " ") {
		m.in.menu = commandMenu(m.cmds.available(), v)
	}
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

// keys are the screen's keys, as /help lists them.
var keys = [][2]string{
	{"Enter", "send"},
	{"Alt+Enter, Shift+Enter, Ctrl+J", "new line"},
	{"Up, Down", "earlier prompts (on the first or last line)"},
	{"Tab", "complete a /command or an @file"},
	{"Esc, Ctrl+C", "stop the running turn; Esc twice on an empty prompt: /rewind"},
	{"Ctrl+C", "clear the prompt; twice on an empty prompt quits"},
	{"Ctrl+D", "quit, on an empty prompt"},
	{"PgUp, PgDn, mouse wheel", "scroll"},
	{"Ctrl+O", "expand or fold the latest tool call on screen"},
	{"Ctrl+R", "show or hide the model's reasoning"},
	{"Ctrl+G", "edit the prompt in $EDITOR"},
	{"Shift+Tab", "switch the permission mode: ask, auto, plan"},
}
