package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const testKey = "test-key"

// providerFor returns a provider pointed at srv.
func providerFor(srv *replay.Server) *Provider {
	return New(Config{BaseURL: srv.URL, APIKey: testKey})
}

// wireBlock is a content block of a Messages request body, every kind in
// one struct.
type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"` // string or blocks
	Source    struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
	CacheControl *struct {
		Type string `json:"type"`
	} `json:"cache_control"`
}

// wireRequest is the part of a Messages request body the tests read.
type wireRequest struct {
	Model       string          `json:"model"`
	MaxTokens   int             `json:"max_tokens"`
	System      json.RawMessage `json:"system"` // string or blocks
	Temperature *float64        `json:"temperature"`
	Thinking    *struct {
		Type         string `json:"type"`
		BudgetTokens int    `json:"budget_tokens"`
	} `json:"thinking"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"` // string or blocks
	} `json:"messages"`
	Tools []struct {
		Type         string          `json:"type"`
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"input_schema"`
		MaxUses      int             `json:"max_uses"`
		CacheControl *struct {
			Type string `json:"type"`
		} `json:"cache_control"`
	} `json:"tools"`
}

func decodeWire(t *testing.T, body []byte) wireRequest {
	t.Helper()
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	return w
}

// blocks reads content that is a string or a list of blocks.
func blocks(raw json.RawMessage) []wireBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []wireBlock{{Type: "text", Text: s}}
	}
	var bs []wireBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

func blocksText(raw json.RawMessage) string {
	var b strings.Builder
	for _, x := range blocks(raw) {
		b.WriteString(x.Text)
	}
	return b.String()
}

// neutralRequest reads a recorded Messages request body back into the
// neutral request that would produce it: system text, user text and media,
// tool results as tool messages, assistant thinking (stamped as this
// provider's), text and tool calls.
func neutralRequest(t *testing.T, body string) *providers.Request {
	t.Helper()
	w := decodeWire(t, []byte(body))
	req := &providers.Request{Model: w.Model}
	if sys := blocksText(w.System); sys != "" {
		req.Messages = append(req.Messages, providers.TextMessage(providers.RoleSystem, sys))
	}
	if th := w.Thinking; th != nil && th.Type == "enabled" {
		req.ReasoningEffort = providers.EffortHigh
		switch {
		case th.BudgetTokens <= 2048:
			req.ReasoningEffort = providers.EffortLow
		case th.BudgetTokens <= 8192:
			req.ReasoningEffort = providers.EffortMedium
		}
	}
	for _, m := range w.Messages {
		nm := providers.Message{Role: providers.Role(m.Role)}
		for _, b := range blocks(m.Content) {
			switch b.Type {
			case "text":
				nm.Content = append(nm.Content, providers.TextPart(b.Text))
			case "image", "document":
				data, _ := base64.StdEncoding.DecodeString(b.Source.Data)
				nm.Content = append(nm.Content, providers.Part{Type: providers.PartType(b.Type), MediaType: b.Source.MediaType, Data: data})
			case "thinking":
				nm.Reasoning = append(nm.Reasoning, providers.Reasoning{Text: b.Thinking, Signature: b.Signature, Provider: Name})
			case "redacted_thinking":
				nm.Reasoning = append(nm.Reasoning, providers.Reasoning{Redacted: b.Data, Provider: Name})
			case "tool_use":
				nm.ToolCalls = append(nm.ToolCalls, providers.ToolCall{ID: b.ID, Name: b.Name, Arguments: string(b.Input)})
			case "tool_result":
				req.Messages = append(req.Messages, providers.Message{Role: providers.RoleTool, ToolCallID: b.ToolUseID,
					IsError: b.IsError, Content: []providers.Part{providers.TextPart(blocksText(b.Content))}})
			}
		}
		if len(nm.Content) > 0 || len(nm.Reasoning) > 0 || len(nm.ToolCalls) > 0 {
			req.Messages = append(req.Messages, nm)
		}
	}
	for _, tool := range w.Tools {
		if tool.InputSchema != nil {
			req.Tools = append(req.Tools, providers.ToolSpec{Name: tool.Name, Description: tool.Description, Parameters: tool.InputSchema})
		}
	}
	return req
}

// shape renders the system text and the messages of a Messages body one
// line each, with what the API checks and pairs on: roles, block types,
// text, thinking and signatures, tool ids, names, compacted arguments and
// results. Incidental fields (cache_control, a string content versus one
// text block) do not show.
func shape(t *testing.T, body []byte) []string {
	t.Helper()
	w := decodeWire(t, body)
	lines := []string{"system | " + blocksText(w.System)}
	for _, m := range w.Messages {
		var parts []string
		for _, b := range blocks(m.Content) {
			switch b.Type {
			case "text":
				// The adapter drops whitespace-only text, which carries
				// nothing.
				if strings.TrimSpace(b.Text) != "" {
					parts = append(parts, "text "+b.Text)
				}
			case "thinking":
				parts = append(parts, "thinking sig="+b.Signature+" "+b.Thinking)
			case "redacted_thinking":
				parts = append(parts, "redacted_thinking "+b.Data)
			case "tool_use":
				parts = append(parts, "tool_use "+b.ID+" "+b.Name+" "+replay.CompactJSON(string(b.Input)))
			case "tool_result":
				r := "tool_result " + b.ToolUseID
				if b.IsError {
					r += " error"
				}
				parts = append(parts, r+" "+blocksText(b.Content))
			default:
				parts = append(parts, b.Type+" "+b.Source.MediaType)
			}
		}
		lines = append(lines, m.Role+" | "+strings.Join(parts, " ; "))
	}
	return lines
}

func simpleRequest() *providers.Request {
	return &providers.Request{Model: "claude-sonnet-4-20250514", Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "Hello"),
	}}
}
