package cmd

import (
	"context"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// person puts a run's questions and approvals to someone through the ui
// package's forms: drawn inline on the terminal for run (ui.Terminal), or
// on the chat screen (the Prompter of a chat turn). It is the only place
// prompts are drawn, so run and chat differ only in where the forms
// appear. A person who stops the run at a form (Esc and Cancel, or
// Ctrl-C, which a form in raw mode receives as a key) makes it return an
// *engine.CancelError, which travels unchanged to the end of the run and
// names where it stopped.
type person struct {
	forms ui.Prompter
	h     *cmdHost
}

// person returns the person behind forms.
func (h *cmdHost) person(forms ui.Prompter) person { return person{forms: forms, h: h} }

// approver returns the Approver of a run whose person answers through
// forms: nil without forms or outside ask mode (the engine then denies
// undecided calls and names the rule that would allow them).
func (h *cmdHost) approver(forms ui.Prompter) engine.Approver {
	if forms == nil || h.s.permission.Mode != engine.ModeAsk {
		return nil
	}
	return h.person(forms)
}

// asker returns the Asker of a run whose person answers through forms:
// nil without forms or when questions must pause the run instead.
func (h *cmdHost) asker(forms ui.Prompter) engine.Asker {
	if forms == nil || h.noQuestions {
		return nil
	}
	return h.person(forms)
}

// Approve asks whether a call may run. A rule allowed "always" holds for
// the rest of the conversation (the conversation keeps it); one allowed
// for the project is also saved to the project config before the call
// runs, and if it cannot be, a warning says it holds for this session
// only.
func (p person) Approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
	r, err := p.forms.Permit(ctx, req)
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
	if r.Project {
		p.h.saveProjectRule(d.Rule)
	}
	return d, nil
}

// Ask answers an ask_user_input call.
func (p person) Ask(ctx context.Context, q engine.Question) (tools.Answer, error) {
	return p.ask(ctx, q.Input)
}

// ask asks until the answer answers every question: an incomplete answer
// is reported and asked again, never passed on.
func (p person) ask(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	for {
		a, err := p.forms.Ask(ctx, in)
		if err != nil {
			return a, err
		}
		_, err = in.Resolve(a)
		if err == nil {
			return a, nil
		}
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		p.h.tell(false, err.Error()+"; answer again")
	}
}

// saveProjectRule saves a rule a person allowed for the project to its
// config file. A trusted folder stays trusted with the file as llmrt wrote
// it; an untrusted one applies the rule once the person trusts it.
func (h *cmdHost) saveProjectRule(rule string) {
	if err := config.AddProjectAllow(h.s.workDir, rule); err != nil {
		h.warnf("the rule %s holds for this session only: %v", rule, err)
		return
	}
	if !h.s.trusted {
		h.warnf("the rule %s is saved to %s; later runs apply it once you trust this folder (llmrt trust)", rule, config.ProjectPath(h.s.workDir))
		return
	}
	if err := h.s.trustStore.Trust(h.s.folder.Refresh()); err != nil {
		h.warnf("the rule %s is saved, but the folder could not be trusted with it: %v", rule, err)
		return
	}
	// The project's rules hold for the rest of this process too, past a
	// new session (/clear), as they will for later runs.
	if r, err := engine.ParseRule(engine.RuleAllow, rule); err == nil {
		h.s.permission.Rules = append(h.s.permission.Rules, r)
	}
}
