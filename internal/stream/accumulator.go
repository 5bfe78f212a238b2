// Package stream assembles a provider's streamed chunks into the reply
// they make up. It is internal: the engine uses it for every model call.
package stream

import (
	"github.com/llmrt/llmrt/providers"
)

// Accumulator assembles streamed chunks into a Reply. The zero value is ready
// for use; set Provider to stamp reasoning blocks with their origin.
type Accumulator struct {
	Provider string

	text      Text
	reasoning []providers.Reasoning
	calls     []providers.ToolCall
	// The texts of reasoning and the arguments of calls grow beside
	// them (see Text), so a long streamed argument costs what its bytes
	// do: appending to a string copies all of it on every delta.
	reasoningText []*Text
	args          []*Text
	callIndex     map[int]int // stream index → position in calls
	usage         providers.Usage
	stop          providers.StopReason
	warnings      []providers.Warning
	emitted       bool
}

// Add folds one chunk into the reply. A providers.WarnStreamRestarted warning drops
// everything added before it, keeping only the warning.
func (a *Accumulator) Add(c providers.Chunk) {
	switch c.Type {
	case providers.ChunkText:
		a.text.WriteString(c.Text)
		a.emitted = a.emitted || c.Text != ""
	case providers.ChunkReasoning:
		a.addReasoning(c)
	case providers.ChunkToolCall:
		a.addToolCall(c.ToolCall)
		a.emitted = true
	case providers.ChunkUsage:
		a.usage = MergeUsage(a.usage, c.Usage)
	case providers.ChunkWarning:
		if c.Warning.Code == providers.WarnStreamRestarted {
			// The attempt so far is void; the reply streams again.
			a.Reset()
		}
		a.warnings = append(a.warnings, c.Warning)
	case providers.ChunkStop:
		a.stop = c.Stop
	}
}

func (a *Accumulator) addReasoning(c providers.Chunk) {
	a.emitted = true
	if c.Redacted != "" {
		a.reasoning = append(a.reasoning, providers.Reasoning{Redacted: c.Redacted, Provider: a.Provider})
		return
	}
	n := len(a.reasoning)
	if n == 0 || a.reasoning[n-1].Signature != "" || a.reasoning[n-1].Redacted != "" {
		a.reasoning = append(a.reasoning, providers.Reasoning{Provider: a.Provider})
		n++
	}
	for len(a.reasoningText) < n {
		a.reasoningText = append(a.reasoningText, &Text{})
	}
	last := &a.reasoning[n-1]
	a.reasoningText[n-1].WriteString(c.Text)
	if c.Signature != "" {
		last.Signature = c.Signature
	}
}

func (a *Accumulator) addToolCall(d providers.ToolCallDelta) {
	if a.callIndex == nil {
		a.callIndex = make(map[int]int)
	}
	pos, ok := a.callIndex[d.Index]
	if !ok {
		pos = len(a.calls)
		a.callIndex[d.Index] = pos
		a.calls = append(a.calls, providers.ToolCall{})
		a.args = append(a.args, &Text{})
	}
	tc := &a.calls[pos]
	if d.ID != "" {
		tc.ID = d.ID
	}
	if d.Name != "" {
		tc.Name = d.Name
	}
	if d.Signature != "" {
		tc.Signature = d.Signature
	}
	a.args[pos].WriteString(d.Arguments)
}

// Emitted reports whether any content (text, reasoning or a tool call) has
// arrived since the accumulator was last reset.
func (a *Accumulator) Emitted() bool { return a.emitted }

// providers.Reply returns the assembled reply. Tool calls without an ID (some APIs
// send none) get a random one, so results can always be paired with their
// call across the whole conversation.
func (a *Accumulator) Reply() providers.Reply {
	msg := providers.Message{Role: providers.RoleAssistant}
	if len(a.reasoning) > 0 {
		msg.Reasoning = make([]providers.Reasoning, len(a.reasoning))
		copy(msg.Reasoning, a.reasoning)
		for i := range msg.Reasoning {
			if i < len(a.reasoningText) {
				msg.Reasoning[i].Text = a.reasoningText[i].String()
			}
		}
	}
	if a.text.Len() > 0 {
		msg.Content = []providers.Part{providers.TextPart(a.text.String())}
	}
	if len(a.calls) > 0 {
		msg.ToolCalls = make([]providers.ToolCall, len(a.calls))
		copy(msg.ToolCalls, a.calls)
		for i := range msg.ToolCalls {
			msg.ToolCalls[i].Arguments = a.args[i].String()
			if msg.ToolCalls[i].ID == "" {
				msg.ToolCalls[i].ID = providers.NewCallID()
			}
		}
	}
	stop := a.stop
	if stop == "" {
		stop = providers.StopUnknown
	}
	if stop == providers.StopNatural && len(msg.ToolCalls) > 0 {
		stop = providers.StopToolCalls
	}
	return providers.Reply{Message: msg, Usage: a.usage, Stop: stop, Warnings: a.warnings}
}

// Reset clears the accumulator for another attempt.
func (a *Accumulator) Reset() {
	provider := a.Provider
	*a = Accumulator{Provider: provider}
}

// MergeUsage overlays the non-zero fields of v on u. Usage chunks carry running
// totals for the call, so the latest non-zero value of a field wins.
func MergeUsage(u, v providers.Usage) providers.Usage {
	pick := func(a, b int) int {
		if b != 0 {
			return b
		}
		return a
	}
	return providers.Usage{
		InputTokens:      pick(u.InputTokens, v.InputTokens),
		OutputTokens:     pick(u.OutputTokens, v.OutputTokens),
		ReasoningTokens:  pick(u.ReasoningTokens, v.ReasoningTokens),
		CacheReadTokens:  pick(u.CacheReadTokens, v.CacheReadTokens),
		CacheWriteTokens: pick(u.CacheWriteTokens, v.CacheWriteTokens),
	}
}
