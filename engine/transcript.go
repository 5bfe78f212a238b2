package engine

import (
	"github.com/llmrt/llmrt/providers"
)

// transcript is a run's conversation twice over: msgs, what the host
// stores and Result.Messages returns, and wire, what the model sees (one
// merged system message, then msgs after the host's leading system ones).
// push keeps them in step, so preparing a call costs the same at message
// 5 and message 500. Only the loop goroutine touches it.
type transcript struct {
	msgs   []Message
	wire   []Message
	system string // the host's leading system text
	// callIDs holds every tool call id in the conversation.
	callIDs map[string]bool
	// size is what is known of the next request's size.
	size requestSize
}

// requestSize is what the run knows of the size of its next request: the
// input tokens the provider counted for the last call, which covered
// wire[:counted], plus an estimate of what was appended since.
type requestSize struct {
	known   int // provider-counted input tokens of the last call
	counted int // len(wire) that count covered; 0 means nothing is known
}

// newTranscript starts from the conversation a request brings. wire[0]
// waits for the managed system message (setSystem).
func newTranscript(msgs []Message) transcript {
	t := transcript{msgs: append([]Message(nil), msgs...), callIDs: make(map[string]bool)}
	lead := 0
	for lead < len(t.msgs) && t.msgs[lead].Role == providers.RoleSystem {
		t.system += t.msgs[lead].Text() + "\n\n"
		lead++
	}
	for _, m := range t.msgs {
		for _, c := range m.ToolCalls {
			t.callIDs[c.ID] = true
		}
	}
	t.wire = make([]Message, 0, len(t.msgs)-lead+16)
	t.wire = append(t.wire, Message{})
	for _, m := range t.msgs[lead:] {
		t.wire = appendWire(t.wire, m)
	}
	return t
}

// setSystem puts the managed system message in front of the wire.
func (t *transcript) setSystem(m Message) { t.wire[0] = m }

// push appends a message to the conversation.
func (t *transcript) push(m Message) {
	t.msgs = append(t.msgs, m)
	t.wire = appendWire(t.wire, m)
}

// interruptedMark ends the text of an interrupted reply as the model
// sees it.
const interruptedMark = "\n\n[interrupted: this reply was stopped here]"

// appendWire appends m to a wire as the model is to see it. Two user
// messages in a row (a turn stopped before the model wrote anything, then
// a new prompt; a summary, then the kept conversation) become one user
// turn, so turns alternate as every API wants; an interrupted reply says
// so at its end. wire[0] is the managed system message, never joined.
// Replies in a row (text the model was told to follow with action, then
// the action) stay apart: adapters whose API wants them joined join them,
// and each is one model call of the run.
func appendWire(wire []Message, m Message) []Message {
	if m.Role == providers.RoleAssistant && m.Interrupted {
		text := m.Text()
		m.Content = []providers.Part{providers.TextPart(text + interruptedMark)}
	}
	if n := len(wire); n > 1 && m.Role == providers.RoleUser && wire[n-1].Role == providers.RoleUser {
		wire[n-1] = join(wire[n-1], m)
		return wire
	}
	return append(wire, m)
}

// join returns a message holding a's content, then b's, in a new slice
// (a's may be shared with the stored conversation): text meeting text is
// joined by a blank line.
func join(a, b Message) Message {
	parts := make([]providers.Part, 0, len(a.Content)+len(b.Content))
	parts = append(parts, a.Content...)
	rest := b.Content
	if k := len(parts) - 1; k >= 0 && len(rest) > 0 && isText(parts[k]) && isText(rest[0]) {
		parts[k].Text += "\n\n" + rest[0].Text
		rest = rest[1:]
	}
	a.Content = append(parts, rest...)
	return a
}

func isText(p providers.Part) bool { return p.Type == providers.PartText || p.Type == "" }

// withNote is the wire of the next call; a pending recovery note rides as
// a trailing system message on this call only. The note goes into wire's
// spare capacity without extending wire, so the next push overwrites it
// and it is never part of the conversation.
func (t *transcript) withNote(note string) []Message {
	if note == "" {
		return t.wire
	}
	return append(t.wire, providers.TextMessage(providers.RoleSystem, note))
}

// uniqueCallIDs renames a call whose id is empty or already used in the
// conversation (some APIs reuse ids across turns), so every result pairs
// with exactly one call. Adapters map ids to the wire on replay, so the
// rename is invisible to the model.
func (t *transcript) uniqueCallIDs(calls []ToolCall) {
	for i := range calls {
		if calls[i].ID == "" || t.callIDs[calls[i].ID] {
			calls[i].ID = providers.NewCallID()
		}
		t.callIDs[calls[i].ID] = true
	}
}

// replace makes msgs the conversation (after a compaction), keeping their
// first lead messages, the host's system ones, out of the wire. Nothing
// of the new conversation has been counted yet.
func (t *transcript) replace(msgs []Message, lead int, system Message) {
	t.msgs = msgs
	t.wire = make([]Message, 0, len(msgs)-lead+16)
	t.wire = append(t.wire, system)
	for _, m := range msgs[lead:] {
		t.wire = appendWire(t.wire, m)
	}
	t.size = requestSize{}
}

// nextTokens estimates the size of the next model call, which also sends
// specs.
func (t *transcript) nextTokens(specs []providers.ToolSpec) int {
	if t.size.counted == 0 || t.size.counted > len(t.wire) {
		return estimateTokens(t.wire) + estimateSpecs(specs)
	}
	return t.size.known + estimateTokens(t.wire[t.size.counted:])
}

// counted records the provider's count of the request just sent, which
// held the first sent messages of the wire.
func (t *transcript) counted(sent int, u Usage) {
	if u.InputTokens > 0 {
		t.size = requestSize{known: u.InputTokens, counted: sent}
	}
}
