package openai

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const testKey = "test-key"

// providerFor returns a provider pointed at srv the way the recorded client
// was pointed at the real API: same path prefix, same Azure api-version.
func providerFor(name string, srv *replay.Server, rec *replay.Recording) *Provider {
	u, _ := url.Parse(rec.Request.URL)
	path := strings.TrimSuffix(u.Path, "/chat/completions")
	path = strings.TrimSuffix(path, "/responses")
	if i := strings.Index(path, "/openai/deployments/"); i >= 0 {
		path = path[:i]
	}
	return New(Config{Name: name, BaseURL: srv.URL + path, APIKey: testKey, APIVersion: u.Query().Get("api-version")})
}

// wireRequest is the part of a recorded Chat Completions body the tests
// read back into a neutral request.
type wireRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// neutralRequest reads a recorded Chat Completions request body back into
// the neutral request that would produce it.
func neutralRequest(t *testing.T, body string) *providers.Request {
	t.Helper()
	var w wireRequest
	if err := json.Unmarshal([]byte(body), &w); err != nil {
		t.Fatalf("recorded request body: %v", err)
	}
	req := &providers.Request{Model: w.Model}
	for _, m := range w.Messages {
		nm := providers.Message{Role: providers.Role(m.Role), ToolCallID: m.ToolCallID}
		if text := contentText(m.Content); text != "" {
			nm.Content = []providers.Part{providers.TextPart(text)}
		}
		for _, c := range m.ToolCalls {
			nm.ToolCalls = append(nm.ToolCalls, providers.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		req.Messages = append(req.Messages, nm)
	}
	for _, tool := range w.Tools {
		req.Tools = append(req.Tools, providers.ToolSpec{Name: tool.Function.Name,
			Description: tool.Function.Description, Parameters: tool.Function.Parameters})
	}
	return req
}

func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// shape renders the messages of a Chat Completions body one line each,
// with what the API pairs on: role, content, tool_call_id and each call's
// id, name and (compacted) arguments. Missing, null and "" content are the
// same.
func shape(t *testing.T, body []byte) []string {
	t.Helper()
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var lines []string
	for _, m := range w.Messages {
		line := m.Role + " | " + contentText(m.Content)
		if m.ToolCallID != "" {
			line += " | tool_call_id=" + m.ToolCallID
		}
		for _, c := range m.ToolCalls {
			line += " | call " + c.ID + " " + c.Function.Name + " " + replay.CompactJSON(c.Function.Arguments)
		}
		lines = append(lines, line)
	}
	return lines
}

func simpleRequest() *providers.Request {
	return &providers.Request{Model: "gpt-4o-mini", Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "Hello"),
	}}
}
