package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// BenchmarkStreamParse parses large streams from memory: a real recording's
// lines (all but the done line) repeated to about 4 MB, then its done
// line. "held_call" is a 4 MB tool call written as text, which the
// fallback holds back and parses at the end.
func BenchmarkStreamParse(b *testing.B) {
	const size = 4 << 20
	tools := []providers.ToolSpec{{Name: "write_file"}, {Name: "weather"}}
	for _, tt := range []struct {
		name string
		body func() []byte
	}{
		{"text", func() []byte { return bigStream(replay.Load(b, simpleStream), size) }},
		{"thinking", func() []byte {
			return bigStream(transcode(b, "ollama/ruby_llm__chat_with_extended_thinking_ollama_qwen3_streams_thinking_content_when_available.json", true), size)
		}},
		{"held_call", func() []byte {
			args, _ := json.Marshal(map[string]string{"path": "big.txt", "content": strings.Repeat("lorem ipsum ", size/12)})
			return []byte(contentStream(split(`{"name":"write_file","arguments":`+string(args)+`}`, 8)...))
		}},
	} {
		b.Run(tt.name, func(b *testing.B) {
			body := tt.body()
			codec := adapter.NewNameCodec([]string{"write_file", "weather"}, adapter.FunctionNames)
			ctx := context.Background()
			var chunks int
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			perByte := replay.AllocPerByte(b, len(body))
			for b.Loop() {
				s := newStreamer("http://bench/api/chat", codec, tools, adapter.SinkFunc(func(providers.Chunk) { chunks++ }))
				if err := s.read(ctx, bytes.NewReader(body)); err != nil {
					b.Fatal(err)
				}
			}
			perByte()
			b.ReportMetric(float64(chunks)/float64(b.N), "chunks/op")
		})
	}
}

// bigStream repeats the lines of rec before its done line until the body
// reaches size, then appends the done line.
func bigStream(rec *replay.Recording, size int) []byte {
	lines := replay.Pieces(rec.Body(), rec.StreamFormat)
	return replay.Grow(nil, lines[:len(lines)-1], lines[len(lines)-1:], size)
}
