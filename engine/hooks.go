package engine

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/tools"
)

// Hooks is the host's own code around a run: before and after each tool
// call, and before the run finishes. Claude Code's PreToolUse,
// PostToolUse, Stop and SubagentStop hooks are one implementation (see
// cmd/hooks). Every call passes them whatever made it — the loop,
// run_code's inner calls, a sub-run (which inherits the request's Hooks),
// an MCP tool — and calls of one batch may pass them at the same time, so
// an implementation must be safe for concurrent use. A zero HookVerdict
// changes nothing.
type Hooks interface {
	// BeforeTool is asked after a call's arguments are validated and
	// before the permission policy decides it.
	BeforeTool(ctx context.Context, c HookCall) HookVerdict
	// AfterTool is told a call's outcome before the model sees it.
	AfterTool(ctx context.Context, c HookCall, o ToolOutcome) HookVerdict
	// BeforeStop is asked when the run is about to complete with an
	// answer.
	BeforeStop(ctx context.Context, s HookStop) HookVerdict
}

// HookCall is a tool call as hooks see it.
type HookCall struct {
	RunID string
	// ParentID is the call that made this one (run_code), "" for the
	// loop's own.
	ParentID string
	// SubRun says the call belongs to a spawn_agent sub-run.
	SubRun    bool
	ID, Tool  string
	Kind      tools.Kind
	Source    string // where the tool comes from: builtin, host, mcp, ...
	Arguments json.RawMessage
}

// HookStop is a run about to complete.
type HookStop struct {
	RunID  string
	SubRun bool
	Answer string
	// Again says a BeforeStop hook already kept this run going once, so
	// a hook can let it stop now instead of looping (Claude Code's
	// stop_hook_active).
	Again bool
}

// HookDecision is what a hook decided about a call or a finish.
type HookDecision string

const (
	// HookAllow runs a call without asking a person; deny rules and a
	// read-only mode still refuse it.
	HookAllow HookDecision = "allow"
	// HookAsk puts a call to a person even where the policy would let it
	// run.
	HookAsk HookDecision = "ask"
	// HookBlock refuses a call before it runs (Reason goes to the model),
	// tells the model Reason after it ran, or keeps a finishing run going
	// with Reason as what to do next.
	HookBlock HookDecision = "block"
)

// HookVerdict is a hook's answer.
type HookVerdict struct {
	Decision HookDecision
	Reason   string
	// Arguments, from BeforeTool, replace the call's arguments; they are
	// validated again.
	Arguments json.RawMessage
	// Context is added for the model after the call's result.
	Context string
	// Stop ends the run once the current calls are done; StopReason says
	// why (Claude Code's "continue": false).
	Stop       bool
	StopReason string
}

// hookState is what a run's hooks said that outlives one call.
type hookState struct {
	mu      sync.Mutex
	stopped string // why a hook stopped the run; "" while it goes on
	blocks  int    // finishes BeforeStop has kept going
}

func (h *hookState) stop(reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped == "" {
		h.stopped = firstNonEmpty(strings.TrimSpace(reason), "a hook stopped the run")
	}
}

func (h *hookState) stopReason() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stopped
}

func (r *run) hookCall(p *plan) HookCall {
	return HookCall{RunID: r.out.runID, ParentID: p.parent, SubRun: r.delegate, ID: p.call.ID, Tool: p.tool.Name,
		Kind: p.tool.Kind, Source: p.tool.Source, Arguments: json.RawMessage(p.call.Arguments)}
}

// beforeTool asks the hooks about a planned call. It returns false when
// they refused it, with its outcome emitted; new arguments replace the
// call's.
func (r *run) beforeTool(ctx context.Context, p *plan) bool {
	h := r.req.Hooks
	if h == nil {
		return true
	}
	v := h.BeforeTool(ctx, r.hookCall(p))
	if v.Stop {
		r.hooks.stop(v.StopReason)
	}
	p.hookDecision, p.hookContext = v.Decision, v.Context
	if len(v.Arguments) > 0 && v.Decision != HookBlock {
		args, bad := r.rt.validateArgs(p.tool, string(v.Arguments))
		if bad != nil {
			bad.Content = "a PreToolUse hook changed the arguments, and " + bad.Content
			p.outcome = bad
			r.emitOutcome(p)
			return false
		}
		p.args, p.call.Arguments = args, string(v.Arguments)
	}
	if v.Decision == HookBlock || v.Stop {
		p.outcome = &ToolOutcome{IsError: true, Code: OutcomePermissionDenied,
			Content: "blocked by a hook: " + firstNonEmpty(strings.TrimSpace(v.Reason), firstNonEmpty(v.StopReason, "no reason given")) + ". Do not retry it unchanged."}
		r.emitOutcome(p)
		return false
	}
	return true
}

// afterTool tells the hooks a call's outcome and adds what they say for
// the model to it.
func (r *run) afterTool(ctx context.Context, p *plan, o *ToolOutcome) {
	extra := p.hookContext
	if h := r.req.Hooks; h != nil {
		v := h.AfterTool(ctx, r.hookCall(p), *o)
		if v.Stop {
			r.hooks.stop(v.StopReason)
		}
		if v.Decision == HookBlock && strings.TrimSpace(v.Reason) != "" {
			extra = joinNonEmpty(extra, "A PostToolUse hook says: "+strings.TrimSpace(v.Reason))
		}
		extra = joinNonEmpty(extra, strings.TrimSpace(v.Context))
	}
	if extra != "" {
		o.Content += "\n\n[hook] " + extra
	}
}

// stopHook asks the hooks whether the run may complete with answer. When
// one keeps it going, it returns false and what it said, which the next
// model call carries as a note.
func (r *run) stopHook(ctx context.Context, answer string) (string, bool) {
	h := r.req.Hooks
	if h == nil {
		return "", true
	}
	v := h.BeforeStop(ctx, HookStop{RunID: r.out.runID, SubRun: r.delegate, Answer: answer, Again: r.hooks.blocks > 0})
	if v.Decision != HookBlock || v.Stop {
		return "", true
	}
	r.hooks.blocks++
	reason := firstNonEmpty(strings.TrimSpace(v.Reason), "continue the task")
	r.guard.note = "You are not done yet: a Stop hook kept the run going and says: " + reason + ". Carry on, then finish again."
	return reason, false
}

// finish completes the run with a text answer unless a Stop hook keeps
// it going.
func (r *run) finish(ctx context.Context, answer string) (Result, bool) {
	if _, ok := r.stopHook(ctx, answer); !ok {
		return Result{}, false
	}
	return r.end(StatusCompleted, answer, nil, nil), true
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
