package openai

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// BenchmarkStreamAPIs parses the same scenario recorded from both APIs
// (plain text; two parallel tool calls from a reasoning model), each body
// grown to about 4 MB by repeating its longest run of delta events, from
// memory. MB/s compares the two parsers on the same number of bytes;
// ns/chunk on the same number of emitted chunks.
func BenchmarkStreamAPIs(b *testing.B) {
	for _, sc := range []struct{ name, chat, responses string }{
		{"text", "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.tool_streaming__1.json",
			"openai/fantasy__OpenAIResponsesCommon.openai-gpt-4o-mini.tool_streaming__1.json"},
		{"tool_calls", "openai/fantasy__OpenAICommon.openai-gpt-5.multi_tool_streaming__0.json",
			"openai/fantasy__OpenAIResponsesCommon.openai-gpt-5.multi_tool_streaming__0.json"},
	} {
		codec := adapter.NewNameCodec([]string{"add", "multiply", "weather"}, adapter.FunctionNames)
		b.Run(sc.name+"/chat", func(b *testing.B) {
			body := growDeltas(b, replay.Load(b, sc.chat), func(ev string) bool {
				return strings.Contains(ev, `"delta":{`) && !strings.Contains(ev, `"finish_reason":"`) && !strings.Contains(ev, `"usage":{`)
			})
			benchParse(b, body, func(ctx context.Context, emit func(providers.Chunk)) error {
				s := &streamer{site: site{"openai", "http://bench/v1/chat/completions"}, codec: codec, out: adapter.SinkFunc(emit)}
				return s.readSSE(ctx, bytes.NewReader(body))
			})
		})
		b.Run(sc.name+"/responses", func(b *testing.B) {
			body := growDeltas(b, replay.Load(b, sc.responses), func(ev string) bool {
				return strings.Contains(ev, `.delta"`)
			})
			benchParse(b, body, func(ctx context.Context, emit func(providers.Chunk)) error {
				s := &rstreamer{site: site{"openai", "http://bench/v1/responses"}, codec: codec, out: adapter.SinkFunc(emit)}
				return s.readSSE(ctx, bytes.NewReader(body))
			})
		})
	}
}

func benchParse(b *testing.B, body []byte, parse func(context.Context, func(providers.Chunk)) error) {
	ctx := context.Background()
	var chunks int
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	perByte := replay.AllocPerByte(b, len(body))
	for b.Loop() {
		if err := parse(ctx, func(providers.Chunk) { chunks++ }); err != nil {
			b.Fatal(err)
		}
	}
	perByte()
	b.ReportMetric(float64(chunks)/float64(b.N), "chunks/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(chunks), "ns/chunk")
}

// growDeltas keeps the events of rec around its longest run of events
// matching delta and repeats that run until the body reaches 4 MB, so the
// stream stays valid: the repeated deltas extend an item that is open.
func growDeltas(b *testing.B, rec *replay.Recording, delta func(string) bool) []byte {
	b.Helper()
	pieces := replay.Pieces(rec.Body(), rec.StreamFormat)
	start, n := 0, 0
	for i := 0; i < len(pieces); {
		j := i
		for j < len(pieces) && delta(string(pieces[j])) {
			j++
		}
		if j-i > n {
			start, n = i, j-i
		}
		i = max(j, i+1)
	}
	if n == 0 {
		b.Fatalf("%s: no delta events", rec.Path)
	}
	return replay.Grow(pieces[:start], pieces[start:start+n], pieces[start+n:], 4<<20)
}
