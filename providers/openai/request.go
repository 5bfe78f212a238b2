package openai

import (
	"encoding/base64"
	"fmt"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// chatRequest is the request body: go-openai's request, with the fields it
// lacks or cannot express shadowing the embedded ones.
type chatRequest struct {
	goopenai.ChatCompletionRequest
	// Messages shadows the embedded field: content may hold file parts,
	// which go-openai's ChatMessagePart cannot, and tool messages must keep
	// an empty content.
	Messages []chatMessage `json:"messages"`
	// Temperature shadows the embedded float32, whose omitempty drops 0.
	Temperature      *float64          `json:"temperature,omitempty"`
	WebSearchOptions *webSearchOptions `json:"web_search_options,omitempty"`
}

type webSearchOptions struct {
	SearchContextSize string `json:"search_context_size,omitempty"`
}

// chatMessage is one wire message. Content is a string, a []contentPart, or
// nil (omitted: an assistant message holding only tool calls).
type chatMessage struct {
	Role       string              `json:"role"`
	Content    any                 `json:"content,omitempty"`
	ToolCalls  []goopenai.ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string              `json:"tool_call_id,omitempty"`
}

type contentPart struct {
	Type     string                        `json:"type"`
	Text     string                        `json:"text,omitempty"`
	ImageURL *goopenai.ChatMessageImageURL `json:"image_url,omitempty"`
	File     *fileData                     `json:"file,omitempty"`
}

// fileData is a file content part: OpenAI chat takes PDFs inline as
// {"type":"file","file":{"filename","file_data":"data:application/pdf;base64,..."}}.
type fileData struct {
	Filename string `json:"filename,omitempty"`
	FileData string `json:"file_data"`
}

// buildRequest converts a neutral request to the wire. Warnings are for
// options this provider cannot honour; an error means the request cannot be
// expressed at all (media the API cannot take, say) and nothing is sent.
func (p *Provider) buildRequest(req *providers.Request, codec *adapter.NameCodec, endpoint string) (*chatRequest, []providers.Warning, error) {
	out := &chatRequest{Temperature: req.Temperature}
	out.Model = req.Model
	out.Stream = true
	out.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
	out.ReasoningEffort = string(req.ReasoningEffort)
	switch p.cfg.Name {
	case NameOpenAI, NameAzure:
		out.MaxCompletionTokens = req.MaxTokens
	default:
		// xAI and most compatible servers know only max_tokens; the
		// deprecation concerns OpenAI's own reasoning models.
		//lint:ignore SA1019 max_tokens is the field these servers read
		out.MaxTokens = req.MaxTokens
	}

	var warnings []providers.Warning
	if ws := req.WebSearch; ws != nil {
		if p.cfg.Name == NameOpenAI {
			out.WebSearchOptions = &webSearchOptions{SearchContextSize: ws.ContextSize}
		} else {
			warnings = append(warnings, providers.Warning{
				Code: "web_search_ignored",
				Message: fmt.Sprintf("%s: the Chat Completions API of %s has no native web search; the request was sent without it",
					p.cfg.Name, p.cfg.Name),
			})
		}
	}

	for _, t := range req.Tools {
		params := t.Schema()
		out.Tools = append(out.Tools, goopenai.Tool{
			Type: goopenai.ToolTypeFunction,
			Function: &goopenai.FunctionDefinition{
				Name:        codec.Wire(t.Name),
				Description: t.Description,
				Parameters:  params,
			},
		})
	}

	out.Messages = make([]chatMessage, 0, len(req.Messages))
	for i, m := range req.Messages {
		wm, err := toWire(m, codec)
		if err != nil {
			return nil, nil, &providers.Error{Provider: p.cfg.Name, URL: adapter.StripQuery(endpoint),
				Message: fmt.Sprintf("message %d: %v", i, err)}
		}
		out.Messages = append(out.Messages, wm)
	}
	return out, warnings, nil
}

// toWire converts one message. System messages stay in place; assistant
// reasoning is never sent back (the Chat Completions API takes none).
func toWire(m providers.Message, codec *adapter.NameCodec) (chatMessage, error) {
	switch m.Role {
	case providers.RoleSystem:
		return chatMessage{Role: "system", Content: m.Text()}, nil
	case providers.RoleUser:
		content, err := userContent(m.Content)
		return chatMessage{Role: "user", Content: content}, err
	case providers.RoleAssistant:
		wm := chatMessage{Role: "assistant"}
		if text := m.Text(); text != "" || len(m.ToolCalls) == 0 {
			wm.Content = text
		}
		for _, c := range m.ToolCalls {
			args := c.Arguments
			if strings.TrimSpace(args) == "" {
				args = "{}"
			}
			wm.ToolCalls = append(wm.ToolCalls, goopenai.ToolCall{
				ID:       c.ID,
				Type:     goopenai.ToolTypeFunction,
				Function: goopenai.FunctionCall{Name: codec.Wire(c.Name), Arguments: args},
			})
		}
		return wm, nil
	case providers.RoleTool:
		// Tool messages take text only; say what was left out rather than
		// drop it silently.
		text := m.Text()
		for _, part := range m.Content {
			if part.Type != providers.PartText {
				text += fmt.Sprintf("\n[%s omitted: the Chat Completions API takes no %ss in tool results]", part.Type, part.Type)
			}
		}
		return chatMessage{Role: "tool", Content: text, ToolCallID: m.ToolCallID}, nil
	}
	return chatMessage{}, fmt.Errorf("unknown role %q", m.Role)
}

// userContent is a plain string for text-only messages (what every
// compatible server accepts) and a part list when media is present.
func userContent(parts []providers.Part) (any, error) {
	m := providers.Message{Content: parts}
	if !m.HasMedia() {
		return m.Text(), nil
	}
	out := make([]contentPart, 0, len(parts))
	for _, part := range parts {
		switch part.Type {
		case providers.PartText:
			if part.Text != "" {
				out = append(out, contentPart{Type: "text", Text: part.Text})
			}
		case providers.PartImage:
			out = append(out, contentPart{Type: "image_url",
				ImageURL: &goopenai.ChatMessageImageURL{URL: dataURL(part)}})
		case providers.PartDocument:
			cp, err := documentPart(part)
			if err != nil {
				return nil, err
			}
			out = append(out, cp)
		default:
			return nil, fmt.Errorf("unknown content part type %q", part.Type)
		}
	}
	return out, nil
}

// documentPart sends PDFs as file parts and text documents inline; the
// Chat Completions API takes no other document type.
func documentPart(part providers.Part) (contentPart, error) {
	mt := part.MIME()
	switch {
	case mt == "application/pdf":
		name := part.Name
		if name == "" {
			name = "document.pdf"
		}
		return contentPart{Type: "file", File: &fileData{Filename: name, FileData: dataURL(part)}}, nil
	case strings.HasPrefix(mt, "text/"):
		text, _ := part.DocumentText()
		return contentPart{Type: "text", Text: text}, nil
	}
	return contentPart{}, fmt.Errorf("cannot send a %s document %q: the Chat Completions API takes PDFs, text and images", mt, part.Name)
}

func dataURL(part providers.Part) string {
	return "data:" + part.MIME() + ";base64," + base64.StdEncoding.EncodeToString(part.Data)
}
