package google

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const okStream = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"ok\"}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":3,\"candidatesTokenCount\":1}}\r\n\r\n"

// sendOne streams req against a server answering body (okStream when
// empty) and returns the decoded body sent, the request and the chunks.
func sendOne(t *testing.T, req *providers.Request, body string) (map[string]any, replay.Request, []providers.Chunk) {
	t.Helper()
	if body == "" {
		body = okStream
	}
	srv := replay.Sequence{replay.SSE(body)}.Serve(t)
	_, chunks, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), req)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	sent := srv.Requests()[0]
	return sent.JSON(t), sent, chunks
}

// at walks a decoded JSON value along keys and indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func TestRequestOptions(t *testing.T) {
	zero := 0.0
	weather := []providers.ToolSpec{{Name: "weather", Parameters: json.RawMessage(`{"type":"object"}`)}}
	tests := []struct {
		name    string
		req     providers.Request
		want    map[string]any // generationConfig fields
		absent  []string       // generationConfig fields
		tools   any
		warning string
	}{
		{name: "defaults on a thinking model ask for thought summaries",
			req:    providers.Request{Model: "gemini-2.5-flash"},
			want:   map[string]any{"thinkingConfig": map[string]any{"includeThoughts": true}},
			absent: []string{"temperature", "maxOutputTokens"}},
		{name: "defaults on a model that cannot think send no thinking config",
			req:    providers.Request{Model: "gemini-2.0-flash"},
			absent: []string{"thinkingConfig"}},
		{name: "temperature 0 and max tokens",
			req:  providers.Request{Model: "gemini-2.5-flash", Temperature: &zero, MaxTokens: 100, ReasoningEffort: providers.EffortNone},
			want: map[string]any{"temperature": 0.0, "maxOutputTokens": 100.0, "thinkingConfig": map[string]any{"thinkingBudget": 0.0}}},
		{name: "low", req: providers.Request{Model: "m", ReasoningEffort: providers.EffortLow},
			want: map[string]any{"thinkingConfig": map[string]any{"includeThoughts": true, "thinkingBudget": 1024.0}}},
		{name: "medium", req: providers.Request{Model: "m", ReasoningEffort: providers.EffortMedium},
			want: map[string]any{"thinkingConfig": map[string]any{"includeThoughts": true, "thinkingBudget": 8192.0}}},
		{name: "high", req: providers.Request{Model: "m", ReasoningEffort: providers.EffortHigh},
			want: map[string]any{"thinkingConfig": map[string]any{"includeThoughts": true, "thinkingBudget": 24576.0}}},
		{name: "high leaves room for the answer", req: providers.Request{Model: "m", ReasoningEffort: providers.EffortHigh, MaxTokens: 2000},
			want: map[string]any{"maxOutputTokens": 2000.0, "thinkingConfig": map[string]any{"includeThoughts": true, "thinkingBudget": 1000.0}}},
		{name: "web search without tools is Google Search grounding",
			req:   providers.Request{Model: "m", WebSearch: &providers.WebSearch{ContextSize: "high"}},
			tools: []any{map[string]any{"googleSearch": map[string]any{}}}},
		{name: "web search with function tools is ignored with a warning",
			req:   providers.Request{Model: "m", WebSearch: &providers.WebSearch{}, Tools: weather},
			tools: []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "weather", "parametersJsonSchema": map[string]any{"type": "object"}}}}}, warning: "web_search_ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Messages = []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}
			body, sent, chunks := sendOne(t, &tt.req, "")
			gc, _ := body["generationConfig"].(map[string]any)
			replay.CheckFields(t, "generationConfig.", gc, tt.want, tt.absent)
			if !reflect.DeepEqual(body["tools"], tt.tools) {
				t.Errorf("tools: got %#v, want %#v", body["tools"], tt.tools)
			}
			var warning string
			for _, c := range chunks {
				if c.Type == providers.ChunkWarning {
					warning = c.Warning.Code
				}
			}
			if warning != tt.warning {
				t.Errorf("warning: got %q, want %q", warning, tt.warning)
			}
			if len(sent.Query) != 1 || sent.Query.Get("alt") != "sse" {
				t.Errorf("query: got %v, want only alt=sse (the key goes in a header)", sent.Query)
			}
		})
	}
}

// TestSystemMessages: the leading system text (host prompt, loop
// contract) is systemInstruction; a transient note at the end is the
// system's user text, in the user turn it follows, so systemInstruction
// stays the same from call to call and turns alternate.
func TestSystemMessages(t *testing.T) {
	call := providers.ToolCall{ID: "c1", Name: "read_file", Arguments: `{}`}
	req := &providers.Request{Model: "m", Messages: []providers.Message{
		providers.TextMessage(providers.RoleSystem, "host prompt"),
		providers.TextMessage(providers.RoleUser, "hi"),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}},
		providers.ToolResultMessage(call, "contents", false),
		providers.TextMessage(providers.RoleSystem, "recovery note"),
	}}
	body, _, _ := sendOne(t, req, "")
	if got := at(body, "systemInstruction", "parts", 0, "text"); got != "host prompt" {
		t.Errorf("systemInstruction: got %#v, want the host prompt", got)
	}
	contents := at(body, "contents").([]any)
	if len(contents) != 3 {
		t.Fatalf("contents: got %d, want user, model, user", len(contents))
	}
	if got := at(body, "contents", 2, "parts", 1, "text"); got != providers.SystemNote("recovery note") || at(body, "contents", 2, "parts", 0, "functionResponse") == nil {
		t.Errorf("the last user turn: got %v, want the function response, then the note", contents[2])
	}
}

// TestToolSchema: tools go out as parametersJsonSchema, which takes
// standard JSON Schema: additionalProperties, enums, nested objects and
// arrays pass unchanged; only $schema is dropped, and a tool without
// parameters gets an empty object schema.
func TestToolSchema(t *testing.T) {
	const schema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false,
		"required":["path","mode"],"properties":{
		"path":{"type":"string","description":"file path"},
		"mode":{"type":"string","enum":["create","overwrite","append"]},
		"options":{"type":"object","additionalProperties":false,"properties":{"depth":{"type":"integer","minimum":0}}},
		"tags":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}`
	req := &providers.Request{Model: "m", Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")},
		Tools: []providers.ToolSpec{
			{Name: "write_file", Description: "Write a file", Parameters: json.RawMessage(schema)},
			{Name: "list", Description: "No parameters"},
		}}
	body, _, _ := sendOne(t, req, "")
	var want map[string]any
	_ = json.Unmarshal([]byte(schema), &want)
	delete(want, "$schema")
	decl := at(body, "tools", 0, "functionDeclarations", 0).(map[string]any)
	if !reflect.DeepEqual(decl["parametersJsonSchema"], want) || decl["parameters"] != nil || decl["description"] != "Write a file" {
		t.Errorf("declaration: got %#v, want the schema without $schema under parametersJsonSchema", decl)
	}
	empty := map[string]any{"type": "object", "properties": map[string]any{}}
	if got := at(body, "tools", 0, "functionDeclarations", 1, "parametersJsonSchema"); !reflect.DeepEqual(got, empty) {
		t.Errorf("tool without parameters: got %#v, want %#v", got, empty)
	}
}

// geminiName is the function-name rule Gemini documents.
var geminiName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]{0,63}$`)

// TestToolNames: names Gemini would reject (a leading digit, spaces and
// slashes, over 64 characters) are encoded so they are valid and distinct,
// valid names pass unchanged, and calls come back with the tool's name.
func TestToolNames(t *testing.T) {
	names := []string{"read_file", "1password_lookup", "_1password_lookup", "mcp server/tool", strings.Repeat("very_long_name_", 6), "9"}
	var tools []providers.ToolSpec
	for _, n := range names {
		tools = append(tools, providers.ToolSpec{Name: n})
	}
	codec := adapter.ToolNameCodec(&providers.Request{Tools: tools}, nameRule)
	seen := map[string]string{}
	for _, n := range names {
		w := codec.Wire(n)
		if !geminiName.MatchString(w) {
			t.Errorf("Wire(%q) = %q: not a valid Gemini function name", n, w)
		}
		if other, dup := seen[w]; dup {
			t.Errorf("Wire(%q) = Wire(%q) = %q, want distinct", n, other, w)
		}
		seen[w] = n
		if got := codec.Name(w); got != n {
			t.Errorf("Name(Wire(%q)) = %q, want the tool name back", n, got)
		}
	}
	if w := codec.Wire("read_file"); w != "read_file" {
		t.Errorf("Wire(read_file) = %q, want it unchanged", w)
	}
	// End to end: the declaration, the call in history and the streamed
	// call all use the wire name; the reply carries the tool's name.
	wire := codec.Wire("1password_lookup")
	stream := "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"" + wire + "\",\"args\":{}}}],\"role\":\"model\"},\"finishReason\":\"STOP\"}]}\r\n\r\n"
	call := providers.ToolCall{ID: "c1", Name: "1password_lookup", Arguments: `{}`}
	req := &providers.Request{Model: "m", Tools: tools, Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "hi"),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}},
		providers.ToolResultMessage(call, "secret", false),
	}}
	srv := replay.Sequence{replay.SSE(stream)}.Serve(t)
	reply, _, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.Message.ToolCalls) != 1 || reply.Message.ToolCalls[0].Name != "1password_lookup" {
		t.Errorf("reply calls: got %+v, want one call to 1password_lookup", reply.Message.ToolCalls)
	}
	body := srv.Requests()[0].JSON(t)
	for _, got := range []any{at(body, "tools", 0, "functionDeclarations", 1, "name"),
		at(body, "contents", 1, "parts", 0, "functionCall", "name"), at(body, "contents", 2, "parts", 0, "functionResponse", "name")} {
		if got != wire {
			t.Errorf("name sent: got %#v, want %q", got, wire)
		}
	}
}

// TestMultipart: images and PDFs become inline data, text documents text;
// a type Gemini cannot take fails before any request.
func TestMultipart(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	pdf := []byte("%PDF-1.4\n%âãÏÓ\n")
	req := &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Content: []providers.Part{
		providers.TextPart("describe"),
		{Type: providers.PartImage, MediaType: "image/png", Data: png},
		{Type: providers.PartDocument, Data: pdf, Name: "report.pdf"},
		{Type: providers.PartDocument, MediaType: "text/plain", Data: []byte("line"), Name: "notes.txt"},
	}}}}
	body, _, _ := sendOne(t, req, "")
	want := []any{
		map[string]any{"text": "describe"},
		map[string]any{"inlineData": map[string]any{"mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(png)}},
		map[string]any{"inlineData": map[string]any{"mimeType": "application/pdf", "data": base64.StdEncoding.EncodeToString(pdf)}},
		map[string]any{"text": "notes.txt:\nline"},
	}
	if got := at(body, "contents", 0, "parts"); !reflect.DeepEqual(got, want) {
		t.Errorf("parts: got %#v, want %#v", got, want)
	}

	srv := replay.Sequence{replay.SSE(okStream)}.Serve(t)
	gif := &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Content: []providers.Part{
		{Type: providers.PartImage, MediaType: "image/gif", Data: []byte("GIF89a"), Name: "anim.gif"}}}}}
	_, _, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), gif)
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Retryable || !strings.Contains(err.Error(), `image/gif image "anim.gif"`) || srv.Hits() != 0 {
		t.Errorf("gif: got %v after %d requests, want a non-retryable error naming the type before any request", err, srv.Hits())
	}
}

// TestBaseURL: the base URL is the host root; a path prefix (a proxy) and
// plain http are kept.
func TestBaseURL(t *testing.T) {
	srv := replay.Sequence{replay.SSE(okStream)}.Serve(t)
	p := New(Config{BaseURL: srv.URL + "/proxy/gemini/", APIKey: testKey})
	if _, _, err := replay.Run(t.Context(), p, simpleRequest()); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if got, want := srv.Requests()[0].Path, "/proxy/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent"; got != want {
		t.Errorf("path: got %q, want %q", got, want)
	}
}

// TestEndpoint: a bare model id is called in the models collection; a
// models/ or tunedModels/ name as given; the API version is configurable;
// the body goes as JSON and the key only in its header.
func TestEndpoint(t *testing.T) {
	tests := []struct{ model, version, path string }{
		{"gemini-2.5-flash", "", "/v1beta/models/gemini-2.5-flash:streamGenerateContent"},
		{"models/gemini-2.5-flash", "", "/v1beta/models/gemini-2.5-flash:streamGenerateContent"},
		{"tunedModels/my-model-7", "", "/v1beta/tunedModels/my-model-7:streamGenerateContent"},
		{"gemini-2.5-flash", "v1", "/v1/models/gemini-2.5-flash:streamGenerateContent"},
	}
	for _, tt := range tests {
		srv := replay.Sequence{replay.SSE(okStream)}.Serve(t)
		p := New(Config{BaseURL: srv.URL, APIKey: testKey, APIVersion: tt.version})
		req := simpleRequest()
		req.Model = tt.model
		if _, _, err := replay.Run(t.Context(), p, req); err != nil {
			t.Fatalf("%s: Stream: %v", tt.model, err)
		}
		sent := srv.OnlyRequest(t)
		if sent.Method != "POST" || sent.Path != tt.path || sent.Query.Encode() != "alt=sse" {
			t.Errorf("%s (version %q): got %s %s?%s, want POST %s?alt=sse", tt.model, tt.version, sent.Method, sent.Path, sent.Query.Encode(), tt.path)
		}
		if ct, key := sent.Header.Get("Content-Type"), sent.Header.Get("X-Goog-Api-Key"); ct != "application/json" || key != testKey {
			t.Errorf("%s: got Content-Type %q and key %q, want application/json and %q", tt.model, ct, key, testKey)
		}
	}
}
