package engine

import (
	"context"
	"encoding/json"
	"fmt"
)

// denyRule returns the outcome for a call a deny rule matches, or nil.
// Deny rules apply to every tool; they win over allow rules. A deny rule
// with a command pattern forbids a line when any command in it matches.
func (r *run) denyRule(p *plan) *ToolOutcome {
	var c *callView // built at the first deny rule: most runs have none
	for _, rule := range r.rules {
		if rule.Action != RuleDeny {
			continue
		}
		if c == nil {
			c = newCallView(p.tool.Name, p.args)
		}
		if rule.denies(c) {
			return &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
				Content: fmt.Sprintf("permission denied: the rule deny %s forbids this call; do not retry it, find another way or report it", rule)}
		}
	}
	return nil
}

// authorize decides a mutating call under the run's permission policy, in
// this order: deny rules, read mode, allow rules, auto mode, then a person.
// A command line is allowed by rules only when every command it runs is
// allowed; an allow_once rule is used up by the call it allowed.
func (r *run) authorize(ctx context.Context, p *plan) (bool, *ToolOutcome) {
	if o := r.denyRule(p); o != nil {
		return false, o
	}
	name := p.tool.Name
	if r.req.Permission.Mode == ModeRead {
		return false, &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
			Content: fmt.Sprintf("permission denied: this run is read-only, so %s (which changes things) is not allowed; work with read tools or report what you would change", name)}
	}
	usedUp := func(i int) bool { return r.rules[i].Action == RuleAllowOnce && r.usedOnce[i] }
	if ok, used := allowedBy(r.rules, usedUp, newCallView(name, p.args)); ok {
		for _, i := range used {
			if r.rules[i].Action == RuleAllowOnce {
				r.usedOnce[i] = true
			}
		}
		return true, nil
	}
	if r.req.Permission.Mode == ModeAuto || r.req.Permission.AllowSandboxed && p.tool.Sandboxed {
		if rule, part, ok := r.uncheckable(p); ok {
			return r.askUnchecked(ctx, p, rule, part)
		}
		return true, nil
	}
	return r.ask(ctx, p)
}

// uncheckable finds a deny rule with a command pattern that cannot be
// checked against the call's command line, and the part that defeats it:
// a program known only when the line runs ($X, $(...), a glob, a shell
// reading its commands from stdin) or a line that does not parse. Such a
// line may run what the rule forbids, so it does not run unasked.
func (r *run) uncheckable(p *plan) (Rule, string, bool) {
	var c *callView
	for _, rule := range r.rules {
		if _, ok := rule.Params["command"]; !ok || rule.Action != RuleDeny {
			continue
		}
		if c == nil {
			if c = newCallView(p.tool.Name, p.args); !c.hasCommand {
				return Rule{}, "", false
			}
		}
		if !rule.matchesExcept(c, "command") {
			continue
		}
		if part, ok := c.commands().opaque(); ok {
			return rule, part, true
		}
	}
	return Rule{}, "", false
}

// askUnchecked puts a call that a deny rule cannot be checked against to
// a person, or refuses it, saying why, when no one can be asked.
func (r *run) askUnchecked(ctx context.Context, p *plan, rule Rule, part string) (bool, *ToolOutcome) {
	perm := r.req.Permission
	if perm.Approver != nil || perm.ReplyViaEvents {
		return r.ask(ctx, p)
	}
	return false, &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
		Content: fmt.Sprintf("permission denied: the rule deny %s cannot be checked against this command, because %s; write the command out plainly (no variables, command substitutions or globs in place of a program, no script fed to a shell)", rule, part)}
}

// ask puts an undecided call to the Approver, to the Stream consumer, or,
// with no one to ask, denies it with a warning naming the rule that would
// allow it.
func (r *run) ask(ctx context.Context, p *plan) (bool, *ToolOutcome) {
	suggested := SuggestRule(p.tool.Name, p.args)
	perm := r.req.Permission
	if perm.Approver == nil && !perm.ReplyViaEvents {
		r.warnRule("permission_denied", fmt.Sprintf("denied %s: it needs approval and no one is available to approve it; the rule %s would allow it", p.tool.Name, suggested), suggested.String())
		return false, &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
			Content: fmt.Sprintf("permission denied: %s needs a person's approval and none is available in this run. Do not retry it; tell the user that allowing %s would let it run, or find another way.", p.tool.Name, suggested)}
	}
	req := PermissionRequest{Tool: p.tool.Name, Kind: p.tool.Kind, Arguments: p.call.Arguments, Suggested: suggested.String()}
	if p.tool.Preview != nil {
		req.Preview = p.tool.Preview(json.RawMessage(p.call.Arguments))
	}
	var reply chan Decision
	if perm.Approver == nil {
		reply = make(chan Decision, 1)
		req.Reply = reply
	}
	r.out.emit(Event{Type: EventPermissionRequest, Call: r.callInfo(p, true), Permission: &req})
	var d Decision
	var err error
	if perm.Approver != nil {
		d, err = perm.Approver.Approve(ctx, req)
	} else {
		select {
		case d = <-reply:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return false, &ToolOutcome{IsError: true, Code: OutcomeCancelled, Content: "cancelled while waiting for approval"}
		}
		return false, &ToolOutcome{IsError: true, Code: OutcomePermissionDenied, Content: fmt.Sprintf("permission denied: approval failed: %v", err)}
	}
	switch d.Action {
	case AllowOnce:
		return true, nil
	case AllowAlways:
		rule := suggested
		if d.Rule != "" {
			if parsed, perr := ParseRule(RuleAllow, d.Rule); perr == nil {
				rule = parsed
			}
		}
		r.rules = append(r.rules, rule)
		return true, nil
	case Cancel:
		r.cancel()
		return false, &ToolOutcome{IsError: true, Code: OutcomeCancelled, Content: "cancelled by the user"}
	default:
		msg := "permission denied: the user declined this call"
		if d.Reason != "" {
			msg += "; their reason: " + d.Reason
		}
		return false, &ToolOutcome{IsError: true, Code: OutcomePermissionDenied, Content: msg + ". Do not retry it unchanged."}
	}
}
