package providers

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// Reply is a complete model reply assembled from chunks.
type Reply struct {
	Message  Message    `json:"message"`
	Usage    Usage      `json:"usage"`
	Stop     StopReason `json:"stop"`
	Warnings []Warning  `json:"warnings,omitempty"`
}

// Empty reports whether the reply holds no text and no tool calls.
func (r *Reply) Empty() bool {
	return len(r.Message.ToolCalls) == 0 && strings.TrimSpace(r.Message.Text()) == ""
}

// Accumulator assembles streamed chunks into a Reply. The zero value is ready
// for use; set Provider to stamp reasoning blocks with their origin.
type Accumulator struct {
	Provider string

	text      strings.Builder
	reasoning []Reasoning
	calls     []ToolCall
	callIndex map[int]int // stream index → position in calls
	usage     Usage
	stop      StopReason
	warnings  []Warning
	emitted   bool
}

// Add folds one chunk into the reply. A WarnStreamRestarted warning drops
// everything added before it, keeping only the warning.
func (a *Accumulator) Add(c Chunk) {
	switch c.Type {
	case ChunkText:
		a.text.WriteString(c.Text)
		a.emitted = a.emitted || c.Text != ""
	case ChunkReasoning:
		a.addReasoning(c)
	case ChunkToolCall:
		a.addToolCall(c.ToolCall)
		a.emitted = true
	case ChunkUsage:
		a.usage = a.usage.merge(c.Usage)
	case ChunkWarning:
		if c.Warning.Code == WarnStreamRestarted {
			// The attempt so far is void; the reply streams again.
			a.Reset()
		}
		a.warnings = append(a.warnings, c.Warning)
	case ChunkStop:
		a.stop = c.Stop
	}
}

func (a *Accumulator) addReasoning(c Chunk) {
	a.emitted = true
	if c.Redacted != "" {
		a.reasoning = append(a.reasoning, Reasoning{Redacted: c.Redacted, Provider: a.Provider})
		return
	}
	n := len(a.reasoning)
	if n == 0 || a.reasoning[n-1].Signature != "" || a.reasoning[n-1].Redacted != "" {
		a.reasoning = append(a.reasoning, Reasoning{Provider: a.Provider})
		n++
	}
	last := &a.reasoning[n-1]
	last.Text += c.Text
	if c.Signature != "" {
		last.Signature = c.Signature
	}
}

func (a *Accumulator) addToolCall(d ToolCallDelta) {
	if a.callIndex == nil {
		a.callIndex = make(map[int]int)
	}
	pos, ok := a.callIndex[d.Index]
	if !ok {
		pos = len(a.calls)
		a.callIndex[d.Index] = pos
		a.calls = append(a.calls, ToolCall{})
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
	tc.Arguments += d.Arguments
}

// Emitted reports whether any content (text, reasoning or a tool call) has
// arrived since the accumulator was last reset.
func (a *Accumulator) Emitted() bool { return a.emitted }

// Reply returns the assembled reply. Tool calls without an ID (some APIs
// send none) get a random one, so results can always be paired with their
// call across the whole conversation.
func (a *Accumulator) Reply() Reply {
	msg := Message{Role: RoleAssistant, Reasoning: a.reasoning}
	if a.text.Len() > 0 {
		msg.Content = []Part{TextPart(a.text.String())}
	}
	if len(a.calls) > 0 {
		msg.ToolCalls = make([]ToolCall, len(a.calls))
		copy(msg.ToolCalls, a.calls)
		for i := range msg.ToolCalls {
			if msg.ToolCalls[i].ID == "" {
				msg.ToolCalls[i].ID = NewCallID()
			}
		}
	}
	stop := a.stop
	if stop == "" {
		stop = StopUnknown
	}
	if stop == StopNatural && len(msg.ToolCalls) > 0 {
		stop = StopToolCalls
	}
	return Reply{Message: msg, Usage: a.usage, Stop: stop, Warnings: a.warnings}
}

// Reset clears the accumulator for another attempt.
func (a *Accumulator) Reset() {
	provider := a.Provider
	*a = Accumulator{Provider: provider}
}

// NewCallID returns a fresh, random tool call id.
func NewCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
