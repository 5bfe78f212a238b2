package openai

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const simpleStream = "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.simple_streaming.json"

var policy = providers.RetryPolicy{MaxAttempts: 3, BaseDelay: 5 * time.Millisecond}

// retried runs one call through the retry policy against seq.
func retried(t *testing.T, seq replay.Sequence, timeouts providers.Timeouts) (providers.Reply, *replay.Server, error) {
	t.Helper()
	srv := seq.Serve(t)
	p := New(Config{Name: "openai", BaseURL: srv.URL + "/v1", APIKey: testKey, Timeouts: timeouts})
	acc := providers.Accumulator{}
	err := policy.Stream(t.Context(), p, simpleRequest(), acc.Add, nil)
	return acc.Reply(), srv, err
}

// TestFaults scripts failures through RetryPolicy.Stream: what is retried,
// what is not, and what the error says.
func TestFaults(t *testing.T) {
	rec := replay.Load(t, simpleStream)
	textEvent := `data: {"choices":[{"index":0,"delta":{"content":"partial"},"finish_reason":null}]}` + "\n\n"
	tests := []struct {
		name     string
		seq      replay.Sequence
		timeouts providers.Timeouts
		hits     int
		wantErr  []string // substrings of the error; none means success
		text     string   // reply text on success
	}{
		{name: "persistent 500 fails after 3 attempts",
			seq:  replay.Sequence{replay.Status(500, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`)},
			hits: 3, wantErr: []string{"openai: 500 from 127.0.0.1", "The server had an error while processing your request."}},
		{name: "hang-up before any response is retried",
			seq: replay.Sequence{replay.Hangup(), rec}, hits: 2, text: "Olá!"},
		{name: "cut right after the headers is retried",
			seq: replay.Sequence{replay.Cut(rec, 0), rec}, hits: 2, text: "Olá!"},
		{name: "cut after a content-free event is retried",
			seq: replay.Sequence{replay.Cut(rec, 1), rec}, hits: 2, text: "Olá!"},
		{name: "cut after output is not retried",
			seq: replay.Sequence{replay.Cut(rec, 2), rec}, hits: 1, wantErr: []string{"openai: stream from http://127.0.0.1", "broke off"}},
		{name: "cut after finish_reason keeps the complete reply",
			seq: replay.Sequence{replay.Cut(rec, 4)}, hits: 1, text: "Olá!"},
		{name: "clean end without finish_reason or [DONE]",
			seq: replay.Sequence{replay.SSE(textEvent)}, hits: 1, wantErr: []string{"stream ended before the reply was complete"}},
		{name: "malformed chunk is not retried",
			seq:  replay.Sequence{replay.SSE(textEvent + "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}\n\n")},
			hits: 1, wantErr: []string{"invalid JSON from http://127.0.0.1", "/v1/chat/completions", `{\"choices\":[{\"delta\"`}},
		{name: "malformed first chunk is not retried",
			seq: replay.Sequence{replay.SSE("data: <html>bad gateway</html>\n\n"), rec}, hits: 1, wantErr: []string{"invalid JSON", "<html>bad gateway"}},
		{name: "empty body is an error, never an empty reply",
			seq: replay.Sequence{replay.SSE("")}, hits: 3, wantErr: []string{"empty reply", "held no choices"}},
		{name: "only [DONE] is an error",
			seq: replay.Sequence{replay.SSE("data: [DONE]\n\n")}, hits: 3, wantErr: []string{"empty reply"}},
		{name: "in-stream rate limit before output is retried",
			seq:  replay.Sequence{replay.SSE(`data: {"error":{"message":"Rate limit reached","type":"rate_limit_exceeded"}}` + "\n\n"), rec},
			hits: 2, text: "Olá!"},
		{name: "in-stream invalid request is not retried",
			seq:  replay.Sequence{replay.SSE("event: error\ndata: {\"error\":{\"message\":\"bad schema\",\"type\":\"invalid_request_error\"}}\n\n"), rec},
			hits: 1, wantErr: []string{"openai: bad schema"}},
		{name: "server that never answers",
			seq: replay.Sequence{replay.Hang()}, timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			hits: 3, wantErr: []string{"no response from http://127.0.0.1", "within 200ms"}},
		{name: "stream that stalls",
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
				if got := reply.Message.Text(); got != tt.text {
					t.Errorf("text: got %q, want %q", got, tt.text)
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
	rec := replay.Load(t, simpleStream)
	start := time.Now()
	reply, srv, err := retried(t, replay.Sequence{replay.RateLimit("1"), rec}, providers.Timeouts{})
	waited := time.Since(start)
	if err != nil {
		t.Fatalf("error: got %v, want success after one retry", err)
	}
	if n := srv.Hits(); n != 2 || reply.Message.Text() != "Olá!" {
		t.Errorf("got %d attempts and text %q, want 2 and %q", n, reply.Message.Text(), "Olá!")
	}
	if waited < 900*time.Millisecond {
		t.Errorf("waited %v before retrying, want at least the 1s Retry-After", waited)
	}
}

// TestRateLimitExhausted: a 429 on every attempt surfaces the status, the
// server's message and its Retry-After.
func TestRateLimitExhausted(t *testing.T) {
	_, srv, err := retried(t, replay.Sequence{replay.RateLimit("0.01")}, providers.Timeouts{})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.StatusCode != 429 || !strings.Contains(err.Error(), "429 from") ||
		!strings.Contains(err.Error(), "Rate limit reached") || srv.Hits() != 3 {
		t.Errorf("got %v after %d attempts, want a 429 error naming the limit after 3", err, srv.Hits())
	}
}

// TestConnectionRefused: a closed port is a network error naming the URL.
func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := New(Config{Name: "openai-compatible", BaseURL: "http://" + addr + "/v1"})
	_, _, err = run(t.Context(), p, simpleRequest())
	want := "http://" + addr + "/v1/chat/completions"
	var pe *providers.Error
	if !errors.As(err, &pe) || !pe.Retryable || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("error: got %v, want a retryable error naming %s and 'connection refused'", err, want)
	}
}

// TestCancelMidStream: cancelling while the server holds the stream open
// returns context.Canceled at once.
func TestCancelMidStream(t *testing.T) {
	rec := replay.Load(t, simpleStream)
	srv := replay.Sequence{replay.Stall(rec, 2)}.Serve(t)
	p := New(Config{Name: "openai", BaseURL: srv.URL})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- p.Stream(ctx, simpleRequest(), func(c providers.Chunk) {
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

// TestCancelBeforeResponse: cancelling while waiting for headers returns
// the context's error, not a network error.
func TestCancelBeforeResponse(t *testing.T) {
	srv := replay.Sequence{replay.Hang()}.Serve(t)
	p := New(Config{Name: "openai", BaseURL: srv.URL})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, _, err := run(ctx, p, simpleRequest())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error: got %v, want context.DeadlineExceeded", err)
	}
}
