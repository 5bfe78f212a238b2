package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// fillerTurn is the user turn added where the API needs one that the
// conversation lacks: at the start, or after a final assistant message,
// which the API would take as a prefill to continue rather than a turn to
// answer (and newer models reject).
const fillerTurn = "Continue."

// imageTypes are the image media types the API takes.
var imageTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// toWire converts the non-system messages. Tool results become tool_result
// blocks of a user turn; consecutive turns of one role are merged, since
// the API wants user and assistant to alternate.
func toWire(msgs []providers.Message, codec *adapter.NameCodec) ([]message, error) {
	out := make([]message, 0, len(msgs)+1)
	for i, m := range msgs {
		role, blocks, err := messageBlocks(m, codec)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		if len(blocks) == 0 {
			continue // the API rejects empty turns
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			continue
		}
		out = append(out, message{Role: role, Content: blocks})
	}
	for i := range out {
		// Tool results must open the user turn that answers the calls.
		slices.SortStableFunc(out[i].Content, func(a, b block) int {
			return boolInt(isToolResult(b)) - boolInt(isToolResult(a))
		})
	}
	if len(out) == 0 || out[0].Role != roleUser {
		out = slices.Insert(out, 0, message{Role: roleUser, Content: []block{newText(fillerTurn)}})
	}
	if out[len(out)-1].Role == roleAssistant {
		out = append(out, message{Role: roleUser, Content: []block{newText(fillerTurn)}})
	}
	return out, nil
}

func isToolResult(b block) bool {
	_, ok := b.(*toolResultBlock)
	return ok
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// messageBlocks returns the wire role and content blocks of one message.
func messageBlocks(m providers.Message, codec *adapter.NameCodec) (string, []block, error) {
	switch m.Role {
	case providers.RoleUser:
		blocks := make([]block, 0, len(m.Content))
		for _, part := range m.Content {
			b, err := partBlock(part)
			if err != nil {
				return "", nil, err
			}
			if b != nil {
				blocks = append(blocks, b)
			}
		}
		return roleUser, blocks, nil
	case providers.RoleAssistant:
		return roleAssistant, assistantBlocks(m, codec), nil
	case providers.RoleTool:
		b, err := toolResult(m)
		return roleUser, []block{b}, err
	}
	return "", nil, fmt.Errorf("unknown role %q", m.Role)
}

// assistantBlocks replays an assistant turn: its thinking blocks first (the
// API checks their signatures and wants them ahead of text and tool use),
// then text, then tool calls. Reasoning from other providers, and thinking
// without a signature, cannot be verified by the API and is dropped.
func assistantBlocks(m providers.Message, codec *adapter.NameCodec) []block {
	blocks := make([]block, 0, len(m.Reasoning)+1+len(m.ToolCalls))
	for _, r := range m.Reasoning {
		switch {
		case r.Provider != Name:
		case r.Redacted != "":
			blocks = append(blocks, &redactedThinkingBlock{Data: r.Redacted, Type: "redacted_thinking"})
		case r.Signature != "":
			blocks = append(blocks, &thinkingBlock{Signature: r.Signature, Thinking: r.Text, Type: "thinking"})
		}
	}
	// Empty text blocks are rejected by the API; whitespace-only ones
	// carry nothing, and a trailing one is rejected as well.
	if text := m.Text(); strings.TrimSpace(text) != "" {
		blocks = append(blocks, newText(text))
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, &toolUseBlock{ID: c.ID, Input: toolInput(c.Arguments), Name: codec.Wire(c.Name), Type: "tool_use"})
	}
	return blocks
}

// toolInput is the call's arguments as the JSON object the API requires.
// Arguments the model got wrong (invalid JSON, not an object) are replaced
// by {}: the tool result that answered the call already told the model.
func toolInput(args string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(args)
}

// toolResult converts a tool message. Images and documents a tool returned
// go inside the result, where the API takes them.
func toolResult(m providers.Message) (*toolResultBlock, error) {
	out := &toolResultBlock{ToolUseID: m.ToolCallID, IsError: m.IsError, Type: "tool_result"}
	for _, part := range m.Content {
		b, err := partBlock(part)
		if err != nil {
			return nil, err
		}
		if b != nil {
			out.Content = append(out.Content, b)
		}
	}
	return out, nil
}

// partBlock converts one content part; nil for empty text, which the API
// rejects as a block.
func partBlock(part providers.Part) (block, error) {
	switch part.Type {
	case providers.PartText, "":
		if part.Text == "" {
			return nil, nil
		}
		return newText(part.Text), nil
	case providers.PartImage:
		mt := part.MIME()
		if !slices.Contains(imageTypes, mt) {
			return nil, fmt.Errorf("cannot send %s: the Messages API takes %s", describe(mt, "image", part.Name), strings.Join(imageTypes, ", "))
		}
		return &imageBlock{Source: source{Data: base64.StdEncoding.EncodeToString(part.Data), MediaType: mt, Type: "base64"}, Type: "image"}, nil
	case providers.PartDocument:
		return document(part)
	}
	return nil, fmt.Errorf("unknown content part type %q", part.Type)
}

// document sends PDFs as base64 documents and text files as plain-text
// documents, the two document sources the API takes inline. A text
// document goes out as text/plain whatever its own text/ type.
func document(part providers.Part) (block, error) {
	doc := &documentBlock{Title: part.Name, Type: "document"}
	switch mt := part.MIME(); {
	case mt == "application/pdf":
		doc.Source = source{Data: base64.StdEncoding.EncodeToString(part.Data), MediaType: mt, Type: "base64"}
	case strings.HasPrefix(mt, "text/"):
		doc.Source = source{Data: string(part.Data), MediaType: "text/plain", Type: "text"}
	default:
		return nil, fmt.Errorf("cannot send %s: the Messages API takes PDFs and text documents", describe(mt, "document", part.Name))
	}
	return doc, nil
}

// describe names a part in an error: "image/bmp image shot.bmp".
func describe(mediaType, kind, name string) string {
	return strings.TrimSpace(mediaType + " " + kind + " " + name)
}
