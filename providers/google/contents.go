package google

import (
	"fmt"
	"strings"

	"google.golang.org/genai"

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

	out       []*genai.Content
	callNames map[string]string // call id → tool name, for results without one
	// The current run of tool messages: one user content, responses first
	// in call order, then any images and documents they returned.
	responses, media []*genai.Part
}

func (p *Provider) buildContents(req *providers.Request, names *adapter.NameCodec) ([]*genai.Content, error) {
	b := &contentsBuilder{names: names, strict: strictSignatures(req.Model), callNames: map[string]string{}}
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

func (b *contentsBuilder) add(c *genai.Content) {
	b.flushResults()
	// The API rejects a content without parts.
	if len(c.Parts) > 0 {
		b.out = append(b.out, c)
	}
}

// flushResults ends the current run of tool messages.
func (b *contentsBuilder) flushResults() {
	if len(b.responses) > 0 {
		b.out = append(b.out, &genai.Content{Role: genai.RoleUser, Parts: append(b.responses, b.media...)})
	}
	b.responses, b.media = nil, nil
}

func (b *contentsBuilder) user(m providers.Message) error {
	parts, err := userParts(m.Content)
	if err != nil {
		return err
	}
	b.add(&genai.Content{Role: genai.RoleUser, Parts: parts})
	return nil
}

// model rebuilds a model turn. Thought summaries are not sent back (the
// API does not need them); signatures are, on the kind of part they came
// on: thought parts, the text part, and each function call. Signatures of
// other providers are dropped.
func (b *contentsBuilder) model(m providers.Message) {
	c := &genai.Content{Role: genai.RoleModel}
	var textSig []byte
	for _, r := range m.Reasoning {
		if r.Provider != Name || r.Signature == "" {
			continue
		}
		if sig, ok := strings.CutPrefix(r.Signature, thoughtSigPrefix); ok {
			if s := signature(sig); s != nil {
				c.Parts = append(c.Parts, &genai.Part{Thought: true, Text: r.Text, ThoughtSignature: s})
			}
		} else if s := signature(r.Signature); s != nil {
			textSig = s
		}
	}
	// A text signature without text would need an empty text part, which
	// the SDK cannot send (its Text is omitempty); like the SDK's own chat
	// history, it is left out then. The API only requires call signatures.
	if text := m.Text(); text != "" {
		c.Parts = append(c.Parts, &genai.Part{Text: text, ThoughtSignature: textSig})
	}
	for i, call := range m.ToolCalls {
		name := b.names.Wire(call.Name)
		b.callNames[call.ID] = call.Name
		part := &genai.Part{
			FunctionCall:     &genai.FunctionCall{ID: call.ID, Name: name, Args: callArgs(call.Arguments)},
			ThoughtSignature: signature(call.Signature),
		}
		if i == 0 && part.ThoughtSignature == nil && b.strict {
			part.ThoughtSignature = []byte(skipSignature)
		}
		c.Parts = append(c.Parts, part)
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
	b.responses = append(b.responses, &genai.Part{FunctionResponse: &genai.FunctionResponse{
		ID:       m.ToolCallID,
		Name:     b.names.Wire(name),
		Response: map[string]any{key: text.String()},
	}})
	return nil
}

// strictSignatures reports whether the model validates thought signatures
// on function calls (Gemini 3 and later).
func strictSignatures(model string) bool {
	m := strings.ToLower(model[strings.LastIndexByte(model, '/')+1:])
	return !strings.HasPrefix(m, "gemini-1.") && !strings.HasPrefix(m, "gemini-2.") && !strings.HasPrefix(m, "gemma")
}
