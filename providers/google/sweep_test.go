package google

import (
	"slices"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestReplayAllRecordings sweeps every successful Gemini recording — SSE
// with CRLF framing, streamed JSON arrays (with string or integer enums),
// single generateContent objects, Gemini API and Vertex AI hosts — through
// the adapter: each parses into a reply that ends with a stop chunk and
// holds text, reasoning or a call, with usage.
func TestReplayAllRecordings(t *testing.T) {
	formats := map[string]int{}
	for _, file := range replay.Glob(t, "gemini/*.json") {
		rec := replay.Load(t, file)
		if rec.Response.Status != 200 {
			continue
		}
		formats[rec.StreamFormat+"/"+rec.Host]++
		t.Run(file, func(t *testing.T) {
			srv := replay.Serve(t, rec)
			reply, chunks, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), neutralRequest(t, rec))
			if err != nil {
				t.Fatalf("Stream: got %v, want nil", err)
			}
			replay.CheckEndsWithStop(t, chunks)
			if reply.Empty() && replay.ReasoningText(reply) == "" {
				t.Errorf("reply: got nothing, want text, reasoning or a tool call")
			}
			if reply.Usage.InputTokens == 0 {
				t.Errorf("usage: got %+v, want input tokens", reply.Usage)
			}
			if reply.Stop == providers.StopUnknown {
				t.Errorf("stop: got unknown, want a mapped finish reason")
			}
			sent := srv.Requests()[0].Body
			if got, want := shape(t, sent, keepIDs), shape(t, []byte(rec.Request.Body), keepIDs); !slices.Equal(got, want) {
				t.Errorf("conversation sent:\n got %q\nwant %q", got, want)
			}
		})
	}
	t.Logf("formats replayed: %v", formats)
}
