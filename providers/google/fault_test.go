package google

import (
	"bytes"
	"errors"
	"fmt"
	"log"
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

// target builds this adapter for the shared fault checks.
func target() replay.Target {
	return replay.Target{
		New: func(srv *replay.Server, timeouts providers.Timeouts) providers.Provider {
			return newTestProvider(srv, timeouts)
		},
		Request: simpleRequest,
		Text:    textReply,
	}
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
	callEvent  = `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"list_files","args":{"path":"."}}}],"role":"model"},"index":0}]}`
	thinkEvent = `{"candidates":[{"content":{"parts":[{"text":"hmm","thought":true}],"role":"model"},"index":0}]}`
	errorEvent = `{"error":{"code":%d,"message":"%s","status":"%s"}}`
)

// TestFaults scripts failures through RetryPolicy.Stream: what is retried,
// what is not, and what the error says.
func TestFaults(t *testing.T) {
	rec := replay.Load(t, textStream)
	array := replay.Load(t, "gemini/llm-gemini__test_gemini.test_prompt.json")
	target().RunFaults(t, []replay.FaultCase{
		{Name: "persistent 500 fails after 3 attempts",
			Seq:  replay.Sequence{replay.Status(500, `{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}`)},
			Hits: 3, WantErr: []string{"google: 500 from 127.0.0.1", "Internal error encountered."}},
		{Name: "503 then success",
			Seq:  replay.Sequence{replay.Status(503, `{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`), rec},
			Hits: 2},
		{Name: "hang-up before any response is retried",
			Seq: replay.Sequence{replay.Hangup(), rec}, Hits: 2},
		{Name: "cut right after the headers is retried",
			Seq: replay.Sequence{replay.Cut(rec, 0), rec}, Hits: 2},
		{Name: "cut after the first chunk, a tool call, is restarted",
			Seq: replay.Sequence{replay.Break("text/event-stream", sse(callEvent)), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after a thought is restarted",
			Seq: replay.Sequence{replay.Break("text/event-stream", sse(thinkEvent)), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text is restarted",
			Seq: replay.Sequence{replay.Cut(rec, 1), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text the user saw is not restarted",
			Seq: replay.Sequence{replay.Cut(rec, 1), rec}, Shown: true, Hits: 1, WantErr: []string{"google: stream from http://127.0.0.1", "broke off"}},
		{Name: "a server that always cuts after output fails after 3 attempts",
			Seq: replay.Sequence{replay.Cut(rec, 1)}, Hits: 3, Restarts: 2, WantErr: []string{"google: stream from http://127.0.0.1", "broke off"}},
		{Name: "cut after the finish reason keeps the complete reply",
			Seq: replay.Sequence{replay.Cut(rec, 4)}, Hits: 1},
		{Name: "cut inside a JSON array",
			Seq: replay.Sequence{replay.Cut(array, 2)}, Hits: 3, Restarts: 2, WantErr: []string{"broke off"}},
		{Name: "clean end without a finish reason",
			Seq: replay.Sequence{replay.SSE(sse(textEvent))}, Hits: 3, Restarts: 2, WantErr: []string{"stream ended before the reply was complete"}},
		{Name: "malformed chunk is not retried",
			Seq:  replay.Sequence{replay.SSE(sse(textEvent, `{"candidates":[{"content":`))},
			Hits: 1, WantErr: []string{"invalid response from http://127.0.0.1", ":streamGenerateContent"}},
		{Name: "malformed first chunk is not retried",
			Seq: replay.Sequence{replay.SSE("data: <html>bad gateway</html>\r\n\r\n"), rec}, Hits: 1, WantErr: []string{"invalid response", "<html>bad gateway"}},
		{Name: "malformed JSON array is not retried",
			Seq: replay.Sequence{replay.Status(200, `[{"candidates": [}]`), rec}, Hits: 1, WantErr: []string{"invalid JSON from http://127.0.0.1"}},
		{Name: "empty body is an error, never an empty reply",
			Seq: replay.Sequence{replay.SSE("")}, Hits: 3, WantErr: []string{"empty reply", "held no candidates"}},
		{Name: "empty JSON array is an error",
			Seq: replay.Sequence{replay.Status(200, `[]`)}, Hits: 3, WantErr: []string{"empty reply"}},
		{Name: "in-stream overload before output is retried",
			Seq:  replay.Sequence{replay.SSE(sse(fmtEvent(503, "The model is overloaded.", "UNAVAILABLE"))), rec},
			Hits: 2},
		{Name: "in-stream invalid argument is not retried",
			Seq:  replay.Sequence{replay.SSE(sse(fmtEvent(400, "Request contains an invalid argument.", "INVALID_ARGUMENT"))), rec},
			Hits: 1, WantErr: []string{"google: 400 from 127.0.0.1", ": Request contains an invalid argument."}},
		{Name: "server that never answers",
			Seq: replay.Sequence{replay.Hang()}, Timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			Hits: 3, WantErr: []string{"no response", "http://127.0.0.1", "within 200ms"}},
		{Name: "stream that stalls after output is restarted",
			Seq: replay.Sequence{replay.Stall(rec, 1), rec}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 2, Restarts: 1},
		{Name: "stream that always stalls",
			Seq: replay.Sequence{replay.Stall(rec, 1)}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 3, Restarts: 2, WantErr: []string{"no data from http://127.0.0.1", "stalled"}},
	})
}

func fmtEvent(code int, msg, status string) string {
	return fmt.Sprintf(errorEvent, code, msg, status)
}

// TestNoLogging: a broken, stalled or malformed body is reported as an
// error, and nothing is written to the standard logger (the SDK this
// adapter once used logged read errors there): providers must not write
// to stderr.
func TestNoLogging(t *testing.T) {
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
		_, _, _ = target().Retried(t, h, providers.Timeouts{Idle: 100 * time.Millisecond})
	}
	if buf.Len() != 0 {
		t.Errorf("standard logger: got %q, want nothing", buf.String())
	}
}

// TestRetryAfter: a 429 with Retry-After: 1 is retried after the server's
// wait, not the 5ms backoff.
func TestRetryAfter(t *testing.T) {
	target().CheckRetryAfter(t, replay.RateLimit("1"), replay.Load(t, textStream))
}

// TestQuotaRetryInfo: Gemini's 429 carries its wait in a RetryInfo detail,
// not a header. A wait past the policy's MaxDelay is not retried: the
// error comes back at once, with the wait.
func TestQuotaRetryInfo(t *testing.T) {
	rec := replay.Load(t, "gemini/ruby_llm__chat_real_error_scenarios_gemini_gemini-2_5-flash_handles_context_length_exceeded_errors.json")
	start := time.Now()
	_, srv, err := target().Retried(t, replay.Sequence{rec}, providers.Timeouts{})
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
	addr := replay.ClosedAddr(t)
	p := New(Config{BaseURL: "http://" + addr, APIKey: testKey})
	replay.CheckRefused(t, p, simpleRequest(), "http://"+addr+"/v1beta/models/gemini-2.5-flash:streamGenerateContent")
}

// TestCancelMidStream: cancelling while the server holds the stream open
// returns context.Canceled at once.
func TestCancelMidStream(t *testing.T) {
	target().CheckCancelMidStream(t, replay.Stall(replay.Load(t, textStream), 2))
}

// TestCancelBeforeResponse: a deadline passing while waiting for headers
// returns the context's error, not a network error.
func TestCancelBeforeResponse(t *testing.T) {
	target().CheckCancelBeforeResponse(t)
}
