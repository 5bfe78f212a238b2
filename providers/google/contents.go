package google

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// contentsBuilder converts the conversation to Gemini contents: user
// messages to user contents, assistant messages to model contents holding
// their text, thought signatures and functionCall parts, and each run of
// tool messages to one user content of functionResponse parts.
type contentsBuilder struct {
	names  *adapter.NameCodec
	strict bool // the model needs a signature on each turn's first call

	out       []content
	callNames map[string]string // call id → tool name, for results without one
	// The current run of tool messages: one user content, responses first
	// in call order, then any images and documents they returned.
	responses, media []part
}

func buildContents(req *providers.Request, names *adapter.NameCodec) ([]content, error) {
	b := &contentsBuilder{names: names, strict: strictSignatures(req.Model), callNames: map[string]string{},
		out: make([]content, 0, len(req.Messages))}
	_, msgs := providers.SplitSystem(req.Messages)
	for i, m := range msgs {
		var err error
		switch m.Role {
		case providers.RoleUser:
			err = b.user(m)
		case providers.RoleAssistant:
			b.model(m)
		case providers.RoleTool:
			err = b.toolResult(m)
		default:
			err = fmt.Errorf("unknown role %q", m.Role)
		}
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
	}
	b.flushResults()
	return b.out, nil
}

func (b *contentsBuilder) add(c content) {
	b.flushResults()
	// The API rejects a content without parts; turns of one role in a
	// row (a note after function responses) are one turn.
	switch n := len(b.out); {
	case len(c.Parts) == 0:
	case n > 0 && b.out[n-1].Role == c.Role:
		b.out[n-1].Parts = append(b.out[n-1].Parts, c.Parts...)
	default:
		b.out = append(b.out, c)
	}
}

// flushResults ends the current run of tool messages.
func (b *contentsBuilder) flushResults() {
	if len(b.responses) > 0 {
		b.out = append(b.out, content{Role: "user", Parts: append(b.responses, b.media...)})
	}
	b.responses, b.media = nil, nil
}

func (b *contentsBuilder) user(m providers.Message) error {
	parts, err := userParts(m.Content)
	if err != nil {
		return err
	}
	b.add(content{Role: "user", Parts: parts})
	return nil
}

// model rebuilds a model turn. Thought summaries are not sent back (the
// API does not need them); signatures are, on the kind of part they came
// on: thought parts, the text part, and each function call. Signatures of
// other providers are dropped.
func (b *contentsBuilder) model(m providers.Message) {
	c := content{Role: "model"}
	var textSig string
	for _, r := range m.Reasoning {
		if r.Provider != Name || r.Signature == "" {
			continue
		}
		if sig, ok := strings.CutPrefix(r.Signature, thoughtSigPrefix); ok {
			if s := signature(sig); s != "" {
				c.Parts = append(c.Parts, part{Thought: true, Text: r.Text, ThoughtSignature: s})
			}
		} else if s := signature(r.Signature); s != "" {
			textSig = s
		}
	}
	// A text signature without text is left out: it would need a part of
	// empty text, and the API requires only call signatures.
	if text := m.Text(); text != "" {
		c.Parts = append(c.Parts, part{Text: text, ThoughtSignature: textSig})
	}
	for i, call := range m.ToolCalls {
		b.callNames[call.ID] = call.Name
		p := part{
			FunctionCall:     &functionCall{ID: call.ID, Name: b.names.Wire(call.Name), Args: callArgs(call.Arguments)},
			ThoughtSignature: signature(call.Signature),
		}
		if i == 0 && p.ThoughtSignature == "" && b.strict {
			p.ThoughtSignature = base64.StdEncoding.EncodeToString([]byte(skipSignature))
		}
		c.Parts = append(c.Parts, p)
	}
	b.add(c)
}

// toolResult adds a functionResponse to the current run of tool results.
// The result text goes under "result", or "error" for a failed call; images
// and documents follow the responses as inline parts of the same turn (the
// plain functionResponse takes no media).
func (b *contentsBuilder) toolResult(m providers.Message) error {
	name := m.ToolName
	if name == "" {
		name = b.callNames[m.ToolCallID]
	}
	if name == "" {
		return fmt.Errorf("tool result for call %q names no tool", m.ToolCallID)
	}
	key := "result"
	if m.IsError {
		key = "error"
	}
	var text strings.Builder
	for _, part := range m.Content {
		if part.Type == providers.PartText {
			text.WriteString(part.Text)
			continue
		}
		gp, err := mediaPart(part)
		if err != nil {
			return err
		}
		b.media = append(b.media, gp)
	}
	b.responses = append(b.responses, part{FunctionResponse: &functionResponse{
		ID:       m.ToolCallID,
		Name:     b.names.Wire(name),
		Response: map[string]string{key: text.String()},
	}})
	return nil
}

// strictSignatures reports whether the model validates thought signatures
// on function calls (Gemini 3 and later).
func strictSignatures(model string) bool {
	m := strings.ToLower(model[strings.LastIndexByte(model, '/')+1:])
	return !strings.HasPrefix(m, "gemini-1.") && !strings.HasPrefix(m, "gemini-2.") && !strings.HasPrefix(m, "gemma")
}
