package ollama

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const simpleStream = "ollama/langchaingo__ollama.internal.ollamaclient.TestClient_GenerateChatStream.json"

const simpleText = "Okay, here we go!\n\n1, 2, 3, 4, 5\n"

// target builds this adapter for the shared fault checks.
func target() replay.Target {
	return replay.Target{
		New: func(srv *replay.Server, timeouts providers.Timeouts) providers.Provider {
			return New(Config{BaseURL: srv.URL, Timeouts: timeouts})
		},
		Request: func() *providers.Request { return userRequest("Count from 1 to 5") },
		Text:    simpleText,
	}
}

// halfLine writes one whole line and half of the next, then drops the
// connection.
func halfLine() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		_, _ = w.Write([]byte(`{"message":{"role":"assistant","content":"Okay"},"done":false}` + "\n" + `{"message":{"role":"assis`))
		_ = http.NewResponseController(w).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	})
}

// TestFaults scripts failures through RetryPolicy.Stream: what is retried,
// what is not, and what the error says.
func TestFaults(t *testing.T) {
	rec := replay.Load(t, simpleStream)
	callLine := `{"model":"gemma3:1b","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"list_files","arguments":{"path":"."}}}]},"done":false}` + "\n"
	thinkLine := `{"model":"gemma3:1b","message":{"role":"assistant","content":"","thinking":"hmm"},"done":false}` + "\n"
	textLine := `{"model":"gemma3:1b","message":{"role":"assistant","content":"partial"},"done":false}` + "\n"
	target().RunFaults(t, []replay.FaultCase{
		{Name: "persistent 500 fails after 3 attempts",
			Seq:  replay.Sequence{replay.Status(500, `{"error":"llama runner process has terminated"}`)},
			Hits: 3, WantErr: []string{"ollama: 500 from 127.0.0.1", "llama runner process has terminated"}},
		{Name: "hang-up before any response is retried",
			Seq: replay.Sequence{replay.Hangup(), rec}, Hits: 2},
		{Name: "cut right after the headers is retried",
			Seq: replay.Sequence{replay.Cut(rec, 0), rec}, Hits: 2},
		{Name: "cut after the first line, a tool call, is restarted",
			Seq: replay.Sequence{replay.Break("application/x-ndjson", callLine), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after thinking is restarted",
			Seq: replay.Sequence{replay.Break("application/x-ndjson", thinkLine), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text is restarted",
			Seq: replay.Sequence{replay.Cut(rec, 3), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text the user saw is not restarted",
			Seq: replay.Sequence{replay.Cut(rec, 3), rec}, Shown: true, Hits: 1, WantErr: []string{"ollama: stream from http://127.0.0.1", "/api/chat broke off"}},
		{Name: "a server that always cuts after output fails after 3 attempts",
			Seq: replay.Sequence{replay.Cut(rec, 3)}, Hits: 3, Restarts: 2, WantErr: []string{"ollama: stream from http://127.0.0.1", "/api/chat broke off"}},
		{Name: "cut in the middle of a line after output is restarted",
			Seq: replay.Sequence{halfLine(), rec}, Hits: 2, Restarts: 1},
		{Name: "cut in the middle of a line after output the user saw",
			Seq: replay.Sequence{halfLine(), rec}, Shown: true, Hits: 1, WantErr: []string{"broke off in the middle of a line"}},
		{Name: "clean end without done",
			Seq: replay.Sequence{ndjson(textLine)}, Hits: 3, Restarts: 2, WantErr: []string{"stream ended before the reply was complete"}},
		{Name: "malformed line is not retried",
			Seq:  replay.Sequence{ndjson(textLine + `{"message":{"content":"x"` + "\n" + `{"done":true}` + "\n")},
			Hits: 1, WantErr: []string{"invalid JSON from http://127.0.0.1", "/api/chat", `\"done\":true`}},
		{Name: "HTML instead of JSON is not retried",
			Seq: replay.Sequence{ndjson("<html>bad gateway</html>\n"), rec}, Hits: 1, WantErr: []string{"invalid JSON", "<html>bad gateway"}},
		{Name: "a line that is not an object",
			Seq: replay.Sequence{ndjson(`"hello"` + "\n")}, Hits: 1, WantErr: []string{"a line holds a JSON string, not an object"}},
		{Name: "empty body is an error, never an empty reply",
			Seq: replay.Sequence{ndjson("")}, Hits: 3, WantErr: []string{"empty reply", "held no messages"}},
		{Name: "runner crash before output is retried",
			Seq:  replay.Sequence{ndjson(`{"error":"model runner has unexpectedly stopped"}` + "\n"), rec},
			Hits: 2},
		{Name: "server that never answers",
			Seq: replay.Sequence{replay.Hang()}, Timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			Hits: 3, WantErr: []string{"no response from http://127.0.0.1", "within 200ms"}},
		{Name: "stream that stalls after output is restarted",
			Seq: replay.Sequence{replay.Stall(rec, 2), rec}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 2, Restarts: 1},
		{Name: "stream that always stalls",
			Seq: replay.Sequence{replay.Stall(rec, 2)}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 3, Restarts: 2, WantErr: []string{"no data from http://127.0.0.1", "stalled"}},
	})
}

// TestRetryAfter: a 429 with Retry-After: 1 is retried after the server's
// wait, not the 5ms backoff.
func TestRetryAfter(t *testing.T) {
	target().CheckRetryAfter(t, replay.RateLimit("1"), replay.Load(t, simpleStream))
}

// TestNotRunning: a closed port means no Ollama server: the error says so,
// names the URL and how to start one, and stays retryable for restarts.
func TestNotRunning(t *testing.T) {
	addr := replay.ClosedAddr(t)
	for _, base := range []string{"http://" + addr, addr} {
		_, _, err := replay.Run(t.Context(), New(Config{BaseURL: base}), userRequest("hi"))
		want := "ollama: ollama is not running at http://" + addr + " (start it with `ollama serve`, or set OLLAMA_HOST)"
		var pe *providers.Error
		if !errors.As(err, &pe) || !pe.Retryable || err.Error() != want {
			t.Errorf("BaseURL %q: got %v, want retryable %q", base, err, want)
		}
	}
}

// TestCancelMidStream: cancelling while the server holds the stream open
// returns context.Canceled at once.
func TestCancelMidStream(t *testing.T) {
	target().CheckCancelMidStream(t, replay.Stall(replay.Load(t, simpleStream), 2))
}

// TestCancelBeforeResponse: a deadline hit while waiting for headers (a
// model still loading) returns the context's error.
func TestCancelBeforeResponse(t *testing.T) {
	target().CheckCancelBeforeResponse(t)
}
