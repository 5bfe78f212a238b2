package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/engine/policy"
)

// permState is a run's permission state: the rules as they stand (the
// request's, plus what a person allowed always during the run) and the
// allow_once rules spent. The loop and calls made by running tools share
// it, so decisions are taken one at a time under mu, held while a person
// is asked: a person is never asked two things at once, and an
// allow-always answer holds for the next decision.
type permState struct {
	mu    sync.Mutex
	rules []Rule
	spent map[int]bool // allow_once rules used up, by index in rules
	// granted are the allow rules of the skills loaded in this run. They
	// are kept apart from rules so that a sub-run's grants stay with the
	// sub-run (adopt takes only what a person allowed), while a sub-run
	// starts with its parent's (inherited).
	granted []Rule
}

// decide applies the policy of perm, with the rules as they stand, to a
// call and spends the allow_once rules that allow it; paths gives the
// forms of its path arguments (policy.Policy.Paths). mu is held.
func (s *permState) decide(perm Permission, c policy.Call, paths func(string) []string) policy.Verdict {
	rules := s.rules
	if len(s.granted) > 0 {
		// Granted rules go after the others, so the indices of allow_once
		// rules, which Spent records, stay as they are.
		rules = append(slices.Clip(s.rules), s.granted...)
	}
	pol := policy.Policy{Mode: perm.Mode, Rules: rules, AllowSandboxed: perm.AllowSandboxed,
		Spent: func(i int) bool { return s.spent[i] }, Paths: paths}
	v := pol.Decide(c)
	for _, i := range v.Spent {
		if s.spent == nil {
			s.spent = make(map[int]bool)
		}
		s.spent[i] = true
	}
	return v
}

// allow adds a rule a person allowed always. mu is held.
func (s *permState) allow(r Rule) { s.rules = append(s.rules, r) }

// grant adds the allow rules a loaded skill asks for (tools.Granter). It
// takes mu itself: tools run outside the permission lock.
func (s *permState) grant(rules []string) error {
	var parsed []Rule
	var bad []string
	for _, text := range rules {
		r, err := policy.ParseRule(policy.Allow, text)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		parsed = append(parsed, r)
	}
	s.mu.Lock()
	s.granted = append(s.granted, parsed...)
	s.mu.Unlock()
	if len(bad) > 0 {
		return fmt.Errorf("rules not added: %s", strings.Join(bad, "; "))
	}
	return nil
}

// inherited are the rules a sub-run starts with: these as they stand now,
// with what a person allowed always during this run and what its loaded
// skills granted, but without
// allow_once rules, which belong to the call they allow.
func (s *permState) inherited() []Rule {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Rule, 0, len(s.rules)+len(s.granted))
	for _, r := range s.rules {
		if r.Action != RuleAllowOnce {
			out = append(out, r)
		}
	}
	return append(out, s.granted...)
}

// adopt takes the rules a person added to a finished sub-run, which
// started with the first n of its rules.
func (s *permState) adopt(child *permState, n int) {
	child.mu.Lock()
	added := append([]Rule(nil), child.rules[n:]...)
	child.mu.Unlock()
	s.mu.Lock()
	s.rules = append(s.rules, added...)
	s.mu.Unlock()
}

// authorize decides a call under the run's permission policy (deny rules
// for every call; read mode, allow rules, auto mode and then a person for
// mutating ones) and returns the outcome of a refused call, or nil. The
// caller holds perm.mu.
func (r *run) authorize(ctx context.Context, p *plan) *ToolOutcome {
	v := r.perm.decide(r.req.Permission, policy.Call{Tool: p.tool.Name, Args: p.args,
		Mutating: p.tool.Kind.Mutating(), Sandboxed: p.tool.Sandboxed}, r.rulePaths)
	switch v.Outcome {
	case policy.Allowed:
		if p.hookDecision == HookAsk {
			return r.askPerson(ctx, p)
		}
		return nil
	case policy.Denied:
		return &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
			Content: fmt.Sprintf("permission denied: the rule deny %s forbids this call; do not retry it, find another way or report it", v.Rule)}
	case policy.ReadOnly:
		if r.req.Permission.Mode == ModePlan {
			return &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
				Content: fmt.Sprintf("permission denied: planning mode allows only reading, so %s (which changes things) is not allowed; keep investigating with read tools, and say in the plan what you would change", p.tool.Name)}
		}
		return &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
			Content: fmt.Sprintf("permission denied: this run is read-only, so %s (which changes things) is not allowed; work with read tools or report what you would change", p.tool.Name)}
	case policy.Unchecked:
		return r.askUnchecked(ctx, p, v.Rule, v.Opaque)
	}
	if p.hookDecision == HookAllow {
		return nil
	}
	return r.askPerson(ctx, p)
}

// rulePaths gives the forms in which rules match a path argument
// (policy.Policy.Paths): so read_file(path=secrets/**) holds against
// /abs/ws/secrets/s.txt, ./secrets//s.txt, x/../secrets/s.txt and
// link/s.txt where link points to secrets.
func (r *run) rulePaths(p string) []string {
	rel, abs := r.pathForms(p)
	return append(rel, abs...)
}

// pathForms returns a path argument as the file tools resolve it:
// cleaned and joined to the workspace root, then with symlinks followed
// when that differs (and it resolves inside the workspace or a read
// root), each absolute and, when inside the workspace, relative to it.
func (r *run) pathForms(p string) (rel, abs []string) {
	if r.ws == nil {
		return nil, nil
	}
	lexical := filepath.Clean(p)
	if !filepath.IsAbs(p) {
		lexical = filepath.Join(r.ws.Root(), p)
	}
	abs = []string{lexical}
	if real, err := r.ws.Resolve(p); err == nil && real != lexical {
		abs = append(abs, real)
	}
	for _, a := range abs {
		if rp := r.ws.Rel(a); rp != a {
			rel = append(rel, rp)
		}
	}
	return rel, abs
}

// ruleArgs are a call's arguments with each path argument in the form
// rules match, the workspace-relative path it resolves to, so that a rule
// suggested for the call holds for it however the model spelled it.
func (r *run) ruleArgs(args map[string]any) map[string]any {
	out := args
	for _, k := range []string{"path", "directory", "file", "cwd"} {
		s, ok := args[k].(string)
		if !ok {
			continue
		}
		rel, _ := r.pathForms(s)
		if len(rel) == 0 || rel[len(rel)-1] == s {
			continue
		}
		out = maps.Clone(out)
		out[k] = rel[len(rel)-1]
	}
	return out
}

// canApprove reports whether a person can be asked about a call.
func (r *run) canApprove() bool {
	return r.req.Permission.Approver != nil || r.req.Permission.ReplyViaEvents
}

// askUnchecked puts a call that a deny rule cannot be checked against to
// a person, or refuses it, saying why, when no one can be asked.
func (r *run) askUnchecked(ctx context.Context, p *plan, rule Rule, part string) *ToolOutcome {
	if r.canApprove() {
		return r.askPerson(ctx, p)
	}
	return &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
		Content: fmt.Sprintf("permission denied: the rule deny %s cannot be checked against this command, because %s; write the command out plainly (no variables, command substitutions or globs in place of a program, no script fed to a shell, no value read at run time used in arithmetic)", rule, part)}
}

// askPerson puts an undecided call to the Approver, to the Stream
// consumer, or, with no one to ask, denies it with a warning naming the
// rule that would allow it. It returns the outcome of a refused call, or
// nil.
func (r *run) askPerson(ctx context.Context, p *plan) *ToolOutcome {
	suggested := policy.Suggest(p.tool.Name, r.ruleArgs(p.args))
	if !r.canApprove() {
		r.warnRule("permission_denied", fmt.Sprintf("denied %s: it needs approval and no one is available to approve it; the rule %s would allow it", p.tool.Name, suggested), suggested.String())
		return &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
			Content: fmt.Sprintf("permission denied: %s needs a person's approval and none is available in this run. Do not retry it; tell the user that allowing %s would let it run, or find another way.", p.tool.Name, suggested)}
	}
	d, err := r.approval(ctx, p, suggested)
	if err != nil {
		if ctx.Err() != nil {
			return &ToolOutcome{IsError: true, Code: OutcomeCancelled, Content: "cancelled while waiting for approval"}
		}
		return &ToolOutcome{IsError: true, Code: OutcomePermissionDenied, Content: fmt.Sprintf("permission denied: approval failed: %v", err)}
	}
	switch d.Action {
	case AllowOnce:
		return nil
	case AllowAlways:
		rule := suggested
		if d.Rule != "" {
			if parsed, perr := policy.ParseRule(policy.Allow, d.Rule); perr == nil {
				rule = parsed
			}
		}
		r.perm.allow(rule)
		return nil
	case Cancel:
		r.cancel()
		return &ToolOutcome{IsError: true, Code: OutcomeCancelled, Content: "cancelled by the user"}
	default:
		msg := "permission denied: the user declined this call"
		if d.Reason != "" {
			msg += "; their reason: " + d.Reason
		}
		return &ToolOutcome{IsError: true, Code: OutcomePermissionDenied, Content: msg + ". Do not retry it unchanged."}
	}
}

// approval emits the permission request for a call and waits for the
// Approver's decision, or for one sent on the event's Reply channel.
func (r *run) approval(ctx context.Context, p *plan, suggested Rule) (Decision, error) {
	perm := r.req.Permission
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
	if perm.Approver != nil {
		return perm.Approver.Approve(ctx, req)
	}
	select {
	case d := <-reply:
		return d, nil
	case <-ctx.Done():
		return Decision{}, ctx.Err()
	}
}
