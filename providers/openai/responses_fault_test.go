package openai

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// responsesStream is a recording whose events are, in order: created,
// in_progress, a reasoning item (added, done), a message item (added, a
// part, the text "Oi" and "!", done) and completed.
const responsesStream = "openai/fantasy__OpenAIResponsesCommon.openai-gpt-5.simple_streaming.json"

// responsesTarget builds the Responses adapter for the shared fault
// checks.
func responsesTarget() replay.Target {
	return replay.Target{
		New: func(srv *replay.Server, timeouts providers.Timeouts) providers.Provider {
			return NewResponses(Config{BaseURL: srv.URL + "/v1", APIKey: testKey, Timeouts: timeouts})
		},
		Request: responsesRequest0,
		Text:    "Oi!",
	}
}

// sseEvent renders one Responses event the way the API frames it.
func sseEvent(typ, data string) string {
	return "event: " + typ + "\ndata: " + data + "\n\n"
}

// TestResponsesFaults runs the shared fault table through
// RetryPolicy.Stream: what is retried, what is restarted (a stream cut
// before any answer text reached the user starts again; one cut after
// text the user saw is final, since restarting would show it twice) and
// what the error says.
func TestResponsesFaults(t *testing.T) {
	rec := replay.Load(t, responsesStream)
	text := sseEvent("response.output_text.delta", `{"type":"response.output_text.delta","output_index":0,"delta":"partial"}`)
	callHeader := sseEvent("response.output_item.added", `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"final_answer","arguments":""}}`)
	reasoning := sseEvent("response.reasoning_summary_text.delta", `{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":"thinking"}`)
	created := sseEvent("response.created", `{"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}`)
	responsesTarget().RunFaults(t, []replay.FaultCase{
		{Name: "persistent 500 fails after 3 attempts",
			Seq:  replay.Sequence{replay.Status(500, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`)},
			Hits: 3, WantErr: []string{"openai: 500 from 127.0.0.1", "The server had an error while processing your request."}},
		{Name: "401 is not retried",
			Seq:  replay.Sequence{replay.Status(401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`), rec},
			Hits: 1, NoRetry: true, WantErr: []string{"openai: 401 from 127.0.0.1", "Incorrect API key provided"}},
		{Name: "hang-up before any response is retried",
			Seq: replay.Sequence{replay.Hangup(), rec}, Hits: 2},
		{Name: "cut right after the headers is retried",
			Seq: replay.Sequence{replay.Cut(rec, 0), rec}, Hits: 2},
		{Name: "cut after content-free events is retried",
			Seq: replay.Sequence{replay.Cut(rec, 2), rec}, Hits: 2},
		{Name: "cut after a reasoning item is restarted",
			Seq: replay.Sequence{replay.Cut(rec, 4), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after reasoning text is restarted",
			Seq: replay.Sequence{replay.Break("text/event-stream", created+reasoning), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after a tool-call header is restarted",
			Seq: replay.Sequence{replay.Break("text/event-stream", created+callHeader), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text is restarted",
			Seq: replay.Sequence{replay.Cut(rec, 7), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text the user saw is not restarted",
			Seq: replay.Sequence{replay.Cut(rec, 7), rec}, Shown: true, Hits: 1, WantErr: []string{"openai: stream from http://127.0.0.1", "broke off"}},
		{Name: "a server that always cuts after output fails after 3 attempts",
			Seq: replay.Sequence{replay.Cut(rec, 7)}, Hits: 3, Restarts: 2, WantErr: []string{"openai: stream from http://127.0.0.1", "broke off"}},
		{Name: "cut just before response.completed is restarted",
			Seq: replay.Sequence{replay.Cut(rec, 11), rec}, Hits: 2, Restarts: 1},
		{Name: "clean end without response.completed",
			Seq: replay.Sequence{replay.SSE(created + text)}, Hits: 3, Restarts: 2, WantErr: []string{"stream ended before the reply was complete", "/v1/responses"}},
		{Name: "malformed event is not retried",
			Seq:  replay.Sequence{replay.SSE(created + "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\n\n")},
			Hits: 1, WantErr: []string{"invalid JSON from http://127.0.0.1", "/v1/responses", `{\"type\":\"response.output_text.delta\"`}},
		{Name: "malformed first event is not retried",
			Seq: replay.Sequence{replay.SSE("data: <html>bad gateway</html>\n\n"), rec}, Hits: 1, WantErr: []string{"invalid JSON", "<html>bad gateway"}},
		{Name: "empty body is an error, never an empty reply",
			Seq: replay.Sequence{replay.SSE("")}, Hits: 3, WantErr: []string{"empty reply", "held no events"}},
		{Name: "only [DONE] is an error",
			Seq: replay.Sequence{replay.SSE("data: [DONE]\n\n")}, Hits: 3, WantErr: []string{"empty reply"}},
		{Name: "in-stream rate limit before output is retried",
			Seq:  replay.Sequence{replay.SSE(created + sseEvent("error", `{"type":"error","code":"rate_limit_exceeded","message":"Rate limit reached","param":null}`)), rec},
			Hits: 2},
		{Name: "response.failed with a server error is retried",
			Seq:  replay.Sequence{replay.SSE(created + sseEvent("response.failed", `{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"The model failed"},"output":[]}}`)), rec},
			Hits: 2},
		{Name: "an error event with a nested error object",
			Seq:  replay.Sequence{replay.SSE(sseEvent("error", `{"type":"error","error":{"type":"invalid_request_error","message":"model not allowed"}}`)), rec},
			Hits: 1, NoRetry: true, WantErr: []string{"openai: model not allowed"}},
		{Name: "in-stream invalid request is not retried",
			Seq:  replay.Sequence{replay.SSE(sseEvent("error", `{"type":"error","code":"invalid_prompt","message":"bad schema","param":"tools"}`)), rec},
			Hits: 1, NoRetry: true, WantErr: []string{"openai: bad schema"}},
		{Name: "server that never answers",
			Seq: replay.Sequence{replay.Hang()}, Timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			Hits: 3, WantErr: []string{"no response from http://127.0.0.1", "within 200ms"}},
		{Name: "stream that stalls after output is restarted",
			Seq: replay.Sequence{replay.Stall(rec, 7), rec}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 2, Restarts: 1},
		{Name: "stream that stalls after output the user saw",
			Seq: replay.Sequence{replay.Stall(rec, 7), rec}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Shown: true, Hits: 1, WantErr: []string{"no data from http://127.0.0.1", "stalled"}},
	})
}

// TestResponsesRetryAfter: a 429 with Retry-After: 1 is retried after the
// server's wait.
func TestResponsesRetryAfter(t *testing.T) {
	responsesTarget().CheckRetryAfter(t, replay.RateLimit("1"), replay.Load(t, responsesStream))
}

// TestResponsesRateLimitExhausted: a 429 on every attempt surfaces the
// status and the server's message.
func TestResponsesRateLimitExhausted(t *testing.T) {
	_, srv, err := responsesTarget().Retried(t, replay.Sequence{replay.RateLimit("0.01")}, providers.Timeouts{})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.StatusCode != 429 || !strings.Contains(err.Error(), "Rate limit reached") || srv.Hits() != 3 {
		t.Errorf("got %v after %d attempts, want a 429 error naming the limit after 3", err, srv.Hits())
	}
}

// TestResponsesConnectionRefused: a closed port is a network error naming
// the URL.
func TestResponsesConnectionRefused(t *testing.T) {
	addr := replay.ClosedAddr(t)
	p := NewResponses(Config{BaseURL: "http://" + addr + "/v1"})
	replay.CheckRefused(t, p, responsesRequest0(), "http://"+addr+"/v1/responses")
}

// TestResponsesCancel: cancelling mid-stream or before the headers returns
// the context's error at once.
func TestResponsesCancel(t *testing.T) {
	t.Run("mid-stream", func(t *testing.T) {
		responsesTarget().CheckCancelMidStream(t, replay.Stall(replay.Load(t, responsesStream), 7))
	})
	t.Run("before the response", func(t *testing.T) {
		responsesTarget().CheckCancelBeforeResponse(t)
	})
}

// TestResponsesRaw: with Request.Raw each event's data is handed on, and
// nothing else changes.
func TestResponsesRaw(t *testing.T) {
	responsesTarget().CheckRaw(t, replay.Load(t, responsesStream))
}
