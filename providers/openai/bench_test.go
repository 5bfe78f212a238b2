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

// BenchmarkStreamParse parses a large stream built from a real recording:
// its content events repeated to about 4 MB, then its finish, usage and
// [DONE] events, read from memory.
func BenchmarkStreamParse(b *testing.B) {
	for _, tt := range []struct{ name, file string }{
		{"reasoning", "openai-compatible/pydantic-ai__models.test_deepseek.test_deepseek_model_thinking_stream.json"},
		{"tool_calls", "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.multi_tool_streaming__0.json"},
	} {
		b.Run(tt.name, func(b *testing.B) {
			body := bigStream(b, replay.Load(b, tt.file), 4<<20)
			codec := adapter.NewNameCodec([]string{"add", "multiply"}, adapter.FunctionNames)
			ctx := context.Background()
			var chunks int
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			perByte := replay.AllocPerByte(b, len(body))
			for b.Loop() {
				s := &streamer{site: site{"openai", "http://bench/v1/chat/completions"}, codec: codec,
					out: adapter.SinkFunc(func(providers.Chunk) { chunks++ })}
				if err := s.readSSE(ctx, bytes.NewReader(body)); err != nil {
					b.Fatal(err)
				}
			}
			perByte()
			b.ReportMetric(float64(chunks)/float64(b.N), "chunks/op")
		})
	}
}

// bigStream repeats the events of rec that carry no finish_reason and no
// usage until the body reaches size, then appends the closing events.
func bigStream(b *testing.B, rec *replay.Recording, size int) []byte {
	b.Helper()
	var middle, tail [][]byte
	for _, ev := range replay.Pieces(rec.Body(), rec.StreamFormat) {
		s := string(ev)
		if strings.Contains(s, `"finish_reason":"`) || strings.Contains(s, `"prompt_tokens"`) || strings.Contains(s, "[DONE]") {
			tail = append(tail, ev)
		} else {
			middle = append(middle, ev)
		}
	}
	return replay.Grow(nil, middle, tail, size)
}
