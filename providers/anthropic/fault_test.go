package anthropic

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

const simpleStream = "anthropic/fantasy__AnthropicCommon.claude-sonnet-4.simple_streaming.json"

// simpleText is the reply text of simpleStream.
const simpleText = "Olá! (That's \"hi\" in Portuguese)\n\nYou could also say \"Oi!\" which is a more casual way to say hi in Portuguese."

var policy = providers.RetryPolicy{MaxAttempts: 3, BaseDelay: 5 * time.Millisecond}

// Hand-made events in the API's shapes.
const (
	evStart    = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n"
	evText     = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"partial\"}}\n\n"
	evOverload = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
)

// retried runs one call through the retry policy against seq.
func retried(t *testing.T, seq replay.Sequence, timeouts providers.Timeouts) (providers.Reply, *replay.Server, error) {
	t.Helper()
	srv := seq.Serve(t)
	p := New(Config{BaseURL: srv.URL, APIKey: testKey, Timeouts: timeouts})
	acc := providers.Accumulator{}
	err := policy.Stream(t.Context(), p, simpleRequest(), acc.Add, nil)
	return acc.Reply(), srv, err
}

// TestFaults scripts failures through RetryPolicy.Stream: what is retried,
// what is not, and what the error says.
func TestFaults(t *testing.T) {
	rec := replay.Load(t, simpleStream)
	pieces := len(replay.Pieces(rec.Body(), rec.StreamFormat))
	tests := []struct {
		name     string
		seq      replay.Sequence
		timeouts providers.Timeouts
		hits     int
		wantErr  []string // substrings of the error; none means success
		noRetry  bool     // the error must not be retryable
	}{
		{name: "persistent 500 fails after 3 attempts",
			seq:  replay.Sequence{replay.Status(500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)},
			hits: 3, wantErr: []string{"anthropic: 500 from 127.0.0.1", "Internal server error"}},
		{name: "529 overloaded then success",
			seq:  replay.Sequence{replay.Status(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), rec},
			hits: 2},
		{name: "401 is not retried",
			seq:  replay.Sequence{replay.Status(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`), rec},
			hits: 1, wantErr: []string{"anthropic: 401 from 127.0.0.1", "invalid x-api-key"}, noRetry: true},
		{name: "hang-up before any response is retried",
			seq: replay.Sequence{replay.Hangup(), rec}, hits: 2},
		{name: "cut right after the headers is retried",
			seq: replay.Sequence{replay.Cut(rec, 0), rec}, hits: 2},
		{name: "cut before any text is retried",
			seq: replay.Sequence{replay.Cut(rec, 3), rec}, hits: 2},
		{name: "cut after output is not retried",
			seq: replay.Sequence{replay.Cut(rec, 4), rec}, hits: 1, wantErr: []string{"anthropic: stream from http://127.0.0.1", "/v1/messages broke off"}},
		{name: "cut after stop_reason keeps the complete reply",
			seq: replay.Sequence{replay.Cut(rec, pieces-1)}, hits: 1},
		{name: "clean end before the reply was complete",
			seq: replay.Sequence{replay.SSE(evStart + evText)}, hits: 1, wantErr: []string{"stream ended before the reply was complete"}},
		{name: "malformed event is not retried",
			seq:  replay.Sequence{replay.SSE(evStart + evText + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\n\n"), rec},
			hits: 1, wantErr: []string{"invalid JSON in the event stream from http://127.0.0.1", "/v1/messages"}, noRetry: true},
		{name: "malformed first event is not retried",
			seq: replay.Sequence{replay.SSE("event: message_start\ndata: <html>bad gateway</html>\n\n"), rec}, hits: 1,
			wantErr: []string{"invalid JSON"}, noRetry: true},
		{name: "empty body is an error, never an empty reply",
			seq: replay.Sequence{replay.SSE("")}, hits: 3, wantErr: []string{"empty reply", "held no message"}},
		{name: "in-stream overloaded error before output is retried",
			seq: replay.Sequence{replay.SSE(evStart + evOverload), rec}, hits: 2},
		{name: "in-stream overloaded error under another event name is retried",
			seq: replay.Sequence{replay.SSE(evStart + "event: message\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"), rec}, hits: 2},
		{name: "in-stream invalid request under another event name is not retried",
			seq:  replay.Sequence{replay.SSE(evStart + "event: message\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad\"}}\n\n"), rec},
			hits: 1, wantErr: []string{"anthropic: bad"}, noRetry: true},
		{name: "in-stream overloaded error after output is not retried",
			seq: replay.Sequence{replay.SSE(evStart + evText + evOverload), rec}, hits: 1, wantErr: []string{"anthropic: Overloaded"}},
		{name: "in-stream invalid request is not retried",
			seq:  replay.Sequence{replay.SSE(evStart + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad schema\"}}\n\n"), rec},
			hits: 1, wantErr: []string{"anthropic: bad schema"}, noRetry: true},
		{name: "server that never answers",
			seq: replay.Sequence{replay.Hang()}, timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			hits: 3, wantErr: []string{"http://127.0.0.1", "/v1/messages", "within 200ms"}},
		{name: "stream that stalls after output",
			seq: replay.Sequence{replay.Stall(rec, 5)}, timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
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
			if tt.noRetry && pe.Retryable {
				t.Errorf("error %q: got retryable, want not", err)
			}
		})
	}
}

// TestRetryAfter: a 429 with Retry-After: 1 is retried after the server's
// wait, not the 5ms backoff.
func TestRetryAfter(t *testing.T) {
	rec := replay.Load(t, simpleStream)
	limit := replay.Status(429, `{"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}`, "Retry-After", "1")
	start := time.Now()
	reply, srv, err := retried(t, replay.Sequence{limit, rec}, providers.Timeouts{})
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

// TestConnectionRefused: a closed port is a retryable network error naming
// the URL.
func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := New(Config{BaseURL: "http://" + addr})
	_, _, err = run(t.Context(), p, simpleRequest())
	want := "http://" + addr + "/v1/messages"
	var pe *providers.Error
	if !errors.As(err, &pe) || !pe.Retryable || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("error: got %v, want a retryable error naming %s and 'connection refused'", err, want)
	}
}

// TestCancelMidStream: cancelling while the server holds the stream open
// returns context.Canceled at once.
func TestCancelMidStream(t *testing.T) {
	rec := replay.Load(t, simpleStream)
	srv := replay.Sequence{replay.Stall(rec, 5)}.Serve(t)
	p := providerFor(srv)
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

// TestCancelBeforeResponse: a deadline while waiting for headers returns
// the context's error, not a network error.
func TestCancelBeforeResponse(t *testing.T) {
	srv := replay.Sequence{replay.Hang()}.Serve(t)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, _, err := run(ctx, providerFor(srv), simpleRequest())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error: got %v, want context.DeadlineExceeded", err)
	}
}
