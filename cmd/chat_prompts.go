package cmd

import (
	"context"
	"errors"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// screenPrompts puts a chat turn's questions on the chat screen. "Allow
// always" decisions outlive the turn: they hold for the rest of the
// session, and for the project when the person said so.
type screenPrompts struct {
	p ui.Prompter
	c *chatHost
}

func (s screenPrompts) ask(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	a, err := s.p.Ask(ctx, in)
	if errors.Is(err, ui.ErrCancelled) {
		return a, errAborted
	}
	return a, err
}

func (s screenPrompts) approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
	r, err := s.p.Permit(ctx, req)
	switch {
	case errors.Is(err, ui.ErrCancelled):
		return engine.Decision{Action: engine.Cancel}, errAborted
	case err != nil:
		return engine.Decision{Action: engine.Cancel}, err
	}
	d := r.Decision
	if d.Action != engine.AllowAlways {
		return d, nil
	}
	text := d.Rule
	if text == "" {
		text = req.Suggested
	}
	if rule, err := engine.ParseRule(engine.RuleAllow, text); err == nil {
		s.c.rules = append(s.c.rules, rule)
	}
	if r.Project {
		if err := saveProjectRule(s.c.h.s.workDir, text); err != nil {
			s.c.h.warnf("the rule %s holds for this session only: %v", text, err)
		}
	}
	return d, nil
}
