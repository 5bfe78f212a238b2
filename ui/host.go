package ui

import (
	"context"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// Host is the program around the chat screen: it keeps the conversation
// and runs each turn. The slash commands that need more than the screen
// are handlers the host gives in Options.Commands. The screen calls the
// host and the handlers from commands, never from Update, so a slow call
// never freezes the screen.
type Host interface {
	// Turn runs one turn of the conversation: the person's prompt is
	// appended and the model/tool loop runs to its terminal event, every
	// event handed to t.Events. An empty prompt continues a conversation
	// whose questions are still waiting (a resumed paused run). The error
	// is for what kept the turn from running at all.
	Turn(ctx context.Context, t Turn) error
	// Files lists workspace files whose path starts with prefix, for
	// completing @ mentions; a few dozen at most.
	Files(ctx context.Context, prefix string) []string
}

// StatusHost is a Host that tells the screen its facts after each turn:
// the session a first turn saved, the tokens so far. The screen asks on
// the turn's goroutine, once Turn has returned.
type StatusHost interface {
	Status() Status
}

// CommandsHost is a Host whose prompt commands change while the screen is
// up (an MCP server's prompts are known once the server started): the
// screen asks for the whole list once it is up, on a goroutine of its
// own, and again after each turn and each host command, on that turn's
// or command's goroutine; the list replaces Options.Custom.
type CommandsHost interface {
	PromptCommands(ctx context.Context) []Command
}

// Turn is one turn the screen asks the host to run.
type Turn struct {
	Prompt string
	// Command says Prompt is a prompt command as typed ("/review
	// main.go", see Command.Prompt): the host expands it.
	Command bool
	// Events receives the turn's events. It never blocks.
	Events engine.Sink
	// Prompts puts the turn's questions and permission requests to the
	// person on the screen.
	Prompts Prompter
}

// Prompter puts questions to the person. The chat screen and the inline
// forms of `llmrt run` (Terminal) both implement it, so the host code
// that wires approvals and answers is one for both commands. Both methods
// block until the person answers or ctx ends; an *engine.CancelError
// means the person chose to stop the run.
type Prompter interface {
	Ask(ctx context.Context, in tools.AskInput) (tools.Answer, error)
	Permit(ctx context.Context, req engine.PermissionRequest) (PermitResult, error)
}

// Reply is what a slash command run by the host changes on the screen.
type Reply struct {
	// Report is shown in the transcript, drawn by the screen; nil shows
	// nothing.
	Report Report
	// History, when not nil, replaces the transcript with this
	// conversation (/resume, /clear).
	History []engine.Message
	// Status, when not nil, replaces the status line's facts.
	Status *Status
	// Pending says the conversation has questions waiting: the screen
	// starts a turn at once so the host can ask them.
	Pending bool
	// Send is a prompt the screen sends as the next turn once the reply
	// is shown (/plan with a prompt).
	Send string
	// Warnings are what the host found while running the command (a
	// session line it could not read), shown as warnings.
	Warnings []string
	// Ask, when set, is a choice the screen puts to the person once the
	// reply is shown: the option picked runs the same command again with
	// the option's ID as its argument (/rewind's "code and conversation").
	// Cancelling the question runs nothing.
	Ask *tools.Question
}

// Status are the facts the status line shows.
type Status struct {
	Provider   string
	Model      string
	Permission string
	Sandbox    string
	Session    string
	// Dir is the working directory, for the person's status line.
	Dir string
	// Usage is the tokens of the session so far, before the running turn.
	Usage engine.Usage
}
