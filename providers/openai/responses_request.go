package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// includeReasoning asks the API to return each reasoning item's encrypted
// state, the only way to carry reasoning across calls with store: false.
const includeReasoning = "reasoning.encrypted_content"

// responsesRequest is the body of POST /responses. Nothing is stored on
// the server (store: false): every call carries the whole conversation,
// reasoning items included, so a run never depends on server-side state.
type responsesRequest struct {
	Model           string          `json:"model"`
	Input           []any           `json:"input"`
	Tools           []any           `json:"tools,omitempty"`
	Stream          bool            `json:"stream"`
	Store           bool            `json:"store"`
	Include         []string        `json:"include,omitempty"`
	Reasoning       *reasoningParam `json:"reasoning,omitempty"`
	MaxOutputTokens int             `json:"max_output_tokens,omitempty"`
	Temperature     *float64        `json:"temperature,omitempty"`
}

type reasoningParam struct {
	Effort  string `json:"effort,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// functionTool is a function tool. Strict is sent as false: the API's
// default, strict schemas, would reject or rewrite the optional
// parameters tools have.
type functionTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

type webSearchTool struct {
	Type              string `json:"type"`
	SearchContextSize string `json:"search_context_size,omitempty"`
}

// inputMessage is a message item. Content is a string, or a list of
// input or output parts.
type inputMessage struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// inputPart is one part of a message's or a tool output's content:
// input_text, input_image, input_file, or output_text in assistant
// messages.
type inputPart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
	Filename string `json:"filename,omitempty"`
	FileData string `json:"file_data,omitempty"`
}

type functionCallItem struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// functionOutputItem answers a call. Output is a string, or a part list
// when the result holds images or documents.
type functionOutputItem struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output any    `json:"output"`
}

// reasoningItem replays a reasoning item of an earlier reply. Summary is
// required by the API, even empty.
type reasoningItem struct {
	Type             string        `json:"type"`
	ID               string        `json:"id,omitempty"`
	Summary          []summaryPart `json:"summary"`
	EncryptedContent string        `json:"encrypted_content"`
}

type summaryPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// buildResponsesRequest converts a neutral request to the wire. Like the
// Chat Completions conversion, an error means the request cannot be
// expressed and nothing is sent.
func (p *Responses) buildRequest(req *providers.Request, codec *adapter.NameCodec, endpoint string) (*responsesRequest, error) {
	reasoner := reasoningModel(req.Model)
	out := &responsesRequest{
		Model:           req.Model,
		Stream:          true,
		MaxOutputTokens: req.MaxTokens,
		Temperature:     req.Temperature,
	}
	if reasoner {
		out.Include = []string{includeReasoning}
	}
	if e := req.ReasoningEffort; e != "" {
		out.Reasoning = &reasoningParam{Effort: string(e)}
		if e != providers.EffortNone {
			out.Reasoning.Summary = "auto"
		}
	}
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, functionTool{Type: "function", Name: codec.Wire(t.Name),
			Description: t.Description, Parameters: t.Schema()})
	}
	if ws := req.WebSearch; ws != nil {
		out.Tools = append(out.Tools, webSearchTool{Type: "web_search", SearchContextSize: ws.ContextSize})
	}
	system := "system"
	if reasoner {
		system = "developer" // what reasoning models call the system role
	}
	out.Input = make([]any, 0, len(req.Messages)+4)
	for i, m := range req.Messages {
		items, err := p.inputItems(m, codec, system, reasoner)
		if err != nil {
			return nil, &providers.Error{Provider: p.cfg.Name, URL: adapter.StripQuery(endpoint),
				Message: fmt.Sprintf("message %d: %v", i, err)}
		}
		out.Input = append(out.Input, items...)
	}
	return out, nil
}

// inputItems converts one neutral message to the input items it becomes:
// one message for system and user text, and for an assistant turn its
// reasoning items (for a model that reasons), its text and one item per
// call, in the order the API produced them.
func (p *Responses) inputItems(m providers.Message, codec *adapter.NameCodec, system string, reasoner bool) ([]any, error) {
	switch m.Role {
	case providers.RoleSystem:
		return []any{inputMessage{Type: "message", Role: system, Content: m.Text()}}, nil
	case providers.RoleUser:
		content, err := inputContent(m)
		return []any{inputMessage{Type: "message", Role: "user", Content: content}}, err
	case providers.RoleAssistant:
		return p.assistantItems(m, codec, reasoner), nil
	case providers.RoleTool:
		output, err := toolOutput(m)
		return []any{functionOutputItem{Type: "function_call_output", CallID: m.ToolCallID, Output: output}}, err
	}
	return nil, fmt.Errorf("unknown role %q", m.Role)
}

// assistantItems replays an assistant turn. Reasoning items go back only
// to the API that issued them, only to a model that reasons (the
// conversation may have switched models), only with their encrypted state
// (with store: false the server keeps nothing to look an id up in), and
// only ahead of the text or call they led to: the API rejects a reasoning
// item with nothing after it.
func (p *Responses) assistantItems(m providers.Message, codec *adapter.NameCodec, reasoner bool) []any {
	text := m.Text()
	items := make([]any, 0, len(m.Reasoning)+1+len(m.ToolCalls))
	if reasoner && (text != "" || len(m.ToolCalls) > 0) {
		for _, r := range m.Reasoning {
			if r.Provider != p.cfg.Name {
				continue
			}
			if st, ok := decodeReasoning(r.Signature); ok && st.Encrypted != "" {
				ri := reasoningItem{Type: "reasoning", ID: st.ID, Summary: []summaryPart{}, EncryptedContent: st.Encrypted}
				if r.Text != "" {
					ri.Summary = append(ri.Summary, summaryPart{Type: "summary_text", Text: r.Text})
				}
				items = append(items, ri)
			}
		}
	}
	if text != "" {
		items = append(items, inputMessage{Type: "message", Role: "assistant",
			Content: []inputPart{{Type: "output_text", Text: text}}})
	}
	for _, c := range m.ToolCalls {
		args := c.Arguments
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		items = append(items, functionCallItem{Type: "function_call", CallID: c.ID, Name: codec.Wire(c.Name), Arguments: args})
	}
	return items
}

// inputContent is a plain string for text-only user messages and a part
// list when media is present.
func inputContent(m providers.Message) (any, error) {
	if !m.HasMedia() {
		return m.Text(), nil
	}
	return inputParts(m.Content)
}

// toolOutput is a tool result: its text, or a part list when it holds
// images or documents, which function outputs of this API can carry.
func toolOutput(m providers.Message) (any, error) {
	if !m.HasMedia() {
		return m.Text(), nil
	}
	return inputParts(m.Content)
}

func inputParts(parts []providers.Part) ([]inputPart, error) {
	out := make([]inputPart, 0, len(parts))
	for _, part := range parts {
		switch part.Type {
		case providers.PartText:
			if part.Text != "" {
				out = append(out, inputPart{Type: "input_text", Text: part.Text})
			}
		case providers.PartImage:
			out = append(out, inputPart{Type: "input_image", ImageURL: dataURL(part)})
		case providers.PartDocument:
			mt := part.MIME()
			switch {
			case mt == "application/pdf":
				name := part.Name
				if name == "" {
					name = "document.pdf"
				}
				out = append(out, inputPart{Type: "input_file", Filename: name, FileData: dataURL(part)})
			case strings.HasPrefix(mt, "text/"):
				text, _ := part.DocumentText()
				out = append(out, inputPart{Type: "input_text", Text: text})
			default:
				return nil, fmt.Errorf("cannot send a %s document %q: the Responses API takes PDFs, text and images", mt, part.Name)
			}
		default:
			return nil, fmt.Errorf("unknown content part type %q", part.Type)
		}
	}
	return out, nil
}

// reasoningModel reports whether model reasons, as far as its name tells:
// only reasoning models accept the include of encrypted reasoning, and
// they call the system role "developer". The GPT-4 family, GPT-3.5 and
// the chat snapshots of later models do not reason; every other name is
// taken to, and a model that refuses the include is asked again without
// it (see downgrade).
func reasoningModel(model string) bool {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:] // a proxy's "openai/gpt-4o"
	}
	switch {
	case strings.HasPrefix(m, "gpt-4"), strings.HasPrefix(m, "gpt-3"), strings.HasPrefix(m, "chatgpt"),
		strings.Contains(m, "-chat"):
		return false
	}
	return true
}

// reasoningState is what a reasoning item needs to be replayed: its id
// and its encrypted content. It travels as the Signature of the neutral
// reasoning block, a small JSON object the other adapters never read
// (they keep only their own provider's reasoning).
type reasoningState struct {
	ID        string `json:"id,omitempty"`
	Encrypted string `json:"encrypted_content,omitempty"`
}

func encodeReasoning(id, encrypted string) string {
	b, _ := json.Marshal(reasoningState{ID: id, Encrypted: encrypted})
	return string(b)
}

func decodeReasoning(sig string) (reasoningState, bool) {
	var st reasoningState
	if !strings.HasPrefix(sig, "{") || json.Unmarshal([]byte(sig), &st) != nil {
		return reasoningState{}, false
	}
	return st, true
}
