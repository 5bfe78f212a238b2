package ollama

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// chatRequest is the /api/chat request body.
type chatRequest struct {
	Model    string        `json:"model"`
	Messages []wireMessage `json:"messages"`
	Tools    []wireTool    `json:"tools,omitempty"`
	Stream   bool          `json:"stream"`
	// Think is true, false or a level string; nil leaves the model's
	// default. omitempty drops only a nil interface, so false is sent.
	Think   any          `json:"think,omitempty"`
	Options *wireOptions `json:"options,omitempty"`
}

type wireOptions struct {
	Temperature *float64 `json:"temperature,omitempty"`
	NumPredict  int      `json:"num_predict,omitempty"`
}

// wireMessage is one message. Images are raw bytes, which encoding/json
// writes as the base64 strings Ollama expects.
type wireMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	Thinking   string         `json:"thinking,omitempty"`
	Images     [][]byte       `json:"images,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolName   string         `json:"tool_name,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

// wireToolCall is a whole tool call, in replies and in history. Ollama
// sends no id before 0.12 and a function.index only in newer versions.
type wireToolCall struct {
	ID       string       `json:"id,omitempty"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Index *int   `json:"index,omitempty"`
	Name  string `json:"name"`
	// Arguments is a JSON object on the wire, not a string.
	Arguments json.RawMessage `json:"arguments"`
}

type wireTool struct {
	Type     string      `json:"type"`
	Function wireToolDef `json:"function"`
}

type wireToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// buildRequest converts a neutral request to the wire. Warnings are for
// options Ollama cannot honour; an error means the request cannot be
// expressed at all (media the API cannot take, say) and nothing is sent.
func buildRequest(req *providers.Request, codec *adapter.NameCodec) (*chatRequest, []providers.Warning, error) {
	out := &chatRequest{Model: req.Model, Stream: true, Think: think(req.Model, req.ReasoningEffort)}
	if req.Temperature != nil || req.MaxTokens > 0 {
		out.Options = &wireOptions{Temperature: req.Temperature, NumPredict: req.MaxTokens}
	}
	var warnings []providers.Warning
	if req.WebSearch != nil {
		warnings = append(warnings, providers.Warning{Code: "web_search_ignored",
			Message: "ollama has no native web search; the request was sent without it"})
	}
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, wireTool{Type: "function",
			Function: wireToolDef{Name: codec.Wire(t.Name), Description: t.Description, Parameters: t.Schema()}})
	}

	// Every model template renders a leading system message; not all of
	// them render system messages in the middle of a conversation. Merging
	// is what guarantees all system text reaches the model: the host's
	// prompt, the loop contract and the engine's recovery notes.
	system, rest := providers.SplitSystem(req.Messages)
	out.Messages = make([]wireMessage, 0, len(rest)+1)
	if system != "" {
		out.Messages = append(out.Messages, wireMessage{Role: "system", Content: system})
	}
	for i, m := range rest {
		wm, err := toWire(m, codec)
		if err != nil {
			return nil, nil, fmt.Errorf("message %d (%s): %w", i, m.Role, err)
		}
		out.Messages = append(out.Messages, wm)
	}
	return out, warnings, nil
}

// think maps the reasoning effort to Ollama's think field. gpt-oss takes a
// level string (a boolean only selects its default level); other models
// take a boolean, and Ollama releases that accepted levels for gpt-oss
// only answer a string with 400 "think value ... is not supported for this
// model". So a level is sent only to gpt-oss models.
func think(model string, effort providers.Effort) any {
	switch effort {
	case "":
		return nil
	case providers.EffortNone:
		return false
	}
	if strings.Contains(strings.ToLower(model), "gpt-oss") {
		return string(effort)
	}
	return true
}

// toWire converts one non-system message.
func toWire(m providers.Message, codec *adapter.NameCodec) (wireMessage, error) {
	text, images, err := content(m.Content)
	if err != nil {
		return wireMessage{}, err
	}
	wm := wireMessage{Role: string(m.Role), Content: text, Images: images}
	switch m.Role {
	case providers.RoleUser:
	case providers.RoleAssistant:
		wm.Thinking = thinking(m.Reasoning)
		for _, c := range m.ToolCalls {
			wm.ToolCalls = append(wm.ToolCalls, wireToolCall{ID: c.ID,
				Function: wireFunction{Name: codec.Wire(c.Name), Arguments: argsObject(c.Arguments)}})
		}
	case providers.RoleTool:
		// Older servers pair results with calls by tool_name, newer ones by
		// tool_call_id; both are sent.
		wm.ToolName, wm.ToolCallID = codec.Wire(m.ToolName), m.ToolCallID
	default:
		return wireMessage{}, fmt.Errorf("unknown role %q", m.Role)
	}
	return wm, nil
}

// thinking joins the reasoning Ollama produced earlier in the conversation.
// It is sent back because gpt-oss needs its reasoning about a tool call to
// make sense of the result; templates of other models drop what they do not
// use. Reasoning from other providers stays with them.
func thinking(blocks []providers.Reasoning) string {
	var parts []string
	for _, r := range blocks {
		if r.Provider == Name && r.Text != "" {
			parts = append(parts, r.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// argsObject returns a call's arguments as the JSON object Ollama requires.
// Arguments the model wrote as invalid JSON (the engine reported that back
// as the tool's result) are kept as a string under "_invalid_json", so the
// history still shows the model what it wrote and the request stays valid.
func argsObject(args string) json.RawMessage {
	trimmed := strings.TrimSpace(args)
	if trimmed == "" {
		return json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(trimmed), &obj) == nil && obj != nil {
		return json.RawMessage(trimmed)
	}
	wrapped, _ := json.Marshal(map[string]string{"_invalid_json": args})
	return wrapped
}

// content splits parts into text and images. Ollama takes images only:
// text documents are inlined, and any other document is an error before
// the request is sent.
func content(parts []providers.Part) (string, [][]byte, error) {
	if len(parts) == 1 && parts[0].Type == providers.PartText {
		return parts[0].Text, nil, nil
	}
	var text strings.Builder
	var images [][]byte
	for _, part := range parts {
		switch part.Type {
		case providers.PartText:
			text.WriteString(part.Text)
		case providers.PartImage:
			images = append(images, part.Data)
		case providers.PartDocument:
			doc, ok := part.DocumentText()
			if !ok {
				return "", nil, fmt.Errorf("cannot send the %s document %q: ollama takes images only; convert it to text or images first", part.MIME(), part.Name)
			}
			if text.Len() > 0 {
				text.WriteString("\n\n")
			}
			text.WriteString(doc)
		default:
			return "", nil, fmt.Errorf("unknown content part type %q", part.Type)
		}
	}
	return text.String(), images, nil
}
