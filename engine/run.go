package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// run is the state of one Complete or Stream call: what it was given and
// works with, then its parts, one job each. Only the loop goroutine
// touches the transcript and the guards; the tallies, the permission
// state and the answers' question lock are shared with running tools
// (inner calls of run_code, sub-runs) and carry their own locks, as the
// emitter does.
type run struct {
	rt       *Runtime
	req      Request
	provider providers.Provider
	ws       *tools.Workspace
	tools    *toolset
	out      *emitter
	cancel   context.CancelFunc
	looping  bool // a loop run, not a call outside the loop
	// delegate marks a spawn_agent sub-run: the evidence rule of host
	// actions is its parent's, to which its actions count.
	delegate bool

	conv    transcript // the conversation, as stored and as the model sees it
	guard   guards     // the loop's bounds and its next recovery note
	tally   tallies    // usage, evidence, warnings and diagnostics
	perm    permState  // the rules as they stand; decisions one at a time
	answers answers    // a person's answers to ask_user_input
	hooks   hookState  // what the request's Hooks said that outlives a call

	rollbacks rollbacks  // what the run's tools registered to undo on a pause
	pause     pauseState // the pause it resumed and the one it ends in
	// shape is the request's AnswerSchema, compiled; nil without one.
	shape *answerShape
}

// newRun prepares a run; errors are misuse (invalid_request).
func (rt *Runtime) newRun(ctx context.Context, req Request, sink func(Event) bool, needModel bool) (*run, context.Context, error) {
	req, p, err := rt.prepare(req, needModel)
	if err != nil {
		return nil, nil, err
	}
	dir := req.WorkDir
	if dir == "" {
		dir = "."
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		return nil, nil, invalidRequest("%v", err)
	}
	if err := rt.Start(ctx); err != nil {
		return nil, nil, err
	}
	ts, err := rt.resolveTools(ctx, &req, ws, true)
	if err != nil {
		return nil, nil, err
	}
	if req.Strict {
		if err := strictError(prepared(&req, ts)); err != nil {
			return nil, nil, err
		}
	}
	shape, err := rt.newAnswerShape(&req)
	if err != nil {
		return nil, nil, err
	}
	answered, err := checkHistory(req.Messages)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &run{
		rt: rt, req: req, provider: p, ws: ws, tools: ts, cancel: cancel, looping: needModel,
		conv:    newTranscript(req.Messages),
		perm:    permState{rules: append([]Rule(nil), req.Permission.Rules...)},
		answers: answers{ids: answered},
		shape:   shape,
	}
	r.adoptAnsweredActions()
	r.diagnose(req.Diagnostics)
	r.diagnose(ts.diags)
	r.out = &emitter{sink: sink, cancel: cancel, runID: newRunID(), parentID: req.ParentID, report: rt.cfg.Reporter}
	r.conv.setSystem(r.systemMessage())
	return r, ctx, nil
}

// warn records a warning once and emits it.
func (r *run) warn(code, msg string) { r.warnRule(code, msg, "") }

// warnEvery emits a warning even when an identical one was emitted before,
// for warnings consumers act on each time; Result.Warnings lists it once.
func (r *run) warnEvery(code, msg string) {
	w := Warning{Code: code, Message: msg}
	r.tally.addWarning(w)
	r.out.emit(Event{Type: EventWarning, Warning: &w})
}

// warnRule records a warning that may name the rule it is about once,
// and emits it the first time.
func (r *run) warnRule(code, msg, rule string) {
	w := Warning{Code: code, Message: msg, Rule: rule}
	if r.tally.addWarning(w) {
		r.out.emit(Event{Type: EventWarning, Warning: &w})
	}
}

// systemMessage is the managed system prompt: the host's system text, the
// loop contract, the environment and the tool sources' instructions.
func (r *run) systemMessage() Message {
	_, canAsk := r.tools.get(AskUserTool)
	text := r.conv.system + contract(canAsk)
	if r.req.Permission.Mode == ModePlan {
		text += "\n\n" + planNote
	}
	if r.req.Environment != nil {
		text += "\n\n" + r.req.Environment.prompt()
	}
	if r.tools.instructions != "" {
		text += "\n\n" + r.tools.instructions
	}
	return providers.TextMessage(providers.RoleSystem, text)
}

// providerRequest assembles the next model call, carrying note, a
// recovery note, on this call only.
func (r *run) providerRequest(note string) *providers.Request {
	return &providers.Request{
		Model:           r.req.Model,
		Messages:        r.conv.withNote(note),
		Tools:           r.tools.specs,
		Temperature:     r.req.Temperature,
		MaxTokens:       r.req.MaxTokens,
		ReasoningEffort: r.req.ReasoningEffort,
		WebSearch:       r.req.WebSearch,
		Raw:             r.req.Raw,
	}
}

// callModel makes one model call, streaming its pieces out as events. A
// stream that breaks off before any answer text was emitted is restarted
// within the retry budget, announced by a stream_restarted warning (see
// WarningStreamRestarted); once answer text is out to a consumer, a cut is
// final. A silent run has no consumer to contradict, so it always restarts.
func (r *run) callModel(ctx context.Context, preq *providers.Request) (providers.Reply, error) {
	r.out.setIter(r.guard.iter)
	r.out.emit(Event{Type: EventModelStart, Provider: r.req.Provider, Model: r.req.Model})
	// Reasoning state is stamped with the adapter's own name, which is what
	// it checks on replay, not the key the host registered it under.
	acc := stream.Accumulator{Provider: r.provider.Name()}
	var scanners map[int]*answerScanner
	names := make(map[int]string)
	answered := false // answer text of this call was emitted
	onChunk := func(c providers.Chunk) {
		acc.Add(c)
		switch c.Type {
		case providers.ChunkText:
			r.out.emit(Event{Type: EventTextDelta, Delta: c.Text})
		case providers.ChunkReasoning:
			if c.Text != "" {
				r.out.emit(Event{Type: EventReasoningDelta, Delta: c.Text})
			}
		case providers.ChunkToolCall:
			d := c.ToolCall
			if d.Name != "" {
				names[d.Index] = d.Name
			}
			r.out.emit(Event{Type: EventToolCallDelta, Delta: d.Arguments, Call: &CallInfo{Index: d.Index, ID: d.ID, Name: d.Name}})
			// A structured answer is a JSON value, not text to stream.
			if names[d.Index] == FinalAnswerTool && d.Arguments != "" && r.shape == nil {
				if scanners == nil {
					scanners = make(map[int]*answerScanner)
				}
				sc := scanners[d.Index]
				if sc == nil {
					sc = &answerScanner{}
					scanners[d.Index] = sc
				}
				if text := sc.Feed(d.Arguments); text != "" {
					answered = true
					r.out.emit(Event{Type: EventAnswerDelta, Delta: text})
				}
			}
		case providers.ChunkRaw:
			r.out.emit(Event{Type: EventRaw, Provider: r.provider.Name(), Raw: c.Raw})
		case providers.ChunkWarning:
			if c.Warning.Code == providers.WarnStreamRestarted {
				scanners, names = nil, make(map[int]string)
				r.warnEvery(WarningStreamRestarted, c.Warning.Message)
				return
			}
			r.warn(c.Warning.Code, c.Warning.Message)
		}
	}
	onRetry := func(rt providers.Retry) {
		acc.Reset()
		if rt.Restarted {
			return // the stream_restarted warning said it all
		}
		r.warn("provider_retry", fmt.Sprintf("%v; retrying in %s (attempt %d of %d)",
			rt.Err, rt.Wait.Round(10*time.Millisecond), rt.Attempt, rt.MaxAttempts))
	}
	committed := func() bool { return answered && !r.out.silent }
	err := r.req.Retry.StreamCommitted(ctx, r.provider, preq, onChunk, onRetry, committed)
	reply := acc.Reply()
	u := r.tally.addUsage(reply.Usage)
	if reply.Usage != (Usage{}) {
		r.out.emit(Event{Type: EventUsage, Usage: &u})
	}
	return reply, err
}

// end builds the Result and emits the terminal event.
func (r *run) end(status Status, output string, rerr *RunError, pending []ToolCall) Result {
	usage, warnings, diags := r.tally.report()
	res := Result{
		RunID:        r.out.runID,
		Status:       status,
		Output:       output,
		Messages:     r.conv.msgs,
		PendingCalls: pending,
		Error:        rerr,
		Usage:        usage,
		Iterations:   r.guard.iter,
		Warnings:     warnings,
		Diagnostics:  diags,
		PauseKind:    r.pause.kind,
		Token:        r.pause.token,
	}
	if status == StatusCompleted && r.shape != nil {
		res.Structured = r.shape.value
	}
	t := EventFailed
	switch status {
	case StatusCompleted:
		t = EventCompleted
	case StatusToolCalls:
		t = EventToolCalls
	case StatusCancelled:
		t = EventCancelled
	}
	resCopy := res
	r.out.emit(Event{Type: t, Result: &resCopy})
	return res
}

func (r *run) fail(code ErrorCode, err error, format string, args ...any) Result {
	return r.end(StatusFailed, "", &RunError{Code: code, Message: fmt.Sprintf(format, args...), Err: err}, nil)
}

// cancelled ends the run after its context ended, telling a timeout from
// an interruption.
func (r *run) cancelled(ctx context.Context) Result {
	msg := "the run was cancelled"
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg = "the run timed out"
	}
	return r.end(StatusCancelled, "", &RunError{Code: CodeCancelled, Message: msg, Err: ctx.Err()}, nil)
}
