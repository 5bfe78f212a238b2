package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/providers"
)

// loop runs the bounded model/tool loop (docs/design.md, "The loop") until
// a terminal state.
func (r *run) loop(ctx context.Context) Result {
	defer r.cancel()
	r.out.emit(Event{Type: EventRunStart, Provider: r.req.Provider, Model: r.req.Model})
	_, _, diags := r.tally.report()
	for _, d := range diags {
		r.warnDiagnostic(d)
	}
	for {
		if ctx.Err() != nil {
			return r.cancelled(ctx)
		}
		if used, over := r.overBudget(); over {
			return r.fail(CodeBudgetExceeded, nil, "the run used %d tokens, over its budget of %d", used, r.req.TokenBudget)
		}
		if r.guard.iter >= r.req.MaxIterations {
			return r.end(StatusMaxIterations, "", &RunError{Code: CodeMaxIterations,
				Message: fmt.Sprintf("stopped after %d model calls without finishing: that is the iteration limit of this run", r.req.MaxIterations)}, nil)
		}
		r.guard.iter++
		r.refreshTools(ctx)
		r.maybeCompact(ctx)
		sent := len(r.conv.wire)
		preq := r.providerRequest(r.guard.takeNote())
		reply, err := r.callModel(ctx, preq)
		if ctx.Err() != nil {
			r.keepInterrupted(reply)
			return r.cancelled(ctx)
		}
		if err != nil && tooLong(err) {
			if r.compactRefused(ctx) {
				r.guard.iter--
				continue
			}
			// The provider's message often ends a sentence: "….; the
			// conversation is too long" reads as a typo.
			return r.fail(CodeProviderError, err, "%s; %s", strings.TrimRight(err.Error(), ".; "), r.tooLongAdvice())
		}
		if err != nil {
			return r.fail(CodeProviderError, err, "%v", err)
		}
		r.guard.refused = refusedNone
		r.conv.counted(sent, reply.Usage)
		if res, done := r.step(ctx, reply); done {
			return res
		}
	}
}

// keepInterrupted keeps the text of a reply the run's cancellation cut
// short, marked Interrupted: the conversation shows what the person saw
// stream, and the model learns where it was stopped. Its tool calls,
// perhaps cut too, are not kept: none ran.
func (r *run) keepInterrupted(reply providers.Reply) {
	text := reply.Message.Text()
	if strings.TrimSpace(text) == "" {
		return
	}
	m := Message{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart(text)}, Interrupted: true}
	r.conv.push(m)
	r.out.emit(Event{Type: EventAssistantMessage, Message: &m})
}

// overBudget reports whether the run's tokens, also returned, passed its
// budget.
func (r *run) overBudget() (int, bool) {
	used := r.tally.used().Total()
	return used, r.req.TokenBudget > 0 && used > r.req.TokenBudget
}

// step handles one reply; done reports a terminal state.
func (r *run) step(ctx context.Context, reply providers.Reply) (Result, bool) {
	if reply.Empty() {
		if reply.Stop == providers.StopLength {
			r.guard.note = noteTruncated
			return Result{}, false
		}
		if n := r.guard.empty(); n > r.req.EmptyRetryLimit {
			return r.fail(CodeEmptyResponse, nil, "the model returned %d empty replies in a row", n), true
		}
		r.guard.note = noteEmpty
		return Result{}, false
	}
	r.guard.empties = 0
	msg := reply.Message
	r.conv.uniqueCallIDs(msg.ToolCalls)
	r.conv.push(msg)
	r.out.emit(Event{Type: EventAssistantMessage, Message: &msg})
	if len(msg.ToolCalls) == 0 {
		return r.textReply(ctx, reply)
	}
	r.guard.texts = 0
	if reply.Stop == providers.StopLength && cutCall(msg.ToolCalls) {
		return r.cutReply(msg.ToolCalls)
	}
	return r.callsReply(ctx, msg.ToolCalls)
}

// textReply applies the finish policy to a reply without tool calls.
func (r *run) textReply(ctx context.Context, reply providers.Reply) (Result, bool) {
	text := reply.Message.Text()
	if reply.Stop == providers.StopLength {
		r.guard.note = noteTruncated
		return Result{}, false
	}
	if r.shape != nil {
		return r.structuredText(ctx, text)
	}
	if r.req.Finish == FinishText {
		return r.finish(ctx, text)
	}
	// After the user answered a question, an unverified text finish gets
	// one note at most; the next finishing attempt is accepted, so a plain
	// reply to the answer cannot loop.
	evidence, verified := r.tally.proof()
	if r.answers.ids != nil && !verified {
		if !r.answers.noted {
			r.answers.noted = true
			r.guard.note = notePostAnswer
			return Result{}, false
		}
		return r.finish(ctx, text)
	}
	if len(r.tools.actions) > 0 {
		if r.finishProven(text) {
			return r.finish(ctx, text)
		}
		return Result{}, false
	}
	if evidence {
		return r.finish(ctx, text)
	}
	if r.guard.plainFinish(text) {
		r.warn(WarningUnconfirmedFinish, "the run ended on a plain text reply: the model did not confirm with final_answer that it was done")
		return r.finish(ctx, text)
	}
	r.guard.note = noteNarration
	return Result{}, false
}

// cutReply answers the calls of a reply the output limit cut inside a
// call's arguments without running any of them: the model's plan was cut
// short with them. The next call carries a note to retry in smaller
// pieces; the same cut batch again meets the repeat bound like any other.
func (r *run) cutReply(calls []ToolCall) (Result, bool) {
	if n, ok := r.guard.repeated(batchKey(calls)); ok && n >= 2 {
		r.skipCalls(calls, OutcomeNotRun, "not run: this exact call was already made")
		return r.fail(CodeRepeatedToolCalls, nil, "the model repeated the same tool calls (%s) after being told not to", callNames(calls)), true
	}
	r.skipCalls(calls, OutcomeNotRun, "not run: your reply was cut off by the output token limit in the middle of a tool call's arguments, so none of its calls ran. Make the call again with smaller arguments (for a large file, write a first part and add the rest with edits).")
	r.guard.note = noteTruncatedCall
	return Result{}, false
}

// cutCall reports whether one of the calls of a reply that hit the
// output limit has arguments that are not a whole JSON object: the limit
// cut it. Complete JSON cannot be a cut one, since a JSON object ends
// with the brace that closes it.
func cutCall(calls []ToolCall) bool {
	for _, c := range calls {
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(c.Arguments), &obj) != nil || obj == nil {
			return true
		}
	}
	return false
}

// callsReply handles a reply holding tool calls.
func (r *run) callsReply(ctx context.Context, calls []ToolCall) (Result, bool) {
	for _, c := range calls {
		if isControl(c.Name) {
			if len(calls) > 1 {
				r.skipCalls(calls, OutcomeNotRun, "not run: final_answer and blocked must be the only tool call in a reply")
				r.guard.note = noteViolation
				return Result{}, false
			}
			return r.controlCall(ctx, c)
		}
	}
	if n, ok := r.guard.repeated(batchKey(calls)); ok {
		if n >= 2 {
			r.skipCalls(calls, OutcomeNotRun, "not run: this exact call was already made")
			return r.fail(CodeRepeatedToolCalls, nil, "the model repeated the same tool calls (%s) after being told not to", callNames(calls)), true
		}
		r.skipCalls(calls, OutcomeNotRun, "not run: this exact call was already made in this run; its earlier result stands")
		r.guard.note = noteRepeat
		return Result{}, false
	}
	// Over budget: the calls of this reply do not run either.
	if used, over := r.overBudget(); over {
		r.skipCalls(calls, OutcomeNotRun, "not run: the run's token budget is spent")
		return r.fail(CodeBudgetExceeded, nil, "the run used %d tokens, over its budget of %d", used, r.req.TokenBudget), true
	}
	pending := r.executeBatch(ctx, calls)
	if why := r.hooks.stopReason(); why != "" {
		for _, c := range pending {
			r.record(indexOf(calls, c.ID), c, ToolOutcome{Content: "not run: a hook stopped the run", IsError: true, Code: OutcomeNotRun})
		}
		return r.fail(CodeBlocked, nil, "stopped by a hook: %s", why), true
	}
	if ctx.Err() != nil {
		// Host-owned calls will not be answered now: give them a result so
		// the conversation stays replayable.
		for _, c := range pending {
			r.record(indexOf(calls, c.ID), c, ToolOutcome{Content: "cancelled before the host answered", IsError: true, Code: OutcomeCancelled})
		}
		return r.cancelled(ctx), true
	}
	if len(pending) > 0 {
		return r.paused(ctx, pending), true
	}
	return Result{}, false
}

// controlCall handles a lone final_answer or blocked call.
func (r *run) controlCall(ctx context.Context, c ToolCall) (Result, bool) {
	if c.Name == FinalAnswerTool && r.shape != nil {
		return r.structuredCall(ctx, c)
	}
	t, _ := r.tools.get(c.Name)
	args, bad := r.rt.validateArgs(t, c.Arguments)
	if bad != nil {
		r.record(0, c, *bad)
		return Result{}, false
	}
	if c.Name == BlockedTool {
		reason := strings.TrimSpace(argString(args["reason"]))
		r.record(0, c, ToolOutcome{Content: "blocked: recorded"})
		return r.fail(CodeBlocked, nil, "%s", reason), true
	}
	answer := argString(args["answer"])
	if strings.TrimSpace(answer) == "" {
		r.record(0, c, ToolOutcome{Content: "final_answer needs a non-empty answer", IsError: true, Code: OutcomeInvalidArguments})
		return Result{}, false
	}
	if !r.finishProven(answer) {
		r.record(0, c, refusedAnswer(r.tools.actions))
		return Result{}, false
	}
	if reason, ok := r.stopHook(ctx, answer); !ok {
		r.record(0, c, ToolOutcome{IsError: true, Code: OutcomeNotRun, Content: "not accepted yet: a Stop hook says: " + reason})
		return Result{}, false
	}
	r.record(0, c, ToolOutcome{Content: "final answer recorded"})
	return r.end(StatusCompleted, answer, nil, nil), true
}

// skipCalls answers every call without running it, keeping the transcript
// replayable and telling the model why.
func (r *run) skipCalls(calls []ToolCall, code, msg string) {
	for i, c := range calls {
		r.record(i, c, ToolOutcome{Content: msg, IsError: true, Code: code})
	}
}

// record emits a result the engine produced itself and appends it to the
// conversation, so every stored message is visible as an event.
func (r *run) record(index int, c ToolCall, o ToolOutcome) {
	t := EventToolResult
	if o.IsError {
		t = EventToolError
	}
	m := toolMessage(c, o)
	r.out.emit(Event{Type: t, Call: &CallInfo{Index: index, ID: c.ID, Name: c.Name}, Outcome: &o, Message: &m})
	r.conv.push(m)
}

// toolMessage is the tool message that carries an outcome to the model.
func toolMessage(c ToolCall, o ToolOutcome) Message {
	m := providers.ToolResultMessage(c, o.Content, o.IsError)
	m.Content = append(m.Content, o.Parts...)
	return m
}

func indexOf(calls []ToolCall, id string) int {
	for i, c := range calls {
		if c.ID == id {
			return i
		}
	}
	return 0
}

func callNames(calls []ToolCall) string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// checkHistory refuses a conversation with a tool call that has no result,
// and reports the question ids of an ask_user_input the host has just
// answered (the post-answer state: one recovery note at most for an
// unverified finish).
func checkHistory(msgs []Message) (map[string]bool, error) {
	results := make(map[string]bool)
	for _, m := range msgs {
		if m.Role == providers.RoleTool {
			results[m.ToolCallID] = true
		}
	}
	lastAssistant := -1
	for i, m := range msgs {
		if m.Role != providers.RoleAssistant {
			continue
		}
		lastAssistant = i
		for _, c := range m.ToolCalls {
			if !results[c.ID] {
				return nil, invalidRequest("tool call %s (%s) has no result; append one tool message per pending call before continuing", c.ID, c.Name)
			}
		}
	}
	if lastAssistant < 0 || lastAssistant == len(msgs)-1 {
		return nil, nil
	}
	for _, m := range msgs[lastAssistant+1:] {
		if m.Role != providers.RoleTool {
			return nil, nil
		}
	}
	var answered map[string]bool
	for _, c := range msgs[lastAssistant].ToolCalls {
		if c.Name != AskUserTool {
			continue
		}
		if answered == nil {
			answered = make(map[string]bool)
		}
		var args struct {
			Questions []struct {
				ID string `json:"id"`
			} `json:"questions"`
		}
		_ = json.Unmarshal([]byte(c.Arguments), &args)
		for _, q := range args.Questions {
			answered[q.ID] = true
		}
	}
	return answered, nil
}
