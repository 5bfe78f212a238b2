package anthropic

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

var update = flag.Bool("update", false, "rewrite testdata/golden_bodies.txt from what the adapter sends")

// goldenFile holds, per named request, the exact body the adapter sends
// and the headers that matter to the API. It was first written by the
// adapter built on anthropic-sdk-go, so the plain-HTTP adapter is held to
// the bytes the SDK sent.
const goldenFile = "testdata/golden_bodies.txt"

// goldenHeaders are the request headers compared with the golden file.
// The SDK's own telemetry headers (X-Stainless-*) and its User-Agent are
// not: they named the SDK, which is no longer what sends the request.
var goldenHeaders = []string{"Accept", "Anthropic-Beta", "Anthropic-Version", "Authorization", "Content-Type", "X-Api-Key"}

type golden struct {
	Body    string
	Headers map[string]string
}

// TestGoldenBodies sends a wide range of requests (every request the other
// tests build, odd text and arguments, and the neutral form of every
// recorded request) and compares body and headers byte for byte with the
// golden file.
func TestGoldenBodies(t *testing.T) {
	reqs := goldenRequests(t)
	got := make(map[string]golden, len(reqs))
	for name, r := range reqs {
		srv := replay.Serve(t, replay.Load(t, simpleStream))
		p := New(Config{BaseURL: srv.URL, APIKey: r.key, Headers: r.headers})
		if _, _, err := replay.Run(t.Context(), p, r.req); err != nil {
			t.Fatalf("%s: Stream: %v", name, err)
		}
		sent := srv.OnlyRequest(t)
		h := map[string]string{}
		for _, k := range goldenHeaders {
			if v := sent.Header.Values(k); len(v) > 0 {
				h[k] = strings.Join(v, ", ")
			}
		}
		got[name] = golden{Body: string(sent.Body), Headers: h}
	}
	if *update {
		if err := os.WriteFile(goldenFile, formatGolden(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("golden file: %v (run with -update to write it)", err)
	}
	want := parseGolden(t, data)
	if len(got) != len(want) {
		t.Errorf("requests: got %d, want the golden file's %d", len(got), len(want))
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: in the golden file but not sent", name)
		case g.Body != want[name].Body:
			t.Errorf("%s: body\n got %s\nwant %s", name, g.Body, want[name].Body)
		case !maps.Equal(g.Headers, want[name].Headers):
			t.Errorf("%s: headers: got %v, want %v", name, g.Headers, want[name].Headers)
		}
	}
}

// formatGolden writes one "== name" line per request, then an "H name:
// value" line per header and a "B body" line. Bodies are compact JSON,
// one line, kept byte for byte (invalid UTF-8 included, which a JSON
// file would not keep).
func formatGolden(g map[string]golden) []byte {
	var b bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(g)) {
		b.WriteString("== " + name + "\n")
		for _, k := range slices.Sorted(maps.Keys(g[name].Headers)) {
			b.WriteString("H " + k + ": " + g[name].Headers[k] + "\n")
		}
		b.WriteString("B " + g[name].Body + "\n")
	}
	return b.Bytes()
}

func parseGolden(t *testing.T, data []byte) map[string]golden {
	t.Helper()
	out := map[string]golden{}
	var name string
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		kind, rest, _ := bytes.Cut(line, []byte(" "))
		switch string(kind) {
		case "==":
			name = string(rest)
			out[name] = golden{Headers: map[string]string{}}
		case "H":
			k, v, _ := strings.Cut(string(rest), ": ")
			out[name].Headers[k] = v
		case "B":
			g := out[name]
			g.Body = string(rest)
			out[name] = g
		default:
			t.Fatalf("golden file: bad line %q", line)
		}
	}
	return out
}

// goldenRequest is one request of the golden table with its provider's
// key and extra headers.
type goldenRequest struct {
	req     *providers.Request
	key     string
	headers map[string]string
}

func goldenRequests(t *testing.T) map[string]goldenRequest {
	t.Helper()
	out := map[string]goldenRequest{}
	add := func(name string, req *providers.Request) { out[name] = goldenRequest{req: req, key: testKey} }

	add("simple", simpleRequest())
	out["no key, extra headers"] = goldenRequest{req: simpleRequest(),
		headers: map[string]string{"Anthropic-Beta": "x-1,y-2", "X-Custom": "v"}}
	out["anthropic-version overridden"] = goldenRequest{req: simpleRequest(), key: testKey,
		headers: map[string]string{"anthropic-version": "2099-01-01"}}
	add("empty model", &providers.Request{Messages: simpleRequest().Messages})

	// Text that JSON encoders escape differently: HTML characters, line
	// and paragraph separators, control characters, invalid UTF-8.
	add("odd text", &providers.Request{Model: "m", Messages: []providers.Message{
		providers.TextMessage(providers.RoleSystem, "<sys> & \"q\" \u2028\u2029 \t\x01\x7f"),
		providers.TextMessage(providers.RoleUser, "a<b>&c \u00e9 \U0001F600 \xff\xfe end\\ / \r\n"),
	}})

	call := providers.ToolCall{ID: "toolu_1", Name: "screenshot", Arguments: `{}`}
	add("multipart", &providers.Request{Model: "m", Messages: []providers.Message{
		{Role: providers.RoleUser, Content: []providers.Part{
			providers.TextPart("What is in these?"),
			{Type: providers.PartImage, Data: pngBytes},
			{Type: providers.PartImage, MediaType: "image/webp", Data: []byte("RIFF0000WEBP")},
			{Type: providers.PartDocument, MediaType: "application/pdf", Data: pdfBytes, Name: "report.pdf"},
			{Type: providers.PartDocument, MediaType: "application/pdf", Data: pdfBytes},
			{Type: providers.PartDocument, MediaType: "text/plain; charset=utf-8", Data: []byte("notes <b>"), Name: "notes.txt"},
			providers.TextPart(""),
		}},
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}},
		{Role: providers.RoleTool, ToolCallID: call.ID, IsError: true, Content: []providers.Part{
			providers.TextPart("here"), {Type: providers.PartImage, MediaType: "image/png", Data: pngBytes},
			{Type: providers.PartDocument, MediaType: "application/pdf", Data: pdfBytes, Name: "out.pdf"},
		}},
	}})
	add("empty tool result", &providers.Request{Model: "m", Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "go"),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}},
		{Role: providers.RoleTool, ToolCallID: call.ID},
	}})

	// Arguments as models send them: spaced, nested, big numbers, not an
	// object, not JSON.
	args := []string{`{ "a" : 1 ,"b":[1, 2.50, 1e400, 12345678901234567890], "c":{"<":"&"} }`, `[1,2]`, `null`, `not json`, ``, `{"x":"\u00e9\ud83d\ude00"}`, "{\"bad\":\"\xff\u2028\"}"}
	var calls []providers.ToolCall
	var results []providers.Message
	for i, a := range args {
		c := providers.ToolCall{ID: "toolu_" + string(rune('a'+i)), Name: "mcp.fs/list dir", Arguments: a}
		calls = append(calls, c)
		results = append(results, providers.ToolResultMessage(c, "r"+a, i%2 == 0))
	}
	add("tool arguments", &providers.Request{Model: "m", Messages: append([]providers.Message{
		providers.TextMessage(providers.RoleUser, "go"),
		{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("calling")}, ToolCalls: calls},
	}, results...), Tools: []providers.ToolSpec{{Name: "mcp.fs/list dir", Description: "List <dir>."}}})

	for i, msgs := range conversationCases() {
		add("conversation "+string(rune('a'+i)), &providers.Request{Model: "m", Messages: msgs,
			Tools: []providers.ToolSpec{{Name: "read_file"}, {Name: "mcp.fs/list dir"}}})
	}

	cache := []providers.Message{
		providers.TextMessage(providers.RoleSystem, "sys"),
		providers.TextMessage(providers.RoleUser, "first"),
		providers.TextMessage(providers.RoleAssistant, "reply"),
		providers.TextMessage(providers.RoleUser, "second"),
	}
	add("cache", &providers.Request{Model: "m", Messages: cache, Tools: []providers.ToolSpec{{Name: "a"}, {Name: "b"}}})
	add("cache, note after user", &providers.Request{Model: "m", Messages: append(slices.Clone(cache), providers.TextMessage(providers.RoleSystem, "recovery note"))})
	add("cache, note after assistant", &providers.Request{Model: "m", Messages: append(slices.Clone(cache[:3]),
		providers.TextMessage(providers.RoleAssistant, "narration"), providers.TextMessage(providers.RoleSystem, "recovery note"))})
	add("cache, ends on image", &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Content: []providers.Part{
		{Type: providers.PartImage, MediaType: "image/gif", Data: []byte("GIF89a")}}}}})
	add("cache, ends on document", &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Content: []providers.Part{
		{Type: providers.PartDocument, MediaType: "text/markdown", Data: []byte("# x")}}}}})

	add("cache, ends on titled document", &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Content: []providers.Part{
		{Type: providers.PartDocument, MediaType: "application/pdf", Data: pdfBytes, Name: "r.pdf"}}}}})
	add("cache, ends on tool use", &providers.Request{Model: "m", Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "go"),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}},
		providers.TextMessage(providers.RoleSystem, "recovery note"),
	}})

	schema := `{"type":"object", "properties":{"q":{"type":"string","enum":["a","b"],"description":"<q> & more"}},"required":["q"],"additionalProperties":false}`
	add("tool schemas", &providers.Request{Model: "m", Messages: simpleRequest().Messages, Tools: []providers.ToolSpec{
		{Name: "search", Description: "Search.", Parameters: json.RawMessage(schema)}, {Name: "now"},
		{Name: "spaced", Parameters: json.RawMessage("{\n  \"type\": \"object\",\n  \"properties\": {}\n}\n")},
	}})

	temp, zero := 0.3, 0.0
	for _, tt := range []struct {
		name, model string
		effort      providers.Effort
		maxTokens   int
		temp        *float64
	}{
		{"default", "", "", 0, &temp}, {"none", "", providers.EffortNone, 1000, nil}, {"zero temperature", "", "", 0, &zero},
		{"low", "", providers.EffortLow, 0, nil}, {"medium", "", providers.EffortMedium, 0, nil}, {"high", "", providers.EffortHigh, 0, nil},
		{"high, small max", "", providers.EffortHigh, 4096, nil}, {"low, large max", "", providers.EffortLow, 50000, nil},
		{"low with temperature", "", providers.EffortLow, 0, &temp}, {"unknown effort", "", "extreme", 0, nil},
		{"adaptive high", "claude-opus-4-6", providers.EffortHigh, 0, &temp}, {"adaptive low", "claude-sonnet-4-6", providers.EffortLow, 100, nil},
	} {
		req := simpleRequest()
		if tt.model != "" {
			req.Model = tt.model
		}
		req.ReasoningEffort, req.MaxTokens, req.Temperature = tt.effort, tt.maxTokens, tt.temp
		add("thinking "+tt.name, req)
	}

	foreign := providers.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{}`}
	for _, model := range []string{"m", "claude-sonnet-4-6"} {
		add("foreign tool turn "+model, &providers.Request{Model: model, ReasoningEffort: providers.EffortMedium, Messages: []providers.Message{
			providers.TextMessage(providers.RoleUser, "go"),
			{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{foreign}, Reasoning: []providers.Reasoning{{Text: "x", Signature: "s", Provider: "google"}}},
			providers.ToolResultMessage(foreign, "ok", false),
		}})
	}
	add("own thinking tool turn", &providers.Request{Model: "m", ReasoningEffort: providers.EffortLow, Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "go"),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{foreign}, Reasoning: []providers.Reasoning{{Redacted: "opaque", Provider: Name}}},
		providers.ToolResultMessage(foreign, "ok", false),
	}})

	for i, tt := range []struct {
		size  string
		tools []providers.ToolSpec
	}{{"low", nil}, {"", nil}, {"medium", []providers.ToolSpec{{Name: "read_file"}}}, {"high", nil}, {"high", []providers.ToolSpec{{Name: "web_search"}}}} {
		req := simpleRequest()
		req.WebSearch = &providers.WebSearch{ContextSize: tt.size}
		req.Tools = tt.tools
		add("web search "+string(rune('a'+i)), req)
	}

	// The neutral form of every recorded request.
	for _, file := range replay.Glob(t, "anthropic/*.json") {
		rec := replay.Load(t, file)
		if rec.Request.Body == "" {
			continue
		}
		add("recorded "+filepath.Base(file), neutralRequest(t, rec.Request.Body))
	}
	return out
}

// conversationCases are the conversations of TestConversation and a few
// more.
func conversationCases() [][]providers.Message {
	calls := []providers.ToolCall{{ID: "toolu_a", Name: "read_file", Arguments: `{"path":"a"}`}, {ID: "toolu_b", Name: "mcp.fs/list dir", Arguments: `not json`}}
	return [][]providers.Message{
		{
			providers.TextMessage(providers.RoleSystem, "host prompt"),
			providers.TextMessage(providers.RoleUser, "hi"),
			providers.TextMessage(providers.RoleSystem, "recovery note"),
		},
		{
			providers.TextMessage(providers.RoleUser, "hi"),
			providers.TextMessage(providers.RoleAssistant, "I will look."),
			providers.TextMessage(providers.RoleSystem, "recovery note"),
		},
		{
			providers.TextMessage(providers.RoleUser, "go"),
			{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("calling")}, ToolCalls: calls},
			providers.ToolResultMessage(calls[0], "contents", false),
			providers.ToolResultMessage(calls[1], "no such dir", true),
			providers.TextMessage(providers.RoleUser, "and then?"),
		},
		{
			providers.TextMessage(providers.RoleAssistant, "hello"),
			providers.TextMessage(providers.RoleUser, "one"),
			providers.TextMessage(providers.RoleUser, "two"),
			providers.TextMessage(providers.RoleAssistant, "   "),
			providers.TextMessage(providers.RoleAssistant, "three"),
		},
		{
			providers.TextMessage(providers.RoleUser, "go"),
			{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("ok")}, ToolCalls: calls[:1], Reasoning: []providers.Reasoning{
				{Text: "foreign", Signature: "sig-openai", Provider: "openai"},
				{Text: "mine", Signature: "sig-1", Provider: Name},
				{Redacted: "opaque", Provider: Name},
				{Text: "unsigned", Provider: Name},
			}},
			providers.ToolResultMessage(calls[0], "contents", false),
		},
		{providers.TextMessage(providers.RoleSystem, "only a system prompt")},
		{
			providers.TextMessage(providers.RoleSystem, "a"),
			providers.TextMessage(providers.RoleSystem, "b"),
			providers.TextMessage(providers.RoleUser, "hi"),
			{Role: providers.RoleUser, Content: []providers.Part{{Type: "", Text: "untyped part"}}},
		},
	}
}
