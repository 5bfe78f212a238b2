package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// InterruptMode is what a pause means for the work the run did before it:
// the seed's interrupt strategy (Config.Interrupt).
type InterruptMode string

// Interrupt modes.
const (
	// InterruptContinue, the default, keeps the run's work: the resumed
	// run goes on from the whole conversation, and rollbacks registered
	// by its tools are dropped.
	InterruptContinue InterruptMode = "continue"
	// InterruptRestart undoes the run's work when it pauses: the rollbacks
	// its tools registered run, newest first, before the paused Result is
	// returned (a failure is a diagnostic, and the others still run), and
	// the conversation the run resumes from is the one it started from
	// plus its last reply, reduced to the calls that wait for answers.
	// The resumed run so redoes the work knowing the answers. Events
	// still show everything that happened.
	InterruptRestart InterruptMode = "restart"
)

// checkInterrupt refuses an unknown mode; empty is InterruptContinue.
func checkInterrupt(m InterruptMode) error {
	switch m {
	case "", InterruptContinue, InterruptRestart:
		return nil
	}
	return configError("unknown interrupt mode %q (use %s or %s)", m, InterruptContinue, InterruptRestart)
}

// RegisterRollback registers undo with the run of the tool call whose
// context ctx is, under a name that identifies it in diagnostics. Under
// InterruptRestart, when that run pauses, its rollbacks run newest first
// on the run's context. It reports false outside a tool call of a run's
// loop (a call of ExecuteToolCall never pauses), where undo is not kept.
func RegisterRollback(ctx context.Context, name string, undo func(context.Context) error) bool {
	c := CallerFrom(ctx)
	if c == nil || !c.r.looping || undo == nil {
		return false
	}
	c.r.rollbacks.add(name, undo)
	return true
}

// rollbacks are the undo functions a run's tools registered. Tools
// register them from their own goroutines, hence mu.
type rollbacks struct {
	mu   sync.Mutex
	list []rollback
}

type rollback struct {
	name string
	undo func(context.Context) error
}

func (rb *rollbacks) add(name string, undo func(context.Context) error) {
	rb.mu.Lock()
	rb.list = append(rb.list, rollback{name, undo})
	rb.mu.Unlock()
}

// take returns the registered rollbacks, newest first, and forgets them.
func (rb *rollbacks) take() []rollback {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	list := rb.list
	rb.list = nil
	slices.Reverse(list)
	return list
}

// pauseState is what a run knows of its pause: the token of the pause it
// resumed (Runtime.Resume), and once it pauses, the kind and its token.
type pauseState struct {
	resumes string
	kind    PauseKind
	token   string
}

// paused ends the run on calls the host must answer: under
// InterruptRestart it rolls the run's work back first, then it keeps the
// pause in the checkpoint store, if there is one, so the Result carries
// its token.
func (r *run) paused(ctx context.Context, pending []ToolCall) Result {
	r.pause.kind = pauseKindOf(pending)
	if r.rt.cfg.Interrupt == InterruptRestart {
		r.rollBack(ctx)
		r.conv.msgs = restartFrom(r.req.Messages, r.conv.msgs, pending)
	}
	if store := r.rt.cfg.Checkpoints; store != nil && r.req.ParentID == "" {
		usage, _, _ := r.tally.report()
		cp := Checkpoint{
			Resumed: r.pause.resumes, RunID: r.out.runID, Kind: r.pause.kind,
			Provider: r.req.Provider, Model: r.req.Model, WorkDir: r.req.WorkDir, BuiltIns: r.req.BuiltIns,
			Messages: r.conv.msgs, Pending: pending, Usage: usage, Iterations: r.guard.iter,
		}
		token, err := store.Save(context.WithoutCancel(ctx), cp)
		switch {
		case err != nil && token == "":
			r.diagnose([]Diagnostic{{Source: "checkpoint", Message: "the pause was not saved, so it has no resume token: " + err.Error()}})
		case err != nil:
			r.diagnose([]Diagnostic{{Source: "checkpoint", Message: err.Error()}})
		}
		r.pause.token = token
	}
	return r.end(StatusToolCalls, "", nil, pending)
}

// rollBack runs the registered rollbacks, newest first; each failure,
// panics included, is a diagnostic, and the rest still run.
func (r *run) rollBack(ctx context.Context) {
	for _, rb := range r.rollbacks.take() {
		if err := runRollback(ctx, rb); err != nil {
			r.diagnose([]Diagnostic{{Source: "rollback " + rb.name, Message: "failed: " + err.Error()}})
		}
	}
}

func runRollback(ctx context.Context, rb rollback) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	return rb.undo(ctx)
}

// restartFrom is the conversation a run paused under InterruptRestart
// resumes from: the one it started from, then its last reply with only
// the calls that wait for answers, since the results of the others
// describe work that was undone.
func restartFrom(start, msgs []Message, pending []ToolCall) []Message {
	out := append([]Message(nil), start...)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != RoleAssistant {
			continue
		}
		last := msgs[i]
		last.ToolCalls = nil
		for _, c := range msgs[i].ToolCalls {
			if slices.ContainsFunc(pending, func(p ToolCall) bool { return p.ID == c.ID }) {
				last.ToolCalls = append(last.ToolCalls, c)
			}
		}
		return append(out, last)
	}
	return out
}
