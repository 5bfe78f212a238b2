package ollama

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const simpleStream = "ollama/langchaingo__ollama.internal.ollamaclient.TestClient_GenerateChatStream.json"

const simpleText = "Okay, here we go!\n\n1, 2, 3, 4, 5\n"

var policy = providers.RetryPolicy{MaxAttempts: 3, BaseDelay: 5 * time.Millisecond}

// retried runs one call through the retry policy against seq.
func retried(t *testing.T, seq replay.Sequence, timeouts providers.Timeouts) (providers.Reply, *replay.Server, error) {
	t.Helper()
	srv := seq.Serve(t)
	p := New(Config{BaseURL: srv.URL, Timeouts: timeouts})
	acc := providers.Accumulator{}
	err := policy.Stream(t.Context(), p, userRequest("Count from 1 to 5"), acc.Add, nil)
	return acc.Reply(), srv, err
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
	textLine := `{"model":"gemma3:1b","message":{"role":"assistant","content":"partial"},"done":false}` + "\n"
	tests := []struct {
		name     string
		seq      replay.Sequence
		timeouts providers.Timeouts
		hits     int
		wantErr  []string // substrings of the error; none means success
	}{
		{name: "persistent 500 fails after 3 attempts",
			seq:  replay.Sequence{replay.Status(500, `{"error":"llama runner process has terminated"}`)},
			hits: 3, wantErr: []string{"ollama: 500 from 127.0.0.1", "llama runner process has terminated"}},
		{name: "hang-up before any response is retried",
			seq: replay.Sequence{replay.Hangup(), rec}, hits: 2},
		{name: "cut right after the headers is retried",
			seq: replay.Sequence{replay.Cut(rec, 0), rec}, hits: 2},
		{name: "cut after output is not retried",
			seq: replay.Sequence{replay.Cut(rec, 3), rec}, hits: 1, wantErr: []string{"ollama: stream from http://127.0.0.1", "/api/chat broke off"}},
		{name: "cut in the middle of a line after output",
			seq: replay.Sequence{halfLine(), rec}, hits: 1, wantErr: []string{"broke off in the middle of a line"}},
		{name: "clean end without done",
			seq: replay.Sequence{ndjson(textLine)}, hits: 1, wantErr: []string{"stream ended before the reply was complete"}},
		{name: "malformed line is not retried",
			seq:  replay.Sequence{ndjson(textLine + `{"message":{"content":"x"` + "\n" + `{"done":true}` + "\n")},
			hits: 1, wantErr: []string{"invalid JSON from http://127.0.0.1", "/api/chat", `\"done\":true`}},
		{name: "HTML instead of JSON is not retried",
			seq: replay.Sequence{ndjson("<html>bad gateway</html>\n"), rec}, hits: 1, wantErr: []string{"invalid JSON", "<html>bad gateway"}},
		{name: "a line that is not an object",
			seq: replay.Sequence{ndjson(`"hello"` + "\n")}, hits: 1, wantErr: []string{"a line holds a JSON string, not an object"}},
		{name: "empty body is an error, never an empty reply",
			seq: replay.Sequence{ndjson("")}, hits: 3, wantErr: []string{"empty reply", "held no messages"}},
		{name: "runner crash before output is retried",
			seq:  replay.Sequence{ndjson(`{"error":"model runner has unexpectedly stopped"}` + "\n"), rec},
			hits: 2},
		{name: "server that never answers",
			seq: replay.Sequence{replay.Hang()}, timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			hits: 3, wantErr: []string{"no response from http://127.0.0.1", "within 200ms"}},
		{name: "stream that stalls after output",
			seq: replay.Sequence{replay.Stall(rec, 2)}, timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			hits: 1, wantErr: []string{"no data from http://127.0.0.1", "stalled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, srv, err := retried(t, tt.seq, tt.timeouts)
			if n := srv.Hits(); n != tt.hits {
				t.Errorf("attempts: got %d, want %d", n, tt.hits)
			}
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("error: got %v, want success", err)
				}
				if got := reply.Message.Text(); got != simpleText {
					t.Errorf("text: got %q, want %q", got, simpleText)
				}
				return
			}
			var pe *providers.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error: got %T %v, want *providers.Error", err, err)
			}
			t.Logf("error: %v (retryable %v)", err, pe.Retryable)
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q: want it to contain %q", err, want)
				}
			}
		})
	}
}

// TestRetryAfter: a 429 with Retry-After: 1 is retried after the server's
// wait, not the 5ms backoff.
func TestRetryAfter(t *testing.T) {
	start := time.Now()
	reply, srv, err := retried(t, replay.Sequence{replay.RateLimit("1"), replay.Load(t, simpleStream)}, providers.Timeouts{})
	waited := time.Since(start)
	if err != nil {
		t.Fatalf("error: got %v, want success after one retry", err)
	}
	if n := srv.Hits(); n != 2 || reply.Message.Text() != simpleText {
		t.Errorf("got %d attempts and text %q, want 2 and %q", n, reply.Message.Text(), simpleText)
	}
	if waited < 900*time.Millisecond {
		t.Errorf("waited %v before retrying, want at least the 1s Retry-After", waited)
	}
}

// TestNotRunning: a closed port means no Ollama server: the error says so,
// names the URL and how to start one, and stays retryable for restarts.
func TestNotRunning(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, base := range []string{"http://" + addr, addr} {
		_, _, err := run(t.Context(), New(Config{BaseURL: base}), userRequest("hi"))
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
	srv := replay.Sequence{replay.Stall(replay.Load(t, simpleStream), 2)}.Serve(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- New(Config{BaseURL: srv.URL}).Stream(ctx, userRequest("hi"), func(c providers.Chunk) {
			if c.Type == providers.ChunkText {
				cancel()
			}
		})
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error: got %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Stream did not return after cancellation")
	}
}

// TestCancelBeforeResponse: a deadline hit while waiting for headers (a
// model still loading) returns the context's error.
func TestCancelBeforeResponse(t *testing.T) {
	srv := replay.Sequence{replay.Hang()}.Serve(t)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, _, err := run(ctx, New(Config{BaseURL: srv.URL}), userRequest("hi"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error: got %v, want context.DeadlineExceeded", err)
	}
}
