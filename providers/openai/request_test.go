package openai

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const okStream = `data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: [DONE]

`

// sendOne streams req through a provider named name against a server
// answering okStream, and returns the decoded body sent and the chunks.
func sendOne(t *testing.T, cfg Config, req *providers.Request) (map[string]any, replay.Request, []providers.Chunk) {
	t.Helper()
	srv := replay.Sequence{replay.SSE(okStream)}.Serve(t)
	cfg.BaseURL = srv.URL + "/v1"
	_, chunks, err := replay.Run(t.Context(), New(cfg), req)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	sent := srv.Requests()[0]
	return sent.JSON(t), sent, chunks
}

func TestRequestOptions(t *testing.T) {
	zero := 0.0
	tests := []struct {
		name       string
		req        providers.Request
		want       map[string]any // fields that must be present with these values
		absent     []string
		warning    string
		authHeader string
	}{
		{name: "openai",
			req:    providers.Request{Model: "m", MaxTokens: 100, Temperature: &zero, ReasoningEffort: providers.EffortLow, WebSearch: &providers.WebSearch{ContextSize: "high"}},
			want:   map[string]any{"max_completion_tokens": 100.0, "temperature": 0.0, "reasoning_effort": "low", "web_search_options": map[string]any{"search_context_size": "high"}},
			absent: []string{"max_tokens"}, authHeader: "Bearer " + testKey},
		{name: "azure",
			req:  providers.Request{Model: "m", MaxTokens: 100, WebSearch: &providers.WebSearch{}},
			want: map[string]any{"max_completion_tokens": 100.0}, absent: []string{"max_tokens", "web_search_options", "reasoning_effort", "temperature"},
			warning: "web_search_ignored"},
		{name: "xai",
			req:  providers.Request{Model: "m", MaxTokens: 100, ReasoningEffort: providers.EffortHigh, WebSearch: &providers.WebSearch{}},
			want: map[string]any{"max_tokens": 100.0, "reasoning_effort": "high"}, absent: []string{"max_completion_tokens", "web_search_options"},
			warning: "web_search_ignored", authHeader: "Bearer " + testKey},
		{name: "openai-compatible",
			req:  providers.Request{Model: "m", MaxTokens: 7},
			want: map[string]any{"max_tokens": 7.0, "model": "m", "stream": true}, absent: []string{"max_completion_tokens", "reasoning_effort", "tools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Messages = []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}
			cfg := Config{Name: tt.name, APIKey: testKey}
			if tt.name == "openai-compatible" {
				cfg.APIKey = "" // keyless local server: no Authorization header
			}
			body, sent, chunks := sendOne(t, cfg, &tt.req)
			replay.CheckFields(t, "", body, tt.want, tt.absent)
			if got := sent.Header.Get("Authorization"); tt.name != "azure" && got != tt.authHeader {
				t.Errorf("Authorization: got %q, want %q", got, tt.authHeader)
			}
			var warned string
			for _, c := range chunks {
				if c.Type == providers.ChunkWarning {
					warned = c.Warning.Code
					if !strings.Contains(c.Warning.Message, tt.name) {
						t.Errorf("warning message %q: want it to name %s", c.Warning.Message, tt.name)
					}
				}
			}
			if warned != tt.warning {
				t.Errorf("warning: got %q, want %q", warned, tt.warning)
			}
		})
	}
}

func TestEndpoint(t *testing.T) {
	tests := []struct {
		cfg   Config
		model string
		want  string
	}{
		{Config{Name: "openai"}, "gpt-4o", "https://api.openai.com/v1/chat/completions"},
		{Config{Name: "xai"}, "grok-4", "https://api.x.ai/v1/chat/completions"},
		{Config{Name: "openai-compatible", BaseURL: "http://localhost:8080/v1/"}, "m", "http://localhost:8080/v1/chat/completions"},
		{Config{Name: "azure", BaseURL: "https://r.openai.azure.com"}, "gpt-4o",
			"https://r.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21"},
		{Config{Name: "azure", BaseURL: "https://r.openai.azure.com/openai/", APIVersion: "2024-12-01-preview"}, "my deploy",
			"https://r.openai.azure.com/openai/deployments/my%20deploy/chat/completions?api-version=2024-12-01-preview"},
		{Config{Name: "azure", BaseURL: "https://r.openai.azure.com/openai/v1"}, "gpt-5-mini",
			"https://r.openai.azure.com/openai/v1/chat/completions"},
		{Config{Name: "azure", BaseURL: "https://r.services.ai.azure.com/models"}, "grok",
			"https://r.services.ai.azure.com/models/chat/completions?api-version=2024-05-01-preview"},
	}
	for _, tt := range tests {
		if got := New(tt.cfg).endpoint(tt.model); got != tt.want {
			t.Errorf("endpoint(%+v, %q): got %q, want %q", tt.cfg, tt.model, got, tt.want)
		}
	}
}

func TestMessagesToWire(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n0000")
	pdf := []byte("%PDF-1.7 test")
	req := &providers.Request{Model: "m", Messages: []providers.Message{
		providers.TextMessage(providers.RoleSystem, "host prompt"),
		{Role: providers.RoleUser, Content: []providers.Part{
			providers.TextPart("look"),
			{Type: providers.PartImage, Data: png},
			{Type: providers.PartDocument, MediaType: "application/pdf", Data: pdf, Name: "a.pdf"},
			{Type: providers.PartDocument, MediaType: "text/plain", Data: []byte("notes"), Name: "n.txt"},
		}},
		{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("calling")},
			Reasoning: []providers.Reasoning{{Text: "secret thoughts", Signature: "sig"}},
			ToolCalls: []providers.ToolCall{{ID: "c1", Name: "shot", Arguments: ""}}},
		{Role: providers.RoleTool, ToolCallID: "c1", Content: []providers.Part{{Type: providers.PartImage, Data: png}}},
		providers.TextMessage(providers.RoleSystem, "recovery note"),
	}}
	body, sent, _ := sendOne(t, Config{Name: "openai"}, req)
	if strings.Contains(string(sent.Body), "secret thoughts") || strings.Contains(string(sent.Body), "reasoning") {
		t.Errorf("reasoning was sent back: %s", sent.Body)
	}
	var got []map[string]any
	raw, _ := json.Marshal(body["messages"])
	_ = json.Unmarshal(raw, &got)
	want := []map[string]any{
		{"role": "system", "content": "host prompt"},
		{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "look"},
			map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,iVBORw0KGgowMDAw"}},
			map[string]any{"type": "file", "file": map[string]any{"filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBERi0xLjcgdGVzdA=="}},
			map[string]any{"type": "text", "text": "n.txt:\nnotes"},
		}},
		{"role": "assistant", "content": "calling", "tool_calls": []any{map[string]any{
			"id": "c1", "type": "function", "function": map[string]any{"name": "shot", "arguments": "{}"}}}},
		{"role": "tool", "tool_call_id": "c1",
			"content": "\n[image omitted: the Chat Completions API takes no images in tool results]"},
		{"role": "system", "content": "recovery note"},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("messages:\n got %s\nwant %s", g, w)
	}
}

// TestUnsupportedDocument: a document the API cannot take is an error
// before any call.
func TestUnsupportedDocument(t *testing.T) {
	srv := replay.Sequence{replay.SSE(okStream)}.Serve(t)
	p := New(Config{Name: "openai", BaseURL: srv.URL})
	req := &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Content: []providers.Part{
		{Type: providers.PartDocument, MediaType: "application/zip", Data: []byte("PK"), Name: "x.zip"},
	}}}}
	_, _, err := replay.Run(t.Context(), p, req)
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Retryable || !strings.Contains(err.Error(), "application/zip") {
		t.Errorf("error: got %v, want a non-retryable *providers.Error naming application/zip", err)
	}
	if n := srv.Hits(); n != 0 {
		t.Errorf("requests: got %d, want 0", n)
	}
}

// TestToolNameCodec: names the API would reject are encoded on the way out
// and decoded in the streamed calls.
func TestToolNameCodec(t *testing.T) {
	const name = "github.search/issues"
	codec := adapter.NewNameCodec([]string{name}, adapter.FunctionNames)
	wire := codec.Wire(name)
	if wire == name {
		t.Fatalf("codec left %q unchanged", name)
	}
	stream := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"` + wire + `","arguments":""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}

data: [DONE]

`
	srv := replay.Sequence{replay.SSE(stream)}.Serve(t)
	p := New(Config{Name: "openai", BaseURL: srv.URL})
	req := &providers.Request{Model: "m",
		Messages: []providers.Message{
			providers.TextMessage(providers.RoleUser, "go"),
			{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{{ID: "c0", Name: name, Arguments: "{}"}}},
			providers.ToolResultMessage(providers.ToolCall{ID: "c0", Name: name}, "", false),
		},
		Tools: []providers.ToolSpec{{Name: name, Description: "d"}},
	}
	reply, _, err := replay.Run(t.Context(), p, req)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if len(reply.Message.ToolCalls) != 1 || reply.Message.ToolCalls[0].Name != name {
		t.Errorf("decoded calls: got %+v, want one call named %q", reply.Message.ToolCalls, name)
	}
	body := string(srv.Requests()[0].Body)
	if strings.Contains(body, name) || strings.Count(body, `"name":"`+wire+`"`) != 2 {
		t.Errorf("sent body: want tool and history call named %q, never %q: %s", wire, name, body)
	}
	if !strings.Contains(body, `"parameters":{"type":"object","properties":{}}`) {
		t.Errorf("sent body: want an empty object schema for a tool without parameters: %s", body)
	}
	if !strings.Contains(body, `{"role":"tool","content":"","tool_call_id":"c0"}`) {
		t.Errorf("sent body: want an empty tool result kept with its content: %s", body)
	}
}

func TestExtraHeaders(t *testing.T) {
	_, sent, _ := sendOne(t, Config{Name: "azure", APIKey: "k", Headers: map[string]string{"X-Trace": "1"}},
		&providers.Request{Model: "m", Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}})
	if sent.Header.Get("X-Trace") != "1" || sent.Header.Get("Api-Key") != "k" {
		t.Errorf("headers: got %v, want X-Trace: 1 and Api-Key: k", sent.Header)
	}
}

func TestMissingBaseURL(t *testing.T) {
	for name, want := range map[string]string{
		"azure":             "azure: AZURE_OPENAI_ENDPOINT is not set",
		"openai-compatible": "openai-compatible: OPENAI_COMPATIBLE_BASE_URL or LLMRT_BASE_URL is not set",
	} {
		_, _, err := replay.Run(t.Context(), New(Config{Name: name}), simpleRequest())
		var se *providers.SetupError
		if !errors.As(err, &se) || err.Error() != want {
			t.Errorf("%s without a base URL: got %v, want SetupError %q", name, err, want)
		}
	}
}
