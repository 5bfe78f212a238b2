package cmd

import (
	"context"
	"errors"
	"io"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// prompter puts a run's questions to the person at the terminal. It is the
// only place that draws prompts, so the select lists can be swapped for
// other components without touching the host.
type prompter interface {
	// ask collects an answer to an ask_user_input payload; the host
	// checks it and asks again when it does not answer every question.
	ask(ctx context.Context, in tools.AskInput) (tools.Answer, error)
	// approve decides a call that needs permission.
	approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error)
}

// errAborted is returned by a prompter when the person aborted the prompt
// (Esc and Cancel, or Ctrl-C, which a prompt in raw mode receives as a
// key).
var errAborted = errors.New("prompt aborted")

// termPrompts is the prompter of the ui package's forms, drawn inline on
// stderr and read from the prompt terminal (stdin, or /dev/tty when stdin
// is piped).
type termPrompts struct {
	io *IO
	// errOut is stderr behind the redactor, for warnings.
	errOut io.Writer
	// workDir holds the project config a rule allowed "always in this
	// project" is saved to.
	workDir string
}

// terminal is where the forms are drawn and read.
func (p termPrompts) terminal() ui.Terminal {
	return ui.Terminal{In: p.io.promptIn(), Out: p.io.ErrOut, Palette: ui.NewPalette(p.io.ErrColor, true)}
}

// ask shows one select list per question.
func (p termPrompts) ask(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	a, err := ui.Ask(ctx, p.terminal(), in)
	if errors.Is(err, ui.ErrCancelled) {
		return a, errAborted
	}
	return a, err
}
