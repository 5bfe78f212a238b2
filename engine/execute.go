package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/llmrt/llmrt/tools"
)

// plan is one call of a batch, prepared for execution.
type plan struct {
	index   int
	call    ToolCall
	tool    *tools.Tool
	args    map[string]any
	parent  string       // id of the call that made this one (run_code), or ""
	outcome *ToolOutcome // decided without running (or after running)
	msg     Message      // the tool message of a loop call, built with its outcome event
	pending bool         // host-owned: the host answers it
	ask     bool         // ask_user_input put to the request's Asker inline
	// answered holds the question ids a person answered inline, for the
	// post-answer rules.
	answered map[string]bool
	caller   Caller // installed on the call's context; part of the plan to save an allocation
	failed   bool   // the tool ran but its action did not succeed (tools.Result.Failed)
	started  bool   // its tool_start event was emitted
	// hookDecision and hookContext are what a BeforeTool hook said.
	hookDecision HookDecision
	hookContext  string
}

// executeBatch runs a reply's calls: each is validated; read
// calls run concurrently in groups, mutating calls (and questions put to a
// person) one at a time in model order; results are appended in model
// order. Host-owned calls are returned for the host to answer.
func (r *run) executeBatch(ctx context.Context, calls []ToolCall) []ToolCall {
	// Planned into a slice made here: returned from a helper, it would
	// always go to the heap.
	plans := make([]*plan, len(calls))
	r.planBatch(plans, calls)
	r.runBatch(ctx, plans)
	var pending []ToolCall
	for _, p := range plans {
		if p.pending {
			pending = append(pending, p.call)
			continue
		}
		r.conv.push(p.message())
		r.noteAnswer(p)
		r.noteEvidence(p)
	}
	return pending
}

// planBatch plans each call of a batch into plans, one per call.
func (r *run) planBatch(plans []*plan, calls []ToolCall) {
	for i, c := range calls {
		plans[i] = r.plan(i, c, "")
	}
}

// runBatch runs the planned calls of a batch that need running: read
// calls admitted one by one and run together in groups, mutating calls
// (and questions put to a person) alone, in order, each ending the group
// before it. Calls with an outcome and host-owned calls are left alone.
func (r *run) runBatch(ctx context.Context, plans []*plan) {
	var group []*plan
	flush := func() {
		r.runGroup(ctx, group)
		group = group[:0]
	}
	for _, p := range plans {
		switch {
		case p.outcome != nil || p.pending:
		case p.serial():
			flush()
			r.exec(ctx, p)
		case r.admit(ctx, p):
			group = append(group, p)
		}
	}
	flush()
}

// plan resolves and validates one call; invalid ones get their outcome.
// parent is the id of the running call that makes this one, if any.
func (r *run) plan(i int, c ToolCall, parent string) *plan {
	p := &plan{index: i, call: c, parent: parent}
	t, ok := r.tools.get(c.Name)
	if !ok {
		p.outcome = &ToolOutcome{IsError: true, Code: OutcomeUnknownTool,
			Content: fmt.Sprintf("unknown tool %q; available tools: %s", c.Name, r.toolNames())}
		r.emitOutcome(p)
		return p
	}
	p.tool = t
	args, bad := r.rt.validateArgs(t, c.Arguments)
	if bad != nil {
		p.outcome = bad
		r.emitOutcome(p)
		return p
	}
	p.args = args
	if t.Name == AskUserTool && t.Execute == nil && parent == "" && r.answers.reasks(args) {
		r.answers.noted = true
		r.guard.note = notePostAnswer
		p.outcome = &ToolOutcome{IsError: true, Code: OutcomeNotRun,
			Content: "not asked: the user has already answered this question; the answer is in the earlier tool result"}
		r.emitOutcome(p)
		return p
	}
	p.pending = t.Execute == nil
	if p.pending && t.Name == AskUserTool && r.canAsk() {
		p.pending, p.ask = false, true
	}
	return p
}

func (r *run) toolNames() string {
	names := make([]string, 0, len(r.tools.list))
	for _, t := range r.tools.list {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// runGroup runs calls concurrently (a group of read calls, or one mutating
// call), waiting for all of them.
func (r *run) runGroup(ctx context.Context, group []*plan) {
	if len(group) == 0 {
		return
	}
	for _, p := range group {
		p.started = true
		r.out.emit(Event{Type: EventToolStart, Call: r.callInfo(p, true)})
	}
	if len(group) == 1 {
		r.invoke(ctx, group[0])
		return
	}
	var wg sync.WaitGroup
	for _, p := range group {
		wg.Go(func() { r.invoke(ctx, p) })
	}
	wg.Wait()
}

// invoke runs one call and records its outcome. A panicking tool becomes an
// error result, never a crash.
func (r *run) invoke(ctx context.Context, p *plan) {
	start := time.Now()
	if ctx.Err() != nil {
		p.outcome = &ToolOutcome{Content: "cancelled before it ran", IsError: true, Code: OutcomeCancelled}
		r.emitOutcome(p)
		return
	}
	info := r.callInfo(p, false)
	p.caller.r, p.caller.parent = r, p
	pctx := withCaller(tools.WithWorkspace(ctx, r.ws), &p.caller)
	pctx = tools.WithCaller(pctx, p.caller.toolResult)
	pctx = tools.WithGranter(pctx, r.perm.grant)
	if r.req.Permission.Mode == ModePlan {
		pctx = tools.WithPlanning(pctx)
	}
	pctx = tools.WithProgress(pctx, func(pr tools.Progress) {
		r.out.emit(Event{Type: EventToolProgress, Call: info, Progress: &pr})
	})
	var res tools.Result
	var err error
	if p.ask {
		res, err = r.askUser(pctx, p)
	} else {
		res, err = safeExecute(pctx, p.tool, json.RawMessage(p.call.Arguments))
	}
	o := ToolOutcome{Content: res.Content, Parts: res.Parts, IsError: res.IsError, Failed: res.Failed, Summary: res.Summary}
	p.failed = res.Failed
	var tp *toolPanic
	switch {
	case errors.As(err, &tp):
		o = r.panicked(p.tool.Name, tp)
	case ctx.Err() != nil && (err != nil || res.IsError):
		o = ToolOutcome{Content: "cancelled: " + firstNonEmpty(res.Content, errString(err)), IsError: true, Code: OutcomeCancelled}
	case err != nil:
		o = ToolOutcome{Content: fmt.Sprintf("%s failed: %v", p.tool.Name, err), IsError: true}
	}
	r.afterTool(ctx, p, &o)
	if r.req.Redact != nil {
		o.Content = r.req.Redact(o.Content)
		o.Summary = r.req.Redact(o.Summary)
	}
	o.Content = capResult(o.Content, r.req.MaxResultBytes)
	o.DurationMS = time.Since(start).Milliseconds()
	p.outcome = &o
	r.emitOutcome(p)
}

// toolPanic is the error safeExecute returns for a tool that panicked.
type toolPanic struct {
	value any
	stack []byte
}

func (p *toolPanic) Error() string { return fmt.Sprintf("tool panicked: %v", p.value) }

// safeExecute runs a tool; a panic in it (on the goroutine that runs it)
// becomes a *toolPanic, never a crash.
func safeExecute(ctx context.Context, t *tools.Tool, args json.RawMessage) (res tools.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &toolPanic{value: v, stack: debug.Stack()}
		}
	}()
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	return t.Execute(ctx, args)
}

// panicked is the outcome of a tool that panicked: one line for the model,
// which names the tool and nothing of the host, the panic and its stack
// for the host's log (Outcome.Panic), and a one-line warning.
func (r *run) panicked(name string, tp *toolPanic) ToolOutcome {
	value, stack := fmt.Sprint(tp.value), string(tp.stack)
	if r.req.Redact != nil {
		value, stack = r.req.Redact(value), r.req.Redact(stack)
	}
	line := strings.Join(strings.Fields(value), " ")
	if len(line) > 200 {
		line = line[:runeFloor(line, 200)] + "…"
	}
	r.warn(WarningToolPanicked, fmt.Sprintf("%s panicked: %s; the model was told it failed with an internal error", name, line))
	return ToolOutcome{Content: name + " failed: internal error", IsError: true, Panic: &ToolPanic{Value: value, Stack: stack}}
}

func (r *run) emitOutcome(p *plan) {
	t := EventToolResult
	if p.outcome.IsError {
		t = EventToolError
	}
	// A call refused before it started carries its arguments here: its
	// outcome is the only event a consumer gets of it.
	ev := Event{Type: t, Call: r.callInfo(p, !p.started), Outcome: p.outcome}
	if r.appends(p) {
		p.msg = toolMessage(p.call, *p.outcome)
		ev.Message = &p.msg
	}
	r.out.emit(ev)
}

// appends reports whether a call's result joins the conversation: the
// loop's own calls do; calls made outside the loop or by a running tool
// do not.
func (r *run) appends(p *plan) bool { return r.looping && p.parent == "" }

func (r *run) callInfo(p *plan, withArgs bool) *CallInfo {
	ci := &CallInfo{Index: p.index, ID: p.call.ID, Name: p.call.Name, ParentID: p.parent}
	if p.tool != nil {
		ci.Kind = p.tool.Kind
	}
	if withArgs {
		ci.Arguments = p.call.Arguments
	}
	return ci
}

// capResult keeps a result within max bytes, keeping its head and tail and
// saying what was cut and how to see it.
func capResult(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	note := fmt.Sprintf("\n[… %d of %d bytes cut from the middle of this result; ask for less (offset/limit, a narrower path or pattern) to see them]\n", len(s)-max, len(s))
	keep := max - len(note)
	if keep < 0 {
		keep = 0
	}
	head := runeFloor(s, keep*3/4)
	tail := runeCeil(s, len(s)-(keep-head))
	return s[:head] + note + s[tail:]
}

func runeFloor(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func runeCeil(s string, i int) int {
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// argString is an argument's text: a string as it is, anything else as
// JSON.
func argString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
