package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"time"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// Complete runs the bounded loop and returns its Result. The
// error is reserved for misuse (a *RunError with CodeInvalidRequest);
// everything that happens during the run is a Result status. No one sees
// its answer text stream, so a reply stream that breaks off is restarted
// within the retry budget wherever it was cut, inside final_answer too.
func (rt *Runtime) Complete(ctx context.Context, req Request) (Result, error) {
	return rt.CompleteWith(ctx, req, nil)
}

// CompleteWith is Complete that also hands every event to observe, from
// the run's goroutines, one at a time. observe must not block for long.
// With an observer, a stream cut after answer text is final, as under
// Stream: observe may have shown that text. A nil observe is Complete.
func (rt *Runtime) CompleteWith(ctx context.Context, req Request, observe Sink) (Result, error) {
	sink := observing(observe)
	r, ctx, err := rt.newRun(ctx, req, sink, true)
	if err != nil {
		return Result{}, err
	}
	r.out.silent = observe == nil
	return r.loop(ctx), nil
}

// observing is the run's sink for a host's observer, which may be nil; an
// observer cannot stop the run (Stream's consumer can).
func observing(observe Sink) func(Event) bool {
	return func(ev Event) bool {
		if observe != nil {
			observe(ev)
		}
		return true
	}
}

// Stream runs the same loop as Complete and yields its events in order,
// ending with exactly one terminal event carrying the Result. Every event
// is yielded on the goroutine that ranges over the sequence, so a panic or
// t.Fatal in the loop body reaches the caller. Breaking out of the range
// loop (or panicking in it) cancels the run, and the range loop returns
// only once the run has ended. A misused request yields a single failed
// event with code invalid_request.
func (rt *Runtime) Stream(ctx context.Context, req Request) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		// The run executes on its own goroutine and hands each event over
		// events; the emitter then waits on acks until the loop body has
		// returned, so the run does not advance while the caller handles
		// an event, as when the run called yield itself. stop, closed when
		// this goroutine stops taking events (a break or a panic in the
		// loop body), makes the sink refuse the rest, which cancels the run.
		events := make(chan Event)
		acks := make(chan struct{})
		stop := make(chan struct{})
		sink := func(ev Event) bool {
			select {
			case events <- ev:
			case <-stop:
				return false
			}
			select {
			case <-acks:
				return true
			case <-stop:
				return false
			}
		}
		r, runCtx, err := rt.newRun(ctx, req, sink, true)
		if err != nil {
			yield(failedEvent(err, req.Messages))
			return
		}
		var runPanic any
		// This goroutine ends when the loop returns; it closes events.
		go func() {
			defer close(events)
			defer func() {
				if v := recover(); v != nil {
					runPanic = fmt.Sprintf("%v\n%s", v, debug.Stack())
				}
			}()
			r.loop(runCtx)
		}()
		// On every way out, including a panic in the loop body: refuse
		// further events, cancel, and wait for the run to end.
		defer func() {
			close(stop)
			r.cancel()
			for range events {
			}
			if runPanic != nil {
				panic(runPanic)
			}
		}()
		for ev := range events {
			if !yield(ev) {
				return
			}
			acks <- struct{}{}
		}
	}
}

// failedEvent is the one event of a Stream whose request is misused:
// failed, with the error as the *RunError of the result, and the
// diagnostics that refused a strict run.
func failedEvent(err error, msgs []Message) Event {
	var re *RunError
	if !errors.As(err, &re) {
		re = &RunError{Code: CodeInvalidRequest, Message: err.Error()}
	}
	res := &Result{Status: StatusFailed, Error: re, Messages: msgs}
	var de *DiagnosticsError
	if errors.As(err, &de) {
		res.Diagnostics = de.Diagnostics
	}
	return Event{Type: EventFailed, Time: time.Now(), Result: res}
}

// Generate makes one provider call with the request's tool surface (no
// control tools, no loop contract) and returns the reply without running
// any tool. Its error is a *RunError: misuse (ErrInvalidRequest), a failed
// call (ErrProvider, with the *providers.Error in the chain) or
// cancellation (ErrCancelled, with the context's error in the chain).
func (rt *Runtime) Generate(ctx context.Context, req Request) (Response, error) {
	req, p, err := rt.prepare(req, true)
	if err != nil {
		return Response{}, err
	}
	if err := rt.Start(ctx); err != nil {
		return Response{}, err
	}
	ts, err := rt.resolveTools(ctx, &req, nil, false)
	if err != nil {
		return Response{}, err
	}
	if req.Strict {
		if err := strictError(prepared(&req, ts)); err != nil {
			return Response{}, err
		}
	}
	preq := &providers.Request{
		Model: req.Model, Messages: req.Messages, Tools: ts.specs,
		Temperature: req.Temperature, MaxTokens: req.MaxTokens,
		ReasoningEffort: req.ReasoningEffort, WebSearch: req.WebSearch,
	}
	acc := stream.Accumulator{Provider: p.Name()}
	err = req.Retry.Stream(ctx, p, preq, acc.Add, func(providers.Retry) { acc.Reset() })
	reply := acc.Reply()
	if rep := rt.cfg.Reporter; rep != nil {
		for _, w := range reply.Warnings {
			rep.Warn("", w)
		}
	}
	if err != nil {
		code := CodeProviderError
		if ctx.Err() != nil {
			code = CodeCancelled
		}
		return Response{}, &RunError{Code: code, Message: err.Error(), Err: err}
	}
	return reply, nil
}

// ToolInfo describes one tool of a resolved surface.
type ToolInfo struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Kind        tools.Kind `json:"kind"`
	Source      string     `json:"source"`
	HostOwned   bool       `json:"host_owned,omitempty"`
	Schema      any        `json:"schema"`
}

// ResolveTools returns the exact tool surface a Complete run of req would
// offer the model, control tools included.
func (rt *Runtime) ResolveTools(ctx context.Context, req Request) ([]ToolInfo, error) {
	if err := rt.Start(ctx); err != nil {
		return nil, err
	}
	ts, err := rt.resolveTools(ctx, &req, nil, true)
	if err != nil {
		return nil, err
	}
	return toolInfos(ts.list), nil
}

// Diagnostics returns the problems a run of req would report in
// Result.Diagnostics before its first model call: the request's own
// (Request.Diagnostics), sources that did not start or list their tools,
// and source tools left out of the surface. A host's --strict reads them
// to refuse a run before it starts. It starts the runtime if needed; the
// error is misuse, as for Complete.
func (rt *Runtime) Diagnostics(ctx context.Context, req Request) ([]Diagnostic, error) {
	if err := rt.Start(ctx); err != nil {
		return nil, err
	}
	ts, err := rt.resolveTools(ctx, &req, nil, true)
	if err != nil {
		return nil, err
	}
	return prepared(&req, ts), nil
}

func toolInfos(list []tools.Tool) []ToolInfo {
	out := make([]ToolInfo, len(list))
	for i, t := range list {
		out[i] = ToolInfo{Name: t.Name, Description: t.Description, Kind: t.Kind, Source: t.Source,
			HostOwned: t.Execute == nil && t.Source != tools.SourceControl, Schema: t.Schema}
	}
	return out
}

// ExecuteToolCall runs one call outside the loop, with the same argument
// validation and permission policy as a run. Provider and Model may be
// empty.
func (rt *Runtime) ExecuteToolCall(ctx context.Context, call ToolCall, req Request) ToolOutcome {
	return rt.ExecuteToolCallWith(ctx, call, req, nil)
}

// ExecuteToolCallWith is ExecuteToolCall that reports the call's events
// (tool_start, tool_progress, permission_request, question, warning,
// tool_result or tool_error) to observe. The call takes the same path as a
// mutating call of a run: validation, deny rules and permission policy,
// then its executor.
func (rt *Runtime) ExecuteToolCallWith(ctx context.Context, call ToolCall, req Request, observe Sink) ToolOutcome {
	sink := observing(observe)
	r, runCtx, err := rt.newRun(ctx, req, sink, false)
	if err != nil {
		return ToolOutcome{Content: err.Error(), IsError: true, Code: string(CodeInvalidRequest)}
	}
	defer r.cancel()
	p := r.plan(0, call, "")
	r.exec(runCtx, p)
	return *p.outcome
}

// ExecuteToolCalls runs a batch of calls outside the loop, as a run runs
// the calls of one reply: each is validated; read calls run concurrently,
// mutating calls one at a time in the given order, all under the
// request's deny rules and permission policy; host-owned calls are not
// run. The outcomes come back in the order of calls. A request that cannot
// run gives every call an invalid_request outcome.
func (rt *Runtime) ExecuteToolCalls(ctx context.Context, calls []ToolCall, req Request) []ToolOutcome {
	return rt.ExecuteToolCallsWith(ctx, calls, req, nil)
}

// ExecuteToolCallsWith is ExecuteToolCalls that reports the calls' events
// to observe, from the goroutines that run them.
func (rt *Runtime) ExecuteToolCallsWith(ctx context.Context, calls []ToolCall, req Request, observe Sink) []ToolOutcome {
	out := make([]ToolOutcome, len(calls))
	r, runCtx, err := rt.newRun(ctx, req, observing(observe), false)
	if err != nil {
		for i := range out {
			out[i] = ToolOutcome{Content: err.Error(), IsError: true, Code: string(CodeInvalidRequest)}
		}
		return out
	}
	defer r.cancel()
	plans := make([]*plan, len(calls))
	r.planBatch(plans, calls)
	for _, p := range plans {
		if p.pending {
			r.hostOwned(p)
		}
	}
	r.runBatch(runCtx, plans)
	for i, p := range plans {
		out[i] = *p.outcome
	}
	return out
}
