package cmd

import (
	"context"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// prompter puts a run's questions to the person. The host calls it; it
// is the only place prompts are drawn, so run and chat differ only in
// where the forms appear.
//
// A person who stops the run at a prompt (Esc and Cancel, or Ctrl-C,
// which a prompt in raw mode receives as a key) makes either method
// return an *engine.CancelError, the one cancel error from the form to
// the engine.
type prompter interface {
	// ask collects an answer to an ask_user_input payload; the host
	// checks it and asks again when it does not answer every question.
	ask(ctx context.Context, in tools.AskInput) (tools.Answer, error)
	// approve decides a call that needs permission.
	approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error)
}

// formPrompts is the prompter of both commands: the ui package's forms,
// drawn inline on the terminal for run (ui.Terminal) or on the chat
// screen (the Prompter of a chat turn).
type formPrompts struct {
	p ui.Prompter
	h *host
}

func (f formPrompts) ask(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	return f.p.Ask(ctx, in)
}

// approve asks whether a call may run. "Allow always" holds for the rest
// of the host's runs (a chat's later turns); a rule allowed for the
// project is also saved to the project config before the call runs, and
// if it cannot be, a warning says it holds for this session only.
func (f formPrompts) approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
	r, err := f.p.Permit(ctx, req)
	if err != nil {
		return engine.Decision{Action: engine.Cancel}, err
	}
	d := r.Decision
	if d.Action != engine.AllowAlways {
		return d, nil
	}
	if d.Rule == "" {
		d.Rule = req.Suggested
	}
	f.h.allow(d.Rule)
	if r.Project {
		if err := config.AddProjectAllow(f.h.s.workDir, d.Rule); err != nil {
			f.h.warnf("the rule %s holds for this session only: %v", d.Rule, err)
		}
	}
	return d, nil
}
