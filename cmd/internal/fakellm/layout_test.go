package fakellm

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers/scripted"
)

// TestLayoutsAreTheAPIsEvents: each text delta written by hand is valid
// JSON carrying the text it was given, escapes included, where the API
// carries it.
func TestLayoutsAreTheAPIsEvents(t *testing.T) {
	const text = "a <T> \"quoted\"\n & é"
	cases := []struct {
		name, data string
		path       []any // keys and indices leading to the text
	}{
		{"chat", chatText(text), []any{"choices", 0, "delta", "content"}},
		{"responses", responsesText(text, "msg_1", 2, 7), []any{"delta"}},
		{"responses summary", responsesSummary(text, "rs_1", 0, 3), []any{"delta"}},
		{"anthropic text", anthropicDelta(1, "text_delta", "text", text), []any{"delta", "text"}},
		{"anthropic thinking", anthropicDelta(0, "thinking_delta", "thinking", text), []any{"delta", "thinking"}},
		{"gemini", geminiText(text, false, 3, 4), []any{"candidates", 0, "content", "parts", 0, "text"}},
		{"gemini thought", geminiText(text, true, 3, 4), []any{"candidates", 0, "content", "parts", 0, "text"}},
		{"ollama", ollamaLine(text, ""), []any{"message", "content"}},
		{"ollama thinking", ollamaLine("", text), []any{"message", "thinking"}},
	}
	for _, c := range cases {
		var v any
		if err := json.Unmarshal([]byte(c.data), &v); err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, c.data)
			continue
		}
		for _, k := range c.path {
			switch k := k.(type) {
			case string:
				v = v.(map[string]any)[k]
			case int:
				v = v.([]any)[k]
			}
		}
		if !reflect.DeepEqual(v, text) {
			t.Errorf("%s: the text reads %q, want %q", c.name, v, text)
		}
	}
}

// TestGeminiLinesEndInCRLF: Gemini ends the lines of its event stream with
// \r\n (as its recordings show), the others with \n; the fake server does
// the same, so what reads its streams reads theirs.
func TestGeminiLinesEndInCRLF(t *testing.T) {
	for _, c := range []struct {
		protocol, path string
		crlf           bool
	}{
		{Gemini, "/v1beta/models/m:streamGenerateContent?alt=sse", true},
		{Anthropic, "/v1/messages", false},
	} {
		srv := Start(c.protocol, scripted.Turn{Text: "one two three"})
		body := `{"contents":[{"role":"user","parts":[{"text":"x"}]}]}`
		if c.protocol == Anthropic {
			body = `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"x"}]}`
		}
		resp, err := http.Post(srv.URL+c.path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "data: ") {
			t.Fatalf("%s: %s\n%s", c.protocol, resp.Status, b)
		}
		lf, crlf := strings.Count(string(b), "\n"), strings.Count(string(b), "\r\n")
		if c.crlf && lf != crlf || !c.crlf && crlf != 0 {
			t.Errorf("%s: %d of %d line ends are \\r\\n, want %v:\n%q", c.protocol, crlf, lf, map[bool]string{true: "all", false: "none"}[c.crlf], b)
		}
	}
}
