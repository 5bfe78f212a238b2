package google

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// textStream has four events; the first already carries text.
const textStream = "gemini/fantasy__GoogleCommon.gemini-3-pro-preview.simple_streaming.json"

const textReply = `"Hi" in Portuguese is **"Oi"** (pronounced like "oy"). ` + "\n\n" +
	`You can also use **"Olá"** (pronounced oh-LAH), which means "Hello".`

var policy = providers.RetryPolicy{MaxAttempts: 3, BaseDelay: 5 * time.Millisecond}

// retried runs one call through the retry policy against seq.
func retried(t *testing.T, seq replay.Sequence, timeouts providers.Timeouts) (providers.Reply, *replay.Server, error) {
	t.Helper()
	srv := seq.Serve(t)
	acc := providers.Accumulator{Provider: Name}
	err := policy.Stream(t.Context(), newTestProvider(srv, timeouts), simpleRequest(), acc.Add, nil)
	return acc.Reply(), srv, err
}

func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\r\n\r\n")
	}
	return b.String()
}

const (
	textEvent  = `{"candidates":[{"content":{"parts":[{"text":"partial"}],"role":"model"},"index":0}]}`
	errorEvent = `{"error":{"code":%d,"message":"%s","status":"%s"}}`
)

// TestFaults scripts failures through RetryPolicy.Stream: what is retried,
// what is not, and what the error says.
func TestFaults(t *testing.T) {
	rec := replay.Load(t, textStream)
	array := replay.Load(t, "gemini/llm-gemini__test_gemini.test_prompt.json")
	tests := []struct {
		name     string
		seq      replay.Sequence
		timeouts providers.Timeouts
		hits     int
		wantErr  []string // substrings of the error; none means success
	}{
		{name: "persistent 500 fails after 3 attempts",
			seq:  replay.Sequence{replay.Status(500, `{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}`)},
			hits: 3, wantErr: []string{"google: 500 from 127.0.0.1", "Internal error encountered."}},
		{name: "503 then success",
			seq:  replay.Sequence{replay.Status(503, `{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`), rec},
			hits: 2},
		{name: "hang-up before any response is retried",
			seq: replay.Sequence{replay.Hangup(), rec}, hits: 2},
		{name: "cut right after the headers is retried",
			seq: replay.Sequence{replay.Cut(rec, 0), rec}, hits: 2},
		{name: "cut after output is not retried",
			seq: replay.Sequence{replay.Cut(rec, 1), rec}, hits: 1, wantErr: []string{"google: stream from http://127.0.0.1", "broke off"}},
		{name: "cut after the finish reason keeps the complete reply",
			seq: replay.Sequence{replay.Cut(rec, 4)}, hits: 1},
		{name: "cut inside a JSON array",
			seq: replay.Sequence{replay.Cut(array, 2), array}, hits: 1, wantErr: []string{"broke off"}},
		{name: "clean end without a finish reason",
			seq: replay.Sequence{replay.SSE(sse(textEvent))}, hits: 1, wantErr: []string{"stream ended before the reply was complete"}},
		{name: "malformed chunk is not retried",
			seq:  replay.Sequence{replay.SSE(sse(textEvent, `{"candidates":[{"content":`))},
			hits: 1, wantErr: []string{"invalid response from http://127.0.0.1", ":streamGenerateContent"}},
		{name: "malformed first chunk is not retried",
			seq: replay.Sequence{replay.SSE("data: <html>bad gateway</html>\r\n\r\n"), rec}, hits: 1, wantErr: []string{"invalid response", "<html>bad gateway"}},
		{name: "malformed JSON array is not retried",
			seq: replay.Sequence{replay.Status(200, `[{"candidates": [}]`), rec}, hits: 1, wantErr: []string{"invalid JSON from http://127.0.0.1"}},
		{name: "empty body is an error, never an empty reply",
			seq: replay.Sequence{replay.SSE("")}, hits: 3, wantErr: []string{"empty reply", "held no candidates"}},
		{name: "empty JSON array is an error",
			seq: replay.Sequence{replay.Status(200, `[]`)}, hits: 3, wantErr: []string{"empty reply"}},
		{name: "in-stream overload before output is retried",
			seq:  replay.Sequence{replay.SSE(sse(fmtEvent(503, "The model is overloaded.", "UNAVAILABLE"))), rec},
			hits: 2},
		{name: "in-stream invalid argument is not retried",
			seq:  replay.Sequence{replay.SSE(sse(fmtEvent(400, "Request contains an invalid argument.", "INVALID_ARGUMENT"))), rec},
			hits: 1, wantErr: []string{"google: 400 from 127.0.0.1", ": Request contains an invalid argument."}},
		{name: "server that never answers",
			seq: replay.Sequence{replay.Hang()}, timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			hits: 3, wantErr: []string{"no response", "http://127.0.0.1", "within 200ms"}},
		{name: "stream that stalls",
			seq: replay.Sequence{replay.Stall(rec, 1)}, timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
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
				if got := reply.Message.Text(); got != textReply {
					t.Errorf("text: got %q, want %q", got, textReply)
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

func fmtEvent(code int, msg, status string) string {
	return fmt.Sprintf(errorEvent, code, msg, status)
}

// TestNoSDKLogging: a broken, stalled or malformed body is reported as an
// error, and the SDK (which logs read errors to the standard logger) never
// writes a line: providers must not write to stderr.
func TestNoSDKLogging(t *testing.T) {
	var buf bytes.Buffer
	prev := log.Writer()
	log.SetOutput(&buf)
	t.Cleanup(func() { log.SetOutput(prev) })
	rec := replay.Load(t, textStream)
	for _, h := range []replay.Sequence{
		{replay.Cut(rec, 1)},
		{replay.Stall(rec, 1)},
		{replay.SSE(sse(textEvent, `{"candidates":[`))},
	} {
		_, _, _ = retried(t, h, providers.Timeouts{Idle: 100 * time.Millisecond})
	}
	if buf.Len() != 0 {
		t.Errorf("standard logger: got %q, want nothing", buf.String())
	}
}

// TestRetryAfter: a 429 with Retry-After: 1 is retried after the server's
// wait, not the 5ms backoff.
func TestRetryAfter(t *testing.T) {
	rec := replay.Load(t, textStream)
	start := time.Now()
	reply, srv, err := retried(t, replay.Sequence{replay.RateLimit("1"), rec}, providers.Timeouts{})
	waited := time.Since(start)
	if err != nil {
		t.Fatalf("error: got %v, want success after one retry", err)
	}
	if n := srv.Hits(); n != 2 || reply.Message.Text() != textReply {
		t.Errorf("got %d attempts and text %q, want 2 and the recorded reply", n, reply.Message.Text())
	}
	if waited < 900*time.Millisecond {
		t.Errorf("waited %v before retrying, want at least the 1s Retry-After", waited)
	}
}

// TestQuotaRetryInfo: Gemini's 429 carries its wait in a RetryInfo detail,
// not a header. A wait past the policy's MaxDelay is not retried: the
// error comes back at once, with the wait.
func TestQuotaRetryInfo(t *testing.T) {
	rec := replay.Load(t, "gemini/ruby_llm__chat_real_error_scenarios_gemini_gemini-2_5-flash_handles_context_length_exceeded_errors.json")
	start := time.Now()
	_, srv, err := retried(t, replay.Sequence{rec}, providers.Timeouts{})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.StatusCode != 429 || pe.RetryAfter != 48*time.Second || !pe.Retryable {
		t.Fatalf("error: got %#v, want a retryable 429 with RetryAfter 48s", err)
	}
	if n := srv.Hits(); n != 1 || time.Since(start) > 5*time.Second {
		t.Errorf("got %d attempts in %v, want 1 at once", n, time.Since(start))
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
	p := New(Config{BaseURL: "http://" + addr, APIKey: testKey})
	_, _, err = run(t.Context(), p, simpleRequest())
	want := "http://" + addr + "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
	var pe *providers.Error
	if !errors.As(err, &pe) || !pe.Retryable || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("error: got %v, want a retryable error naming %s and 'connection refused'", err, want)
	}
}

// TestCancelMidStream: cancelling while the server holds the stream open
// returns context.Canceled at once.
func TestCancelMidStream(t *testing.T) {
	rec := replay.Load(t, textStream)
	srv := replay.Sequence{replay.Stall(rec, 2)}.Serve(t)
	p := newTestProvider(srv, providers.Timeouts{})
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

// TestCancelBeforeResponse: a deadline passing while waiting for headers
// returns the context's error, not a network error.
func TestCancelBeforeResponse(t *testing.T) {
	srv := replay.Sequence{replay.Hang()}.Serve(t)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, _, err := run(ctx, newTestProvider(srv, providers.Timeouts{}), simpleRequest())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error: got %v, want context.DeadlineExceeded", err)
	}
}
