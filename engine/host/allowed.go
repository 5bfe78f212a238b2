package host

import (
	"context"
	"errors"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// allowed are the rules a person allowed "always" in a conversation.
type allowed struct {
	mu    sync.Mutex
	rules []engine.Rule
}

// add keeps a rule a person allowed; one that does not parse was refused
// by the engine already.
func (a *allowed) add(text string) {
	rule, err := engine.ParseRule(engine.RuleAllow, text)
	if err != nil {
		return
	}
	a.mu.Lock()
	a.rules = append(a.rules, rule)
	a.mu.Unlock()
}

// with returns rules with the allowed ones added.
func (a *allowed) with(rules []engine.Rule) []engine.Rule {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.rules) == 0 {
		return rules
	}
	return append(append([]engine.Rule(nil), rules...), a.rules...)
}

// Allow adds a rule to those that hold for the rest of the conversation,
// as a person's "allow always" does.
func (c *Conversation) Allow(rule string) { c.allowed.add(rule) }

// Allowed lists the rules allowed "always" in the conversation so far.
func (c *Conversation) Allowed() []string {
	c.allowed.mu.Lock()
	defer c.allowed.mu.Unlock()
	out := make([]string, len(c.allowed.rules))
	for i, r := range c.allowed.rules {
		out[i] = r.String()
	}
	return out
}

// approver wraps the turn's Approver: an "allow always" rule is kept for
// the conversation's later turns, and an error or a Cancel stops the turn
// with a *Stopped cause.
func (c *Conversation) approver(ap engine.Approver, stop context.CancelCauseFunc) engine.Approver {
	if ap == nil {
		return nil
	}
	return StopOnCancel(engine.ApproverFunc(func(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
		d, err := ap.Approve(ctx, req)
		if err == nil && d.Action == engine.AllowAlways {
			rule := d.Rule
			if rule == "" {
				rule = req.Suggested
			}
			c.allowed.add(rule)
		}
		return d, err
	}), stop)
}

// StopOnCancel wraps an Approver for a run or call whose context stop
// cancels: a Cancel decision stops it with the *engine.CancelError the
// approver returned, or one naming the permission prompt; any other error
// is a Cancel too. A nil ap stays nil.
func StopOnCancel(ap engine.Approver, stop context.CancelCauseFunc) engine.Approver {
	if ap == nil {
		return nil
	}
	return engine.ApproverFunc(func(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
		d, err := ap.Approve(ctx, req)
		if err != nil || d.Action == engine.Cancel {
			stop(cancelError(err, "the permission prompt"))
			return engine.Decision{Action: engine.Cancel}, nil
		}
		return d, nil
	})
}

// asker wraps the turn's Asker: a person who stops at a question stops
// the turn with their *engine.CancelError as its cause.
func asker(as engine.Asker, stop context.CancelCauseFunc) engine.Asker {
	if as == nil {
		return nil
	}
	return engine.AskerFunc(func(ctx context.Context, q engine.Question) (tools.Answer, error) {
		a, err := as.Ask(ctx, q)
		if errors.Is(err, engine.ErrCancelled) && ctx.Err() == nil {
			stop(cancelError(err, "a question"))
		}
		return a, err
	})
}

// cancelError is the *engine.CancelError in err, or a new one at the
// prompt named at.
func cancelError(err error, at string) error {
	var ce *engine.CancelError
	if errors.As(err, &ce) {
		return ce
	}
	return &engine.CancelError{At: at}
}
