package providers

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
)

// Role is the author of a message.
type Role string

// The four roles of a conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// PartType says what a content part holds.
type PartType string

// Content part types.
const (
	PartText     PartType = "text"
	PartImage    PartType = "image"
	PartDocument PartType = "document"
)

// Part is one piece of multipart content: text, an image or a document (PDF).
// Data holds raw bytes; its JSON form is base64.
type Part struct {
	Type      PartType `json:"type"`
	Text      string   `json:"text,omitempty"`
	MediaType string   `json:"media_type,omitempty"`
	Data      []byte   `json:"data,omitempty"`
	// Name is an optional file name for images and documents.
	Name string `json:"name,omitempty"`
}

// MIME returns the part's media type without parameters, in lower case:
// the declared one, or one sniffed from its bytes.
func (p Part) MIME() string {
	mt := p.MediaType
	if mt == "" {
		mt = http.DetectContentType(p.Data)
	}
	mt, _, _ = strings.Cut(mt, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// DocumentText returns a text document (text/*) as the text adapters
// inline for APIs without text documents: its name, if any, on the first
// line, then its content. ok is false for other parts.
func (p Part) DocumentText() (text string, ok bool) {
	if p.Type != PartDocument || !strings.HasPrefix(p.MIME(), "text/") {
		return "", false
	}
	if p.Name != "" {
		return p.Name + ":\n" + string(p.Data), true
	}
	return string(p.Data), true
}

// TextPart returns a text part.
func TextPart(s string) Part { return Part{Type: PartText, Text: s} }

// ToolCall is one tool invocation requested by the model.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the argument JSON exactly as the model produced it. It may
	// be invalid; the engine validates it before anything runs.
	Arguments string `json:"arguments"`
	// Signature is opaque provider state bound to this call (Gemini thought
	// signatures). It is sent back unchanged when the history is replayed.
	Signature string `json:"signature,omitempty"`
}

// Reasoning is one block of model reasoning kept in an assistant message.
// Text is the readable summary or thinking text; Signature and Redacted are
// opaque state some APIs require to be sent back verbatim.
type Reasoning struct {
	Text      string `json:"text,omitempty"`
	Signature string `json:"signature,omitempty"`
	// Redacted holds encrypted reasoning (Anthropic redacted_thinking).
	Redacted string `json:"redacted,omitempty"`
	// Provider names the API that produced the opaque state. Adapters send
	// signatures back only to the provider that issued them.
	Provider string `json:"provider,omitempty"`
}

// Message is one entry of a conversation.
type Message struct {
	Role    Role   `json:"role"`
	Content []Part `json:"content,omitempty"`
	// Reasoning and ToolCalls are set on assistant messages.
	Reasoning []Reasoning `json:"reasoning,omitempty"`
	ToolCalls []ToolCall  `json:"tool_calls,omitempty"`
	// ToolCallID, ToolName and IsError are set on tool messages.
	ToolCallID string `json:"tool_call_id,omitempty"`
	ToolName   string `json:"tool_name,omitempty"`
	IsError    bool   `json:"is_error,omitempty"`
	// Interrupted marks an assistant message cut short when its run was
	// cancelled: the text is what the model had written by then. Adapters
	// send it as any other; the engine tells the model of the cut.
	Interrupted bool `json:"interrupted,omitempty"`
}

// TextMessage returns a message holding a single text part.
func TextMessage(role Role, text string) Message {
	return Message{Role: role, Content: []Part{TextPart(text)}}
}

// ToolResultMessage returns the tool message answering call.
func ToolResultMessage(call ToolCall, content string, isError bool) Message {
	return Message{
		Role:       RoleTool,
		Content:    []Part{TextPart(content)},
		ToolCallID: call.ID,
		ToolName:   call.Name,
		IsError:    isError,
	}
}

// Text returns the concatenated text parts of m.
func (m Message) Text() string {
	switch len(m.Content) {
	case 0:
		return ""
	case 1:
		return m.Content[0].Text
	}
	var b strings.Builder
	for _, p := range m.Content {
		if p.Type == PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// HasMedia reports whether m carries an image or document part.
func (m Message) HasMedia() bool {
	for _, p := range m.Content {
		if p.Type != PartText {
			return true
		}
	}
	return false
}

// SplitSystem separates the system prompt from the rest of a
// conversation, for APIs with a single system field. The system prompt is
// the text of the leading system messages, joined by blank lines. A
// system message later in the conversation (the engine's transient
// recovery note on a call's end) stays where it is, as user text marked
// as the system's (SystemNote): merged into the system field it would
// change the most stable part of the prompt on the calls that carry one,
// and void the provider's prompt cache from the first byte. A note
// right after a user message joins it, so turns still alternate.
func SplitSystem(msgs []Message) (system string, rest []Message) {
	var parts []string
	lead := true
	rest = make([]Message, 0, len(msgs))
	for _, m := range msgs {
		t := strings.TrimSpace(m.Text())
		switch {
		case m.Role != RoleSystem:
			lead = false
			rest = append(rest, m)
		case t == "":
		case lead:
			parts = append(parts, t)
		case len(rest) > 0 && rest[len(rest)-1].Role == RoleUser:
			u := &rest[len(rest)-1]
			u.Content = append(append([]Part(nil), u.Content...), TextPart(SystemNote(t)))
		default:
			rest = append(rest, TextMessage(RoleUser, SystemNote(t)))
		}
	}
	return strings.Join(parts, "\n\n"), rest
}

// SystemNote wraps system text sent as user text, so the model tells it
// from the person's words.
func SystemNote(text string) string {
	return "<system-reminder>\n" + text + "\n</system-reminder>"
}

// TrailingSystem returns how many system messages end a conversation
// that has other messages: the transient notes SplitSystem sends as
// user text at its end, which an adapter's cache breakpoint should
// precede, since the next call drops them.
func TrailingSystem(msgs []Message) int {
	n := 0
	for i := len(msgs) - 1; i > 0 && msgs[i].Role == RoleSystem; i-- {
		if strings.TrimSpace(msgs[i].Text()) != "" {
			n++
		}
	}
	if n == len(msgs)-1 && msgs[0].Role == RoleSystem {
		return 0 // all system: no conversation for a note to end
	}
	return n
}

// Reply is a complete model reply: what a Provider's chunks add up to, and
// what the engine's Generate returns.
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

// NewCallID returns a fresh, random tool call id.
func NewCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
