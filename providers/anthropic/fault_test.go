package anthropic

import (
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

const simpleStream = "anthropic/fantasy__AnthropicCommon.claude-sonnet-4.simple_streaming.json"

// simpleText is the reply text of simpleStream.
const simpleText = "Olá! (That's \"hi\" in Portuguese)\n\nYou could also say \"Oi!\" which is a more casual way to say hi in Portuguese."

// target builds this adapter for the shared fault checks.
func target() replay.Target {
	return replay.Target{
		New: func(srv *replay.Server, timeouts providers.Timeouts) providers.Provider {
			return New(Config{BaseURL: srv.URL, APIKey: testKey, Timeouts: timeouts})
		},
		Request: simpleRequest,
		Text:    simpleText,
	}
}

// Hand-made events in the API's shapes.
const (
	evStart    = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n"
	evText     = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"partial\"}}\n\n"
	evHeader   = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"final_answer\",\"input\":{}}}\n\n"
	evThinking = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hmm\"}}\n\n"
	evOverload = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
)

// TestFaults scripts failures through RetryPolicy.Stream: what is retried,
// what is not, and what the error says.
func TestFaults(t *testing.T) {
	rec := replay.Load(t, simpleStream)
	pieces := len(replay.Pieces(rec.Body(), rec.StreamFormat))
	target().RunFaults(t, []replay.FaultCase{
		{Name: "persistent 500 fails after 3 attempts",
			Seq:  replay.Sequence{replay.Status(500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)},
			Hits: 3, WantErr: []string{"anthropic: 500 from 127.0.0.1", "Internal server error"}},
		{Name: "529 overloaded then success",
			Seq:  replay.Sequence{replay.Status(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), rec},
			Hits: 2},
		{Name: "401 is not retried",
			Seq:  replay.Sequence{replay.Status(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`), rec},
			Hits: 1, WantErr: []string{"anthropic: 401 from 127.0.0.1", "invalid x-api-key"}, NoRetry: true},
		{Name: "hang-up before any response is retried",
			Seq: replay.Sequence{replay.Hangup(), rec}, Hits: 2},
		{Name: "cut right after the headers is retried",
			Seq: replay.Sequence{replay.Cut(rec, 0), rec}, Hits: 2},
		{Name: "cut before any text is retried",
			Seq: replay.Sequence{replay.Cut(rec, 3), rec}, Hits: 2},
		{Name: "cut after a tool-call header is restarted",
			Seq: replay.Sequence{replay.Break("text/event-stream", evStart+evHeader), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after thinking is restarted",
			Seq: replay.Sequence{replay.Break("text/event-stream", evStart+evThinking), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text is restarted",
			Seq: replay.Sequence{replay.Cut(rec, 4), rec}, Hits: 2, Restarts: 1},
		{Name: "cut after text the user saw is not restarted",
			Seq: replay.Sequence{replay.Cut(rec, 4), rec}, Shown: true, Hits: 1, WantErr: []string{"anthropic: stream from http://127.0.0.1", "/v1/messages broke off"}},
		{Name: "a server that always cuts after output fails after 3 attempts",
			Seq: replay.Sequence{replay.Cut(rec, 4)}, Hits: 3, Restarts: 2, WantErr: []string{"anthropic: stream from http://127.0.0.1", "/v1/messages broke off"}},
		{Name: "cut after stop_reason keeps the complete reply",
			Seq: replay.Sequence{replay.Cut(rec, pieces-1)}, Hits: 1},
		{Name: "clean end before the reply was complete",
			Seq: replay.Sequence{replay.SSE(evStart + evText)}, Hits: 3, Restarts: 2, WantErr: []string{"stream ended before the reply was complete"}},
		{Name: "malformed event is not retried",
			Seq:  replay.Sequence{replay.SSE(evStart + evText + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\n\n"), rec},
			Hits: 1, WantErr: []string{"invalid JSON in the event stream from http://127.0.0.1", "/v1/messages"}, NoRetry: true},
		{Name: "malformed first event is not retried",
			Seq: replay.Sequence{replay.SSE("event: message_start\ndata: <html>bad gateway</html>\n\n"), rec}, Hits: 1,
			WantErr: []string{"invalid JSON"}, NoRetry: true},
		{Name: "empty body is an error, never an empty reply",
			Seq: replay.Sequence{replay.SSE("")}, Hits: 3, WantErr: []string{"empty reply", "held no message"}},
		{Name: "in-stream overloaded error before output is retried",
			Seq: replay.Sequence{replay.SSE(evStart + evOverload), rec}, Hits: 2},
		{Name: "in-stream overloaded error under another event name is retried",
			Seq: replay.Sequence{replay.SSE(evStart + "event: message\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"), rec}, Hits: 2},
		{Name: "in-stream invalid request under another event name is not retried",
			Seq:  replay.Sequence{replay.SSE(evStart + "event: message\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad\"}}\n\n"), rec},
			Hits: 1, WantErr: []string{"anthropic: bad"}, NoRetry: true},
		{Name: "in-stream overloaded error after output is restarted",
			Seq: replay.Sequence{replay.SSE(evStart + evText + evOverload), rec}, Hits: 2, Restarts: 1},
		{Name: "in-stream overloaded error after output the user saw is not restarted",
			Seq: replay.Sequence{replay.SSE(evStart + evText + evOverload), rec}, Shown: true, Hits: 1, WantErr: []string{"anthropic: Overloaded"}},
		{Name: "in-stream invalid request is not retried",
			Seq:  replay.Sequence{replay.SSE(evStart + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad schema\"}}\n\n"), rec},
			Hits: 1, WantErr: []string{"anthropic: bad schema"}, NoRetry: true},
		{Name: "server that never answers",
			Seq: replay.Sequence{replay.Hang()}, Timeouts: providers.Timeouts{Response: 200 * time.Millisecond},
			Hits: 3, WantErr: []string{"http://127.0.0.1", "/v1/messages", "within 200ms"}},
		{Name: "stream that stalls after output is restarted",
			Seq: replay.Sequence{replay.Stall(rec, 5), rec}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 2, Restarts: 1},
		{Name: "stream that always stalls",
			Seq: replay.Sequence{replay.Stall(rec, 5)}, Timeouts: providers.Timeouts{Idle: 200 * time.Millisecond},
			Hits: 3, Restarts: 2, WantErr: []string{"no data from http://127.0.0.1", "stalled"}},
	})
}

// TestRetryAfter: a 429 with Retry-After: 1 is retried after the server's
// wait, not the 5ms backoff.
func TestRetryAfter(t *testing.T) {
	limit := replay.Status(429, `{"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}`, "Retry-After", "1")
	target().CheckRetryAfter(t, limit, replay.Load(t, simpleStream))
}

// TestConnectionRefused: a closed port is a retryable network error naming
// the URL.
func TestConnectionRefused(t *testing.T) {
	addr := replay.ClosedAddr(t)
	replay.CheckRefused(t, New(Config{BaseURL: "http://" + addr}), simpleRequest(), "http://"+addr+"/v1/messages")
}

// TestCancelMidStream: cancelling while the server holds the stream open
// returns context.Canceled at once.
func TestCancelMidStream(t *testing.T) {
	target().CheckCancelMidStream(t, replay.Stall(replay.Load(t, simpleStream), 5))
}

// TestCancelBeforeResponse: a deadline while waiting for headers returns
// the context's error, not a network error.
func TestCancelBeforeResponse(t *testing.T) {
	target().CheckCancelBeforeResponse(t)
}
