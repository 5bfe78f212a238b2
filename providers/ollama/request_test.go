package ollama

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

const okStream = `{"message":{"role":"assistant","content":"ok"},"done":false}
{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":3,"eval_count":1}
`

// sendOne streams req against a server answering okStream and returns the
// decoded body sent, the raw request and the chunks.
func sendOne(t *testing.T, cfg Config, req *providers.Request) (map[string]any, replay.Request, []providers.Chunk) {
	t.Helper()
	srv := replay.Serve(t, ndjson(okStream))
	cfg.BaseURL = srv.URL
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
		name    string
		req     providers.Request
		want    map[string]any // fields that must be present with these values
		absent  []string
		warning bool
	}{
		{name: "defaults", req: providers.Request{Model: "qwen3"},
			want: map[string]any{"model": "qwen3", "stream": true}, absent: []string{"think", "options", "tools"}},
		{name: "temperature 0 and max tokens",
			req:  providers.Request{Model: "qwen3", Temperature: &zero, MaxTokens: 256},
			want: map[string]any{"options": map[string]any{"temperature": 0.0, "num_predict": 256.0}}},
		{name: "effort none turns thinking off", req: providers.Request{Model: "qwen3", ReasoningEffort: providers.EffortNone},
			want: map[string]any{"think": false}},
		{name: "effort low turns thinking on", req: providers.Request{Model: "qwen3", ReasoningEffort: providers.EffortLow},
			want: map[string]any{"think": true}},
		{name: "gpt-oss takes the level", req: providers.Request{Model: "gpt-oss:120b-cloud", ReasoningEffort: providers.EffortHigh},
			want: map[string]any{"think": "high"}},
		{name: "web search is ignored with a warning", req: providers.Request{Model: "qwen3", WebSearch: &providers.WebSearch{}},
			absent: []string{"web_search_options"}, warning: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Messages = []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}
			body, sent, chunks := sendOne(t, Config{}, &tt.req)
			replay.CheckFields(t, "", body, tt.want, tt.absent)
			if got := sent.Header.Get("Authorization"); got != "" {
				t.Errorf("Authorization: got %q, want none without an API key", got)
			}
			warned := false
			for _, c := range chunks {
				if c.Type == providers.ChunkWarning {
					warned = c.Warning.Code == "web_search_ignored" && strings.Contains(c.Warning.Message, "ollama has no native web search")
				}
			}
			if warned != tt.warning {
				t.Errorf("web_search_ignored warning: got %v, want %v", warned, tt.warning)
			}
		})
	}
}

// TestMessagesToWire: the leading system text in front, a recovery note
// at the end as the system's user text, images as base64, text
// documents inlined, calls with object arguments, Ollama's own thinking
// sent back (and nobody else's), tool results with tool_name.
func TestMessagesToWire(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n0000")
	req := &providers.Request{Model: "qwen3", Messages: []providers.Message{
		providers.TextMessage(providers.RoleSystem, "host prompt"),
		{Role: providers.RoleUser, Content: []providers.Part{
			providers.TextPart("look at this"),
			{Type: providers.PartImage, MediaType: "image/png", Data: png},
			{Type: providers.PartDocument, MediaType: "text/plain", Data: []byte("notes"), Name: "n.txt"},
		}},
		{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("calling")},
			Reasoning: []providers.Reasoning{{Text: "my thoughts", Provider: Name}, {Text: "foreign", Signature: "sig", Provider: "anthropic"}},
			ToolCalls: []providers.ToolCall{
				{ID: "c1", Name: "read_file", Arguments: `{"path":"a.txt"}`},
				{ID: "c2", Name: "list_dir", Arguments: ""},
				{ID: "c3", Name: "read_file", Arguments: `{"path":`},
			}},
		providers.ToolResultMessage(providers.ToolCall{ID: "c1", Name: "read_file"}, "hello", false),
		providers.ToolResultMessage(providers.ToolCall{ID: "c2", Name: "list_dir"}, "a.txt", false),
		providers.ToolResultMessage(providers.ToolCall{ID: "c3", Name: "read_file"}, "invalid JSON arguments", true),
		providers.TextMessage(providers.RoleSystem, "recovery note"),
	}}
	body, _, _ := sendOne(t, Config{}, req)
	var got []map[string]any
	raw, _ := json.Marshal(body["messages"])
	_ = json.Unmarshal(raw, &got)
	want := []map[string]any{
		{"role": "system", "content": "host prompt"},
		{"role": "user", "content": "look at this\n\nn.txt:\nnotes", "images": []any{"iVBORw0KGgowMDAw"}},
		{"role": "assistant", "content": "calling", "thinking": "my thoughts", "tool_calls": []any{
			map[string]any{"id": "c1", "function": map[string]any{"name": "read_file", "arguments": map[string]any{"path": "a.txt"}}},
			map[string]any{"id": "c2", "function": map[string]any{"name": "list_dir", "arguments": map[string]any{}}},
			map[string]any{"id": "c3", "function": map[string]any{"name": "read_file", "arguments": map[string]any{"_invalid_json": `{"path":`}}},
		}},
		{"role": "tool", "content": "hello", "tool_name": "read_file", "tool_call_id": "c1"},
		{"role": "tool", "content": "a.txt", "tool_name": "list_dir", "tool_call_id": "c2"},
		{"role": "tool", "content": "invalid JSON arguments", "tool_name": "read_file", "tool_call_id": "c3"},
		{"role": "user", "content": "<system-reminder>\nrecovery note\n</system-reminder>"},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("messages:\n got %s\nwant %s", g, w)
	}
}

// TestUnsupportedParts: Ollama takes images only, so a PDF (or any
// non-text document) is an error before any request.
func TestUnsupportedParts(t *testing.T) {
	for _, part := range []providers.Part{
		{Type: providers.PartDocument, MediaType: "application/pdf", Data: []byte("%PDF-1.7"), Name: "a.pdf"},
		{Type: providers.PartDocument, Data: []byte("%PDF-1.4 sniffed"), Name: "b"},
		{Type: providers.PartDocument, MediaType: "application/zip", Data: []byte("PK"), Name: "x.zip"},
	} {
		srv := replay.Serve(t, ndjson(okStream))
		req := &providers.Request{Model: "llava", Messages: []providers.Message{{Role: providers.RoleUser, Content: []providers.Part{part}}}}
		_, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), req)
		var pe *providers.Error
		if !errors.As(err, &pe) || pe.Retryable || !strings.Contains(err.Error(), "ollama takes images only") || !strings.Contains(err.Error(), part.Name) {
			t.Errorf("%s: got %v, want a non-retryable error saying ollama takes images only", part.Name, err)
		}
		if n := srv.Hits(); n != 0 {
			t.Errorf("%s: requests got %d, want 0", part.Name, n)
		}
	}
}

// TestToolNameCodec: names a model's call format would break are encoded
// in tools, history and results, and decoded in the streamed calls.
func TestToolNameCodec(t *testing.T) {
	const name = "github.search/issues"
	wire := adapter.NewNameCodec([]string{name}, adapter.FunctionNames).Wire(name)
	if wire == name {
		t.Fatalf("codec left %q unchanged", name)
	}
	stream := `{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"` + wire + `","arguments":{"q":"x"}}}]},"done":false}
{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}
`
	srv := replay.Serve(t, ndjson(stream))
	call := providers.ToolCall{ID: "c0", Name: name, Arguments: "{}"}
	req := &providers.Request{Model: "qwen3",
		Messages: []providers.Message{
			providers.TextMessage(providers.RoleUser, "go"),
			{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}},
			providers.ToolResultMessage(call, "", false),
		},
		Tools: []providers.ToolSpec{{Name: name, Description: "d"}},
	}
	reply, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), req)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if c := reply.Message.ToolCalls; len(c) != 1 || c[0].Name != name || c[0].Arguments != `{"q":"x"}` || reply.Stop != providers.StopToolCalls {
		t.Errorf("decoded calls: got %+v stop %q, want one %q call, stop tool_calls", c, reply.Stop, name)
	}
	body := string(srv.Requests()[0].Body)
	if strings.Contains(body, name) || strings.Count(body, `"`+wire+`"`) != 3 {
		t.Errorf("sent body: want tool, history call and result named %q, never %q: %s", wire, name, body)
	}
	if !strings.Contains(body, `"parameters":{"type":"object","properties":{}}`) {
		t.Errorf("sent body: want an empty object schema for a tool without parameters: %s", body)
	}
}

func TestHeaders(t *testing.T) {
	_, sent, _ := sendOne(t, Config{APIKey: "k", Headers: map[string]string{"X-Trace": "1"}},
		&providers.Request{Model: "gpt-oss:120b", Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}})
	if sent.Header.Get("Authorization") != "Bearer k" || sent.Header.Get("X-Trace") != "1" ||
		sent.Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers: got %v, want Bearer k, X-Trace: 1 and a JSON content type", sent.Header)
	}
}

// TestBaseURL: OLLAMA_HOST's forms all name a server root.
func TestBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                             "http://localhost:11434",
		"http://localhost:11434":       "http://localhost:11434",
		"http://localhost:11434/":      "http://localhost:11434",
		"localhost:11434":              "http://localhost:11434",
		"127.0.0.1:8080":               "http://127.0.0.1:8080",
		":11434":                       "http://localhost:11434",
		"0.0.0.0":                      "http://localhost:11434",
		"0.0.0.0:9000":                 "http://localhost:9000",
		"gpu-box":                      "http://gpu-box:11434",
		"[::1]:11434":                  "http://[::1]:11434",
		"https://ollama.example.com":   "https://ollama.example.com",
		"http://proxy.lan/ollama/":     "http://proxy.lan/ollama",
		"ollama.com":                   "https://ollama.com",
		"http://localhost:11434/v1":    "http://localhost:11434",
		"http://localhost:11434/api/":  "http://localhost:11434",
		` "http://10.0.0.2:11434" `:    "http://10.0.0.2:11434",
		"https://ollama.com:443/api":   "https://ollama.com:443",
		"http://host.docker.internal/": "http://host.docker.internal",
	} {
		if got := New(Config{BaseURL: in}).BaseURL(); got != want {
			t.Errorf("BaseURL(%q): got %q, want %q", in, got, want)
		}
	}
	if got := New(Config{}).Name(); got != "ollama" {
		t.Errorf("Name: got %q, want ollama", got)
	}
}
