package openai

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const simpleStream = "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.simple_streaming.json"

// target builds this adapter for the shared fault checks.
func target() replay.Target {
	return replay.Target{
		New: func(srv *replay.Server, timeouts providers.Timeouts) providers.Provider {
			return New(Config{Name: "openai", BaseURL: srv.URL + "/v1", APIKey: testKey, Timeouts: timeouts})
		},
		Request: simpleRequest,
		Text:    "Olá!",
	}
}

// TestFaults scripts failures through RetryPolicy.Stream: what is retried,
// what is not, and what the error says.
func TestFaults(t *testing.T) {
	rec := replay.Load(t, simpleStream)
	textEvent := `data: {"choices":[{"index":0,"delta":{"content":"partial"},"finish_reason":null}]}` + "\n\n"
	headerEvent := `data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"final_answer","arguments":""}}]},"finish_reason":null}]}` + "\n\n"
	reasoningEvent := `data: {"choices":[{"index":0,"delta":{"reasoning_content":"thinking"},"finish_reason":null}]}` + "\n\n"
	target().RunFaults(t, []replay.FaultCase{
		{Name: "persistent 500 fails after 3 attempts",
			Seq:  replay.Sequence{replay.Status(500, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`)},
			Hits: 3, WantErr: []string{"openai: 500 from 127.0.0.1", "The server had an error while processing your request."}},
		{Name: "hang-up before any response is retried",
			Seq: replay.Sequence{replay.Hangup(), rec}, Hits: 2},
		{Name: "cut right after the headers is retried",
			Seq: replay.Sequence{replay.Cut(rec, 0), rec}, Hits: 2},
		{Name: "cut after a content-free event is retried",
			Seq: replay.Sequence{replay.Cut(rec, 1), rec}, Hits: 2},
		{Name: "cut after the first chunk, a tool-call header, is restarted",
			Seq: replay.Sequence{replay.Break("text/event-stream", headerEvent), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after reasoning is restarted",
			Seq: replay.Sequence{replay.Break("text/event-stream", reasoningEvent), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text is restarted",
			Seq: replay.Sequence{replay.Cut(rec, 2), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text the user saw is not restarted",
			Seq: replay.Sequence{replay.Cut(rec, 2), rec}, Shown: true, Hits: 1, WantErr: []string{"openai: stream from http://127.0.0.1", "broke off"}},
		{Name: "a server that always cuts after output fails after 3 attempts",
			Seq: replay.Sequence{replay.Cut(rec, 2)}, Hits: 3, Restarts: 2, WantErr: []string{"openai: stream from http://127.0.0.1", "broke off"}},
		{Name: "cut after finish_reason keeps the complete reply",
			Seq: replay.Sequence{replay.Cut(rec, 4)}, Hits: 1},
		{Name: "clean end without finish_reason or [DONE]",
			Seq: replay.Sequence{replay.SSE(textEvent)}, Hits: 3, Restarts: 2, WantErr: []string{"stream ended before the reply was complete"}},
		{Name: "clean end after a tool-call header is restarted",
			Seq: replay.Sequence{replay.SSE(headerEvent), rec}, Hits: 2, Restarts: 1},
		{Name: "malformed chunk is not retried",
			Seq:  replay.Sequence{replay.SSE(textEvent + "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}\n\n")},
			Hits: 1, WantErr: []string{"invalid JSON from http://127.0.0.1", "/v1/chat/completions", `{\"choices\":[{\"delta\"`}},
		{Name: "malformed first chunk is not retried",
			Seq: replay.Sequence{replay.SSE("data: <html>bad gateway</html>\n\n"), rec}, Hits: 1, WantErr: []string{"invalid JSON", "<html>bad gateway"}},
		{Name: "empty body is an error, never an empty reply",
			Seq: replay.Sequence{replay.SSE("")}, Hits: 3, WantErr: []string{"empty reply", "held no choices"}},
		{Name: "only [DONE] is an error",
			Seq: replay.Sequence{replay.SSE("data: [DONE]\n\n")}, Hits: 3, WantErr: []string{"empty reply"}},
		{Name: "in-stream rate limit before output is retried",
			Seq:  replay.Sequence{replay.SSE(`data: {"error":{"message":"Rate limit reached","type":"rate_limit_exceeded"}}` + "\n\n"), rec},
			Hits: 2},
		{Name: "in-stream invalid request is not retried",
			Seq:  replay.Sequence{replay.SSE("event: error\ndata: {\"error\":{\"message\":\"bad schema\",\"type\":\"invalid_request_error\"}}\n\n"), rec},
			Hits: 1, WantErr: []string{"openai: bad schema"}},
		{Name: "server that never answers",
			Seq: replay.Sequence{replay.Hang()}, Timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			Hits: 3, WantErr: []string{"no response from http://127.0.0.1", "within 200ms"}},
		{Name: "stream that stalls after output is restarted",
			Seq: replay.Sequence{replay.Stall(rec, 2), rec}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 2, Restarts: 1},
		{Name: "stream that always stalls",
			Seq: replay.Sequence{replay.Stall(rec, 2)}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 3, Restarts: 2, WantErr: []string{"no data from http://127.0.0.1", "stalled"}},
		{Name: "stream that stalls after output the user saw",
			Seq: replay.Sequence{replay.Stall(rec, 2), rec}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Shown: true, Hits: 1, WantErr: []string{"no data from http://127.0.0.1", "stalled"}},
	})
}

// TestRetryAfter: a 429 with Retry-After: 1 is retried after the server's
// wait, not the 5ms backoff.
func TestRetryAfter(t *testing.T) {
	target().CheckRetryAfter(t, replay.RateLimit("1"), replay.Load(t, simpleStream))
}

// TestRateLimitExhausted: a 429 on every attempt surfaces the status, the
// server's message and its Retry-After.
func TestRateLimitExhausted(t *testing.T) {
	_, srv, err := target().Retried(t, replay.Sequence{replay.RateLimit("0.01")}, providers.Timeouts{})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.StatusCode != 429 || !strings.Contains(err.Error(), "429 from") ||
		!strings.Contains(err.Error(), "Rate limit reached") || srv.Hits() != 3 {
		t.Errorf("got %v after %d attempts, want a 429 error naming the limit after 3", err, srv.Hits())
	}
}

// TestConnectionRefused: a closed port is a network error naming the URL.
func TestConnectionRefused(t *testing.T) {
	addr := replay.ClosedAddr(t)
	p := New(Config{Name: "openai-compatible", BaseURL: "http://" + addr + "/v1"})
	replay.CheckRefused(t, p, simpleRequest(), "http://"+addr+"/v1/chat/completions")
}

// TestCancelMidStream: cancelling while the server holds the stream open
// returns context.Canceled at once.
func TestCancelMidStream(t *testing.T) {
	target().CheckCancelMidStream(t, replay.Stall(replay.Load(t, simpleStream), 2))
}

// TestCancelBeforeResponse: cancelling while waiting for headers returns
// the context's error, not a network error.
func TestCancelBeforeResponse(t *testing.T) {
	target().CheckCancelBeforeResponse(t)
}
