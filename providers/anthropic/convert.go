package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

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
func toWire(msgs []providers.Message, codec *adapter.NameCodec) ([]sdk.MessageParam, error) {
	out := make([]sdk.MessageParam, 0, len(msgs)+1)
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
		out = append(out, sdk.MessageParam{Role: role, Content: blocks})
	}
	for i := range out {
		// Tool results must open the user turn that answers the calls.
		slices.SortStableFunc(out[i].Content, func(a, b sdk.ContentBlockParamUnion) int {
			return boolInt(b.OfToolResult != nil) - boolInt(a.OfToolResult != nil)
		})
	}
	if len(out) == 0 || out[0].Role != sdk.MessageParamRoleUser {
		out = slices.Insert(out, 0, sdk.NewUserMessage(sdk.NewTextBlock(fillerTurn)))
	}
	if out[len(out)-1].Role == sdk.MessageParamRoleAssistant {
		out = append(out, sdk.NewUserMessage(sdk.NewTextBlock(fillerTurn)))
	}
	return out, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// messageBlocks returns the wire role and content blocks of one message.
func messageBlocks(m providers.Message, codec *adapter.NameCodec) (sdk.MessageParamRole, []sdk.ContentBlockParamUnion, error) {
	switch m.Role {
	case providers.RoleUser:
		blocks := make([]sdk.ContentBlockParamUnion, 0, len(m.Content))
		for _, part := range m.Content {
			b, err := partBlock(part)
			if err != nil {
				return "", nil, err
			}
			if b != nil {
				blocks = append(blocks, *b)
			}
		}
		return sdk.MessageParamRoleUser, blocks, nil
	case providers.RoleAssistant:
		return sdk.MessageParamRoleAssistant, assistantBlocks(m, codec), nil
	case providers.RoleTool:
		b, err := toolResult(m)
		return sdk.MessageParamRoleUser, []sdk.ContentBlockParamUnion{{OfToolResult: b}}, err
	}
	return "", nil, fmt.Errorf("unknown role %q", m.Role)
}

// assistantBlocks replays an assistant turn: its thinking blocks first (the
// API checks their signatures and wants them ahead of text and tool use),
// then text, then tool calls. Reasoning from other providers, and thinking
// without a signature, cannot be verified by the API and is dropped.
func assistantBlocks(m providers.Message, codec *adapter.NameCodec) []sdk.ContentBlockParamUnion {
	blocks := make([]sdk.ContentBlockParamUnion, 0, len(m.Reasoning)+1+len(m.ToolCalls))
	for _, r := range m.Reasoning {
		switch {
		case r.Provider != Name:
		case r.Redacted != "":
			blocks = append(blocks, sdk.NewRedactedThinkingBlock(r.Redacted))
		case r.Signature != "":
			blocks = append(blocks, sdk.NewThinkingBlock(r.Signature, r.Text))
		}
	}
	// Empty text blocks are rejected by the API; whitespace-only ones
	// carry nothing, and a trailing one is rejected as well.
	if text := m.Text(); strings.TrimSpace(text) != "" {
		blocks = append(blocks, sdk.NewTextBlock(text))
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, sdk.ContentBlockParamUnion{OfToolUse: &sdk.ToolUseBlockParam{
			ID: c.ID, Name: codec.Wire(c.Name), Input: toolInput(c.Arguments),
		}})
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
func toolResult(m providers.Message) (*sdk.ToolResultBlockParam, error) {
	out := &sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.IsError {
		out.IsError = param.NewOpt(true)
	}
	for _, part := range m.Content {
		b, err := partBlock(part)
		if err != nil {
			return nil, err
		}
		switch {
		case b == nil:
		case b.OfText != nil:
			out.Content = append(out.Content, sdk.ToolResultBlockParamContentUnion{OfText: b.OfText})
		case b.OfImage != nil:
			out.Content = append(out.Content, sdk.ToolResultBlockParamContentUnion{OfImage: b.OfImage})
		case b.OfDocument != nil:
			out.Content = append(out.Content, sdk.ToolResultBlockParamContentUnion{OfDocument: b.OfDocument})
		}
	}
	return out, nil
}

// partBlock converts one content part; nil for empty text, which the API
// rejects as a block.
func partBlock(part providers.Part) (*sdk.ContentBlockParamUnion, error) {
	switch part.Type {
	case providers.PartText, "":
		if part.Text == "" {
			return nil, nil
		}
		b := sdk.NewTextBlock(part.Text)
		return &b, nil
	case providers.PartImage:
		mt := part.MIME()
		if !slices.Contains(imageTypes, mt) {
			return nil, fmt.Errorf("cannot send %s: the Messages API takes %s", describe(mt, "image", part.Name), strings.Join(imageTypes, ", "))
		}
		b := sdk.NewImageBlockBase64(mt, base64.StdEncoding.EncodeToString(part.Data))
		return &b, nil
	case providers.PartDocument:
		return documentBlock(part)
	}
	return nil, fmt.Errorf("unknown content part type %q", part.Type)
}

// documentBlock sends PDFs as base64 documents and text files as plain-text
// documents, the two document sources the API takes inline.
func documentBlock(part providers.Part) (*sdk.ContentBlockParamUnion, error) {
	doc := &sdk.DocumentBlockParam{}
	switch mt := part.MIME(); {
	case mt == "application/pdf":
		doc.Source.OfBase64 = &sdk.Base64PDFSourceParam{Data: base64.StdEncoding.EncodeToString(part.Data)}
	case strings.HasPrefix(mt, "text/"):
		doc.Source.OfText = &sdk.PlainTextSourceParam{Data: string(part.Data)}
	default:
		return nil, fmt.Errorf("cannot send %s: the Messages API takes PDFs and text documents", describe(mt, "document", part.Name))
	}
	if part.Name != "" {
		doc.Title = param.NewOpt(part.Name)
	}
	return &sdk.ContentBlockParamUnion{OfDocument: doc}, nil
}

// describe names a part in an error: "image/bmp image shot.bmp".
func describe(mediaType, kind, name string) string {
	return strings.TrimSpace(mediaType + " " + kind + " " + name)
}
