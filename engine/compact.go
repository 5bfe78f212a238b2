package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
)

// Compaction says how a run keeps its conversation inside the model's
// context window. The zero value compacts at 85% of the window.
//
// When the next request would pass the threshold, the run asks the model
// for a summary of the older part of the conversation and continues from
// that summary plus the most recent messages. A tool call is never split
// from its result, the latest user message is kept as it was, and so is
// the newest turn, which the model has not read yet, unless it alone is
// over half the window. A warning event with code context_compacted
// reports the sizes before and after, and carries the new conversation
// (Event.Compacted) for session stores. A model call the provider refuses
// as too long is compacted once more and sent again, once.
type Compaction struct {
	// Disabled turns compaction off; a conversation that outgrows the
	// window then fails with the provider's error.
	Disabled bool
	// Threshold is the fraction of the window at which to compact; zero
	// means 0.85.
	Threshold float64
	// Before, when set, is called before the run compacts the
	// conversation on its own (Claude Code's PreCompact hook with trigger
	// "auto"); a compaction a caller asks for is the caller's to announce.
	Before func(ctx context.Context) `json:"-"`
}

// WarningContextCompacted is the code of the warning a compaction emits.
const WarningContextCompacted = "context_compacted"

const summaryPrefix = "[Summary of the earlier part of this conversation, written when it was compacted to fit the model's context window]\n\n"

const summaryInstructions = `You are compacting a conversation between a user and an AI agent that uses tools, because it has grown too long for the model's context window. Write a summary the agent can continue from without the original messages. Keep: the user's goals and constraints, decisions made and why, facts learned (file paths, names, commands, errors and their fixes), what was done and what remains to be done. Leave out pleasantries and anything superseded. Write plain prose and lists, no preamble.`

// maybeCompact compacts when the next request would pass the threshold.
func (r *run) maybeCompact(ctx context.Context) {
	if r.req.Compaction.Disabled {
		return
	}
	th := r.req.Compaction.Threshold
	if th <= 0 || th > 1 {
		th = 0.85
	}
	window := r.contextWindow()
	next := r.conv.nextTokens(r.tools.specs)
	if r.req.ContextWindow == 0 && next > window/2 {
		if _, known := ContextWindow(r.req.Model); !known {
			// Said once the assumption starts to matter, not on every small run.
			r.diagnose([]Diagnostic{{Level: DiagnosticWarning, Kind: DiagContextWindow, Source: "context_window", Message: fmt.Sprintf(
				"the context window of model %s is not known; assuming %d tokens: set context_window in the configuration to its real size", r.req.Model, window)}})
		}
	}
	if next <= int(th*float64(window)) {
		return
	}
	if err := r.compactOnItsOwn(ctx, window/3); err != nil && !errors.Is(err, ErrNothingToCompact) && ctx.Err() == nil {
		r.warn("compaction_failed", fmt.Sprintf("the conversation could not be compacted (%v); sending it whole", err))
	}
}

// compactOnItsOwn is a compaction the run decides on (no focus), told
// to Compaction.Before first.
func (r *run) compactOnItsOwn(ctx context.Context, keep int) error {
	if r.req.Compaction.Before != nil {
		r.req.Compaction.Before(ctx)
	}
	return r.compact(ctx, "", keep)
}

// compact replaces the older part of the conversation with a summary the
// model writes, keeping about keep tokens of the latest messages verbatim.
// focus, when set, tells the summary what matters most.
func (r *run) compact(ctx context.Context, focus string, keep int) error {
	lead := 0
	for lead < len(r.conv.msgs) && r.conv.msgs[lead].Role == providers.RoleSystem {
		lead++
	}
	body := r.conv.msgs[lead:]
	k := keepFrom(body, keep, r.contextWindow()/2)
	u := latestUser(body)
	old := make([]Message, 0, k)
	for i := range k {
		if i != u {
			old = append(old, body[i])
		}
	}
	if len(old) == 0 || (len(old) == 1 && isSummary(&old[0])) {
		return ErrNothingToCompact
	}
	before := r.conv.nextTokens(r.tools.specs)
	summary, err := r.summarise(ctx, old, focus)
	if err != nil {
		return err
	}
	msgs := append([]Message(nil), r.conv.msgs[:lead]...)
	// The summary is user text, never the model's own words: an assistant
	// message would be merged into the kept assistant turn that follows it
	// (ahead of its thinking blocks), or end the request as a prefill.
	sum := providers.TextMessage(providers.RoleUser, summaryPrefix+summary)
	ack := providers.TextMessage(providers.RoleAssistant, "Understood. I will continue from this summary.")
	switch {
	case u >= 0 && u < k-1:
		// The latest request is older than the kept messages and work done
		// on it was summarised: it stays, and the summary follows it.
		msgs = append(msgs, body[u], sum)
	case u >= 0 && u == k-1:
		// Only what came before the latest request was summarised.
		msgs = append(msgs, sum, ack, body[u])
	default:
		msgs = append(msgs, sum)
		if k < len(body) && body[k].Role == providers.RoleUser {
			// Providers that want turns to alternate get one between the
			// summary and the user message kept after it.
			msgs = append(msgs, ack)
		}
	}
	msgs = append(msgs, body[k:]...)
	r.conv.replace(msgs, lead, r.systemMessage())
	after := r.conv.nextTokens(r.tools.specs)
	w := Warning{Code: WarningContextCompacted, Message: fmt.Sprintf(
		"the conversation was compacted to fit the model's context window of %d tokens: about %d tokens before, %d after (%d older messages summarised)",
		r.contextWindow(), before, after, len(old))}
	r.tally.addWarning(w)
	r.out.emit(Event{Type: EventWarning, Warning: &w, Compacted: append([]Message(nil), msgs...)})
	return nil
}

// keepFrom picks where the part of body kept verbatim starts: the latest
// messages worth about budget tokens, never starting on a tool result,
// which must stay with the call that made it. The newest turn (the last
// message, with the call its results answer) is kept even over budget
// when it is within limit tokens: the model has not read it yet.
func keepFrom(body []Message, budget, limit int) int {
	k, used := len(body), 0
	for k > 0 {
		n := estimateMessage(&body[k-1])
		if used+n > budget {
			break
		}
		used += n
		k--
	}
	for k > 0 && k < len(body) && body[k].Role == providers.RoleTool {
		k-- // back to the assistant message that made the call
	}
	if k == len(body) && k > 0 {
		t := k - 1
		for t > 0 && body[t].Role == providers.RoleTool {
			t--
		}
		if estimateTokens(body[t:]) <= limit {
			k = t
		}
	}
	return k
}

// latestUser is the index of the latest user message that is not a
// summary, or -1.
func latestUser(body []Message) int {
	for i := len(body) - 1; i >= 0; i-- {
		if body[i].Role == providers.RoleUser && !isSummary(&body[i]) {
			return i
		}
	}
	return -1
}

func isSummary(m *Message) bool {
	return strings.HasPrefix(m.Text(), summaryPrefix)
}

// summarise asks the model for a summary of old. The transcript is cut to
// fit half the window, longest messages first to shrink.
func (r *run) summarise(ctx context.Context, old []Message, focus string) (string, error) {
	budget := r.contextWindow() * 4 / 2 // bytes
	per := budget / max(len(old), 1)
	var b strings.Builder
	for i := range old {
		writeTranscript(&b, &old[i], max(per, 400))
	}
	prompt := "The conversation so far:\n\n" + b.String()
	if focus != "" {
		prompt += "\n\nThe user asks the summary to focus on: " + focus
	}
	preq := &providers.Request{
		Model: r.req.Model,
		Messages: []Message{
			providers.TextMessage(providers.RoleSystem, summaryInstructions),
			providers.TextMessage(providers.RoleUser, prompt),
		},
		MaxTokens: min(8_000, r.contextWindow()/8),
	}
	var acc stream.Accumulator
	acc.Provider = r.provider.Name()
	err := r.req.Retry.Stream(ctx, r.provider, preq, acc.Add, nil)
	reply := acc.Reply()
	r.tally.addUsage(reply.Usage)
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(reply.Message.Text())
	if text == "" {
		return "", errors.New("the model returned an empty summary")
	}
	return text, nil
}

// writeTranscript renders one message as plain text for the summariser,
// each part cut to max bytes.
func writeTranscript(b *strings.Builder, m *Message, max int) {
	cut := func(s string) string {
		if len(s) <= max {
			return s
		}
		return s[:max/2] + "\n[…]\n" + s[len(s)-max/2:]
	}
	switch {
	case isSummary(m):
		b.WriteString("Earlier summary: ")
		b.WriteString(strings.TrimPrefix(m.Text(), summaryPrefix))
	case m.Role == providers.RoleUser:
		b.WriteString("User: ")
		b.WriteString(cut(m.Text()))
	case m.Role == providers.RoleAssistant:
		b.WriteString("Agent: ")
		b.WriteString(cut(m.Text()))
		for _, c := range m.ToolCalls {
			fmt.Fprintf(b, "\n(called %s with %s)", c.Name, cut(c.Arguments))
		}
	case m.Role == providers.RoleTool:
		fmt.Fprintf(b, "Result of %s: %s", m.ToolName, cut(m.Text()))
	default:
		return
	}
	b.WriteString("\n\n")
}

// refusal is what a run did about the provider refusing the current model
// call as too long.
type refusal int

const (
	refusedNone      refusal = iota
	refusedCompacted         // compacted and sent again
	refusedStuck             // could not be compacted
)

// compactRefused compacts a conversation the provider refused as too
// long and reports whether to send the call again: once per model call,
// never in a loop. The window was smaller than estimated, so it keeps
// less than maybeCompact does.
func (r *run) compactRefused(ctx context.Context) bool {
	if r.guard.refused != refusedNone || r.req.Compaction.Disabled {
		return false
	}
	r.guard.refused = refusedStuck
	if err := r.compactOnItsOwn(ctx, min(r.contextWindow(), r.conv.nextTokens(r.tools.specs))/4); err != nil {
		return false
	}
	r.guard.refused = refusedCompacted
	return true
}

// tooLongAdvice says what to do about a conversation the provider still
// refuses as too long.
func (r *run) tooLongAdvice() string {
	const todo = "start a new session, or choose a model with a larger context window"
	switch {
	case r.req.Compaction.Disabled:
		return fmt.Sprintf("the conversation is too long for %s and compaction is off: turn it on, %s", r.req.Model, todo)
	case r.guard.refused == refusedCompacted:
		return fmt.Sprintf("the conversation is too long for %s even after compaction: %s", r.req.Model, todo)
	}
	return fmt.Sprintf("the conversation is too long for %s and could not be compacted further: %s", r.req.Model, todo)
}

// tooLong reports whether err is a provider refusing a request for
// exceeding the model's context window.
func tooLong(err error) bool {
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Retryable {
		return false
	}
	if pe.StatusCode != 0 && pe.StatusCode != 400 && pe.StatusCode != 413 {
		return false
	}
	s := strings.ToLower(pe.Code + " " + pe.Message)
	for _, k := range []string{"context_length_exceeded", "context length", "context window", "prompt is too long", "too many tokens", "maximum context", "input is too long", "exceeds the maximum", "token limit"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}
