package cmd_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// streamText serves OpenAI chat completions that stream text n bytes per
// delta, as a model that writes a key a few characters at a time.
func streamText(t *testing.T, text string, n int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta map[string]any, finish any) {
			b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": "m",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
			w.(http.Flusher).Flush()
		}
		chunk(map[string]any{"role": "assistant", "content": ""}, nil)
		for s := text; s != ""; {
			k := min(n, len(s))
			chunk(map[string]any{"content": s[:k]}, nil)
			s = s[k:]
		}
		chunk(map[string]any{}, "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// eventLines decodes JSONL events: stream-json lines, or a trace's event
// lines.
func eventLines(t *testing.T, data string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %v: %s", err, sc.Text())
		}
		if ev, ok := m["event"].(map[string]any); ok {
			m = ev
		}
		out = append(out, m)
	}
	return out
}

// TestStreamedKeyIsRedactedWhole: the model writes the API key four
// characters per delta; the joined text_deltas of -o stream-json and of
// the trace hold it redacted, never whole, while the rest of the text is
// kept as it was.
func TestStreamedKeyIsRedactedWhole(t *testing.T) {
	t.Parallel()
	const key = "sk-e2e-SECRET-abcdefghijklmnop"
	text := "Your key is " + key + ", keep it safe."
	srv := streamText(t, text, 4)
	sb := newSandbox(t)
	trace := filepath.Join(sb.home, "trace.jsonl")
	o := sb.run(cli{args: []string{"run", "--provider", "openai", "--api", "chat", "--base-url", srv.URL + "/v1", "--model", "m", "--finish", "text",
		"-o", "stream-json", "--trace", trace, "-p", "show me"}, env: map[string]string{"OPENAI_API_KEY": key}})
	o.want(t, 0)
	tr, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(text, key, "[REDACTED]")
	for name, data := range map[string]string{"stream-json": o.stdout, "trace": string(tr)} {
		var b strings.Builder
		for _, ev := range eventLines(t, data) {
			if ev["type"] == "text_delta" {
				b.WriteString(ev["delta"].(string))
			}
		}
		if b.String() != want {
			t.Errorf("%s: joined text_delta\ngot  %q\nwant %q", name, b.String(), want)
		}
		if strings.Contains(data, key) {
			t.Errorf("%s holds the key", name)
		}
	}
}
