package anthropic

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// BenchmarkStreamParse parses a large stream built from a real recording,
// read from memory through the SSE reader and the adapter's decoding: its message_start, its
// content block events repeated to about 4 MB, then its message_delta and
// message_stop.
func BenchmarkStreamParse(b *testing.B) {
	for _, tt := range []struct{ name, file string }{
		{"thinking_text", "anthropic/pydantic-ai__models.test_anthropic.test_anthropic_model_thinking_part_stream.json"},
		{"thinking_tool", "anthropic/fantasy__AnthropicThinking.claude-sonnet-4.thinking-streaming__0.json"},
	} {
		b.Run(tt.name, func(b *testing.B) {
			body := bigStream(b, replay.Load(b, tt.file), 4<<20)
			codec := adapter.NewNameCodec([]string{"weather"}, nameRule)
			ctx := context.Background()
			var chunks int
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			perByte := replay.AllocPerByte(b, len(body))
			for b.Loop() {
				s := &streamer{endpoint: "http://bench/v1/messages", codec: codec, emit: func(providers.Chunk) { chunks++ }}
				if err := s.read(ctx, bytes.NewReader(body)); err != nil {
					b.Fatal(err)
				}
			}
			perByte()
			b.ReportMetric(float64(chunks)/float64(b.N), "chunks/op")
		})
	}
}

// bigStream repeats the content block events of rec until the body reaches
// size, between its first event and its closing ones.
func bigStream(b *testing.B, rec *replay.Recording, size int) []byte {
	b.Helper()
	var head, middle, tail [][]byte
	for _, ev := range replay.Pieces(rec.Body(), rec.StreamFormat) {
		switch s := string(ev); {
		case strings.Contains(s, `"message_start"`):
			head = append(head, ev)
		case strings.Contains(s, `"message_delta"`), strings.Contains(s, `"message_stop"`):
			tail = append(tail, ev)
		default:
			middle = append(middle, ev)
		}
	}
	return replay.Grow(head, middle, tail, size)
}
