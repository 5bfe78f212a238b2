package ollama

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// contentStream is an NDJSON body delivering pieces as content lines, then
// a done line.
func contentStream(pieces ...string) string {
	var b strings.Builder
	for _, p := range pieces {
		line, _ := json.Marshal(map[string]any{"model": "llama3.2", "message": map[string]string{"role": "assistant", "content": p}, "done": false})
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteString(`{"model":"llama3.2","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":10,"eval_count":20}` + "\n")
	return b.String()
}

// split cuts s into pieces of n bytes, as a model streams tokens.
func split(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// TestTextToolCalls: a reply that is a tool call written as JSON text (a
// {name, arguments} object, as small models emit a call they cannot make
// natively) becomes tool calls, however it was split into lines; anything
// else that was held back comes out as text, unchanged.
func TestTextToolCalls(t *testing.T) {
	const readFile = `{"name":"read_file","arguments":{"path":"a.txt"}}`
	tests := []struct {
		name   string
		pieces []string
		calls  []replay.Call // id is always empty: the accumulator assigns one
		text   string
	}{
		{"one char per line", split(readFile, 1), []replay.Call{{Name: "read_file", Args: `{"path":"a.txt"}`}}, ""},
		{"fenced", split("```json\n"+readFile+"\n```", 3), []replay.Call{{Name: "read_file", Args: `{"path":"a.txt"}`}}, ""},
		{"bare fence and spaces", split("\n  ```\n"+readFile+"```  \n", 5), []replay.Call{{Name: "read_file", Args: `{"path":"a.txt"}`}}, ""},
		{"parameters, pretty-printed", split("{\n  \"name\": \"read_file\",\n  \"parameters\": {\"path\": \"a.txt\"}\n}", 4),
			[]replay.Call{{Name: "read_file", Args: `{"path":"a.txt"}`}}, ""},
		{"arguments as a string", []string{`{"name":"read_file","arguments":"{\"path\":\"a.txt\"}"}`},
			[]replay.Call{{Name: "read_file", Args: `{"path":"a.txt"}`}}, ""},
		{"no arguments", []string{`{"name":"list_dir"}`}, []replay.Call{{Name: "list_dir", Args: `{}`}}, ""},
		{"a list of calls", split(`[`+readFile+`, {"name":"list_dir","arguments":{}}]`, 7),
			[]replay.Call{{Name: "read_file", Args: `{"path":"a.txt"}`}, {Name: "list_dir", Args: `{}`}}, ""},
		{"unknown tool stays text", split(`{"name":"delete_all","arguments":{}}`, 4), nil, `{"name":"delete_all","arguments":{}}`},
		{"JSON answer stays text", split(`{"answer": 42, "unit": "ft"}`, 2), nil, `{"answer": 42, "unit": "ft"}`},
		{"one unknown call in a list stays text", []string{`[` + readFile + `,{"name":"nope","arguments":{}}]`}, nil,
			`[` + readFile + `,{"name":"nope","arguments":{}}]`},
		{"arguments not an object stay text", []string{`{"name":"read_file","arguments":["a.txt"]}`}, nil, `{"name":"read_file","arguments":["a.txt"]}`},
		{"text after the fence stays text", []string{"```json\n" + readFile + "\n```\nDone."}, nil, "```json\n" + readFile + "\n```\nDone."},
		{"fenced code stays text", split("```go\nfmt.Println(1)\n```", 4), nil, "```go\nfmt.Println(1)\n```"},
		{"cut-off JSON stays text", split(`{"name":"read_file","argu`, 3), nil, `{"name":"read_file","argu`},
		{"inline code streams", []string{"`", "x` is a variable"}, nil, "`x` is a variable"},
		{"whitespace only", []string{" ", "\n"}, nil, " \n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Serve(t, ndjson(contentStream(tt.pieces...)))
			req := userRequest("go", "read_file", "list_dir")
			reply, chunks, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), req)
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			var got []replay.Call
			for _, c := range chunks {
				if c.Type == providers.ChunkToolCall {
					got = append(got, replay.Call{ID: c.ToolCall.ID, Name: c.ToolCall.Name, Args: c.ToolCall.Arguments})
				}
			}
			if !slices.Equal(got, tt.calls) {
				t.Errorf("pieces %q: calls got %q, want %q", tt.pieces, got, tt.calls)
			}
			if text := reply.Message.Text(); text != tt.text {
				t.Errorf("pieces %q: text got %q, want %q", tt.pieces, text, tt.text)
			}
			wantStop := providers.StopNatural
			if len(tt.calls) > 0 {
				wantStop = providers.StopToolCalls
				for _, c := range reply.Message.ToolCalls {
					if c.ID == "" {
						t.Errorf("call %s: got no id after accumulation, want one", c.Name)
					}
				}
			}
			if last := chunks[len(chunks)-1]; last.Type != providers.ChunkStop || last.Stop != wantStop {
				t.Errorf("last chunk: got %+v, want stop %q", last, wantStop)
			}
		})
	}
}

// TestTextToolCallsEncodedName: a model writes the wire name it was
// offered; the call comes back under the tool's own name.
func TestTextToolCallsEncodedName(t *testing.T) {
	const name = "github.search/issues"
	wire := adapter.NewNameCodec([]string{name}, adapter.FunctionNames).Wire(name)
	srv := replay.Serve(t, ndjson(contentStream(`{"name":"`+wire+`","arguments":{"q":"bug"}}`)))
	reply, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), userRequest("go", name))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if c := reply.Message.ToolCalls; len(c) != 1 || c[0].Name != name || c[0].Arguments != `{"q":"bug"}` {
		t.Errorf("calls: got %+v, want one %s call", c, name)
	}
}

// TestTextBesideNativeCall: text next to native tool calls is text, even
// when it looks like a call.
func TestTextBesideNativeCall(t *testing.T) {
	body := `{"message":{"role":"assistant","content":"{\"name\":\"read_file\","}}` + "\n" +
		`{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"list_dir","arguments":{}}}]}}` + "\n" +
		`{"message":{"role":"assistant","content":"\"arguments\":{}}"},"done":true,"done_reason":"stop"}` + "\n"
	srv := replay.Serve(t, ndjson(body))
	reply, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), userRequest("go", "read_file", "list_dir"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if c := reply.Message.ToolCalls; len(c) != 1 || c[0].Name != "list_dir" || reply.Message.Text() != `{"name":"read_file","arguments":{}}` {
		t.Errorf("got calls %+v and text %q, want the native list_dir call and the text unchanged", c, reply.Message.Text())
	}
}

// TestPlainTextStreams: with tools offered, a reply that cannot be a call
// is passed on line by line, before the stream ends. The server holds the
// rest of the reply back until the client has shown the first words.
func TestPlainTextStreams(t *testing.T) {
	shown := make(chan struct{})
	srv := replay.Sequence{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		body := contentStream("  I will", " read", " the file.")
		lines := strings.SplitAfter(body, "\n")
		_, _ = w.Write([]byte(lines[0] + lines[1]))
		_ = http.NewResponseController(w).Flush()
		select {
		case <-shown:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write([]byte(strings.Join(lines[2:], "")))
	})}.Serve(t)
	var once bool
	var texts []string
	err := New(Config{BaseURL: srv.URL, Timeouts: providers.Timeouts{Idle: 5 * time.Second}}).Stream(t.Context(),
		userRequest("go", "read_file"), func(c providers.Chunk) {
			if c.Type == providers.ChunkText {
				texts = append(texts, c.Text)
				if !once {
					once = true
					close(shown)
				}
			}
		})
	if err != nil {
		t.Fatalf("Stream: got %v, want the reply (text held back until the end deadlocks the server)", err)
	}
	// The first chunk came before the server sent the rest; lines that
	// arrived together may come joined.
	if len(texts) < 2 || (texts[0] != "  I will" && texts[0] != "  I will read") || strings.Join(texts, "") != "  I will read the file." {
		t.Errorf("text chunks: got %q, want the first line(s) first, then the rest", texts)
	}
}
