package engine

import "context"

// exec takes one planned call alone through the permission policy and
// runs it. It is the single path of every mutating call of a batch, of
// calls made outside the loop (ExecuteToolCall) and of calls a running
// tool makes (Caller.CallTool); only a batch's read calls are admitted
// one by one and then run together.
func (r *run) exec(ctx context.Context, p *plan) {
	switch {
	case p.outcome != nil:
	case p.pending:
		r.hostOwned(p)
	case r.admit(ctx, p):
		r.runGroup(ctx, []*plan{p})
	}
}

// hostOwned gives a host-owned call made outside the loop its outcome:
// only the host can answer it.
func (r *run) hostOwned(p *plan) {
	p.outcome = &ToolOutcome{Content: p.call.Name + " is host-owned: the host must answer it", IsError: true, Code: OutcomeNotRun}
	r.emitOutcome(p)
}

// admit applies the permission policy to a planned call: deny rules to
// every call, the full policy (modes, allow rules, a person) to mutating
// ones. A refused call gets its outcome. The permission state is shared by
// the loop and by calls from running tools, so decisions are taken one at
// a time; a person is never asked two things at once, and an allow-always
// answer holds for the next decision.
func (r *run) admit(ctx context.Context, p *plan) bool {
	// Hooks run first, outside the lock: one may take a while, and calls
	// made meanwhile by running tools must not wait for it.
	if !r.beforeTool(ctx, p) {
		return false
	}
	r.perm.mu.Lock()
	defer r.perm.mu.Unlock()
	if ctx.Err() != nil && p.tool.Kind.Mutating() {
		return true // invoke reports the cancellation
	}
	o := r.authorize(ctx, p)
	if o == nil {
		return true
	}
	p.outcome = o
	r.emitOutcome(p)
	return false
}

// message returns the tool message of the call's outcome, the one its
// outcome event carried.
func (p *plan) message() Message {
	if p.msg.Role == "" {
		p.msg = toolMessage(p.call, *p.outcome)
	}
	return p.msg
}

// serial reports a call that runs alone, in model order.
func (p *plan) serial() bool { return p.ask || p.tool.Kind.Mutating() }
