package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// run is the state of one Complete or Stream call. Only the loop goroutine
// touches it, except through the emitter, which tool goroutines share, and
// the permission state, which calls made by running tools share (permMu).
type run struct {
	rt       *Runtime
	req      Request
	provider providers.Provider
	ws       *tools.Workspace
	tools    *toolset
	out      *emitter
	cancel   context.CancelFunc
	looping  bool // a loop run, not a call outside the loop

	msgs     []Message
	wire     []Message // what the model sees: one merged system message, then msgs after the host's leading system ones
	usage    Usage
	iter     int
	warnings []Warning
	seenWarn map[Warning]bool
	diags    []Diagnostic
	seenDiag map[Diagnostic]bool
	system   string // the host's leading system text
	note     string // recovery note for the next call only

	// evidence, verified and usage also take what running tools add to
	// the run (inner calls of run_code, sub-runs), under addMu.
	evidence  bool // a successful mutating tool result in this run
	verified  bool // any successful tool result in this run
	addMu     sync.Mutex
	empties   int // consecutive empty replies
	recent    []string
	repeats   int
	permMu    sync.Mutex // guards rules and usedOnce; serialises decisions
	rules     []Rule
	usedOnce  map[int]bool
	askMu     sync.Mutex      // puts questions to a person one at a time
	answered  map[string]bool // question ids of the latest answer, before this run or inline
	postNoted bool
	callIDs   map[string]bool // every tool call id in the conversation
	ctx       contextUsage    // what is known of the next request's size
	refused   refusal         // what was done about a too-long refusal of this model call
}

// emitter serialises events from the loop and tool goroutines to the sink.
// Once the sink refuses an event the run is cancelled and nothing more is
// delivered.
type emitter struct {
	mu       sync.Mutex
	sink     func(Event) bool
	cancel   context.CancelFunc
	runID    string
	parentID string
	iter     int
	stopped  bool
	// silent says no one sees the events as they are emitted (Complete
	// without an observer), so streamed answer text is shown to no one
	// and a restart cannot contradict it.
	silent bool
}

func (e *emitter) emit(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return
	}
	ev.RunID, ev.ParentID, ev.Iteration = e.runID, e.parentID, e.iter
	ev.Time = time.Now()
	if !e.sink(ev) {
		e.stopped = true
		e.cancel()
	}
}

func (e *emitter) setIter(n int) {
	e.mu.Lock()
	e.iter = n
	e.mu.Unlock()
}

// forward delivers an event of a sub-run as it is, keeping its run id,
// parent id and iteration.
func (e *emitter) forward(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return
	}
	if !e.sink(ev) {
		e.stopped = true
		e.cancel()
	}
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "run_" + hex.EncodeToString(b[:])
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
	answered, err := checkHistory(req.Messages)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &run{
		rt: rt, req: req, provider: p, ws: ws, tools: ts, cancel: cancel, looping: needModel,
		msgs:     append([]Message(nil), req.Messages...),
		rules:    append([]Rule(nil), req.Permission.Rules...),
		usedOnce: make(map[int]bool),
		seenWarn: make(map[Warning]bool),
		seenDiag: make(map[Diagnostic]bool),
		answered: answered,
		callIDs:  make(map[string]bool),
	}
	for _, m := range r.msgs {
		for _, c := range m.ToolCalls {
			r.callIDs[c.ID] = true
		}
	}
	r.diagnose(req.Diagnostics)
	r.diagnose(ts.diags)
	r.out = &emitter{sink: sink, cancel: cancel, runID: newRunID(), parentID: req.ParentID}
	r.initWire()
	return r, ctx, nil
}

// warn records a warning once and emits it.
func (r *run) warn(code, msg string) { r.warnRule(code, msg, "") }

// warnEvery emits a warning even when an identical one was emitted before,
// for warnings consumers act on each time; Result.Warnings lists it once.
func (r *run) warnEvery(code, msg string) {
	w := Warning{Code: code, Message: msg}
	if !r.seenWarn[w] {
		r.seenWarn[w] = true
		r.warnings = append(r.warnings, w)
	}
	r.out.emit(Event{Type: EventWarning, Warning: &w})
}

func (r *run) warnRule(code, msg, rule string) {
	w := Warning{Code: code, Message: msg, Rule: rule}
	if r.seenWarn[w] {
		return
	}
	r.seenWarn[w] = true
	r.warnings = append(r.warnings, w)
	r.out.emit(Event{Type: EventWarning, Warning: &w})
}

// initWire builds the conversation as the model sees it: the host's
// leading system text merged with the loop contract into one system
// message, then the rest. It is kept in step with msgs by push, so
// preparing a call costs the same at message 5 and message 500.
func (r *run) initWire() {
	lead := 0
	for lead < len(r.msgs) && r.msgs[lead].Role == providers.RoleSystem {
		r.system += r.msgs[lead].Text() + "\n\n"
		lead++
	}
	r.wire = make([]Message, 0, len(r.msgs)-lead+16)
	r.wire = append(r.wire, r.systemMessage())
	r.wire = append(r.wire, r.msgs[lead:]...)
}

// systemMessage is the managed system prompt: the host's system text, the
// loop contract and the tool sources' instructions.
func (r *run) systemMessage() Message {
	_, canAsk := r.tools.get(AskUserTool)
	text := r.system + contract(canAsk)
	if r.tools.instructions != "" {
		text += "\n\n" + r.tools.instructions
	}
	return providers.TextMessage(providers.RoleSystem, text)
}

// push appends a message to the conversation.
func (r *run) push(m Message) {
	r.msgs = append(r.msgs, m)
	r.wire = append(r.wire, m)
}

// providerRequest assembles the next model call; a pending recovery note
// rides as a trailing system message on this call only. The note goes
// into wire's spare capacity without extending wire, so the next push
// overwrites it and it is never part of the conversation.
func (r *run) providerRequest() *providers.Request {
	msgs := r.wire
	if r.note != "" {
		msgs = append(msgs, providers.TextMessage(providers.RoleSystem, r.note))
	}
	return &providers.Request{
		Model:           r.req.Model,
		Messages:        msgs,
		Tools:           r.tools.specs,
		Temperature:     r.req.Temperature,
		MaxTokens:       r.req.MaxTokens,
		ReasoningEffort: r.req.ReasoningEffort,
		WebSearch:       r.req.WebSearch,
	}
}

// callModel makes one model call, streaming its pieces out as events. A
// stream that breaks off before any answer text was emitted is restarted
// within the retry budget, announced by a stream_restarted warning (see
// WarningStreamRestarted); once answer text is out to a consumer, a cut is
// final. A silent run has no consumer to contradict, so it always restarts.
func (r *run) callModel(ctx context.Context, preq *providers.Request) (providers.Reply, error) {
	r.out.setIter(r.iter)
	r.out.emit(Event{Type: EventModelStart, Provider: r.req.Provider, Model: r.req.Model})
	// Reasoning state is stamped with the adapter's own name, which is what
	// it checks on replay, not the key the host registered it under.
	acc := stream.Accumulator{Provider: r.provider.Name()}
	var answers map[int]*answerScanner
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
			if names[d.Index] == FinalAnswerTool && d.Arguments != "" {
				if answers == nil {
					answers = make(map[int]*answerScanner)
				}
				sc := answers[d.Index]
				if sc == nil {
					sc = &answerScanner{}
					answers[d.Index] = sc
				}
				if text := sc.Feed(d.Arguments); text != "" {
					answered = true
					r.out.emit(Event{Type: EventAnswerDelta, Delta: text})
				}
			}
		case providers.ChunkWarning:
			if c.Warning.Code == providers.WarnStreamRestarted {
				answers, names = nil, make(map[int]string)
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
	r.usage = r.usage.Add(reply.Usage)
	if reply.Usage != (Usage{}) {
		u := r.usage
		r.out.emit(Event{Type: EventUsage, Usage: &u})
	}
	return reply, err
}

// end builds the Result and emits the terminal event.
func (r *run) end(status Status, output string, rerr *RunError, pending []ToolCall) Result {
	res := Result{
		RunID:        r.out.runID,
		Status:       status,
		Output:       output,
		Messages:     r.msgs,
		PendingCalls: pending,
		Error:        rerr,
		Usage:        r.usage,
		Iterations:   r.iter,
		Warnings:     r.warnings,
		Diagnostics:  r.diags,
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
