package engine

import (
	"context"
	"errors"
)

// ContextReport is the size of the request a conversation would send
// next, in tokens, by part. The parts are estimates (about four bytes a
// token); a run corrects them with the provider's own counts as it goes.
type ContextReport struct {
	// Window is the model's context window.
	Window int `json:"window"`
	// System is the host's system text and the loop's own instructions.
	System int `json:"system"`
	// Instructions is the text tool sources add to the system prompt:
	// project instruction files and the skill catalogue.
	Instructions int `json:"instructions"`
	// Tools is the tool definitions sent with the request.
	Tools int `json:"tools"`
	// Conversation is the messages after the system prompt.
	Conversation int `json:"conversation"`
	// Total is the sum of the parts.
	Total int `json:"total"`
}

// Context reports how much of the model's context window req would use
// if it were sent now. The error is misuse, as for Complete.
func (rt *Runtime) Context(ctx context.Context, req Request) (ContextReport, error) {
	r, _, err := rt.newRun(ctx, req, func(Event) bool { return true }, true)
	if err != nil {
		return ContextReport{}, err
	}
	defer r.cancel()
	_, canAsk := r.tools.get(AskUserTool)
	rep := ContextReport{
		Window:       r.contextWindow(),
		System:       len(r.conv.system+contract(canAsk)) / 4,
		Instructions: len(r.tools.instructions) / 4,
		Tools:        estimateSpecs(r.tools.specs),
		Conversation: estimateTokens(r.conv.wire[1:]),
	}
	rep.Total = rep.System + rep.Instructions + rep.Tools + rep.Conversation
	return rep, nil
}

// ErrNothingToCompact is Compact's error for a conversation that has no
// older part to summarise: it is only its latest turn.
var ErrNothingToCompact = errors.New("nothing to compact: the conversation is only its latest turn")

// Compact summarises the older part of req.Messages now, the way a run
// does near the window's limit, and returns a Result whose Messages are
// the conversation to continue from: the summary and the latest messages,
// tool calls kept with their results. focus, when set, tells the summary
// what matters most. observe receives the context_compacted warning that
// carries the new conversation (for session stores); no run_start or
// terminal event is emitted. Usage counts the summary's model call. The
// error is misuse, ErrNothingToCompact, or the model call's failure.
func (rt *Runtime) Compact(ctx context.Context, req Request, focus string, observe Sink) (Result, error) {
	sink := observing(observe)
	r, runCtx, err := rt.newRun(ctx, req, sink, true)
	if err != nil {
		return Result{}, err
	}
	defer r.cancel()
	// Asked for by a person, compaction keeps less than it does near the
	// limit: the point is a small context, not just a fitting one.
	if err := r.compact(runCtx, focus, r.contextWindow()/10); err != nil {
		return Result{Messages: r.conv.msgs, Usage: r.tally.used()}, err
	}
	usage, warnings, diags := r.tally.report()
	return Result{Status: StatusCompleted, RunID: r.out.runID, Messages: r.conv.msgs, Usage: usage,
		Warnings: warnings, Diagnostics: diags}, nil
}
