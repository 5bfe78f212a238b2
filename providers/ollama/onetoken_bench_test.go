package ollama

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// BenchmarkStreamOneTokens parses a 100,000-token answer, one token per
// line laid out as Ollama sends it, from memory, through line reading,
// decoding and chunk emission.
func BenchmarkStreamOneTokens(b *testing.B) {
	const tokens = 100_000
	var body bytes.Buffer
	want := 0
	for i := range tokens {
		tok := fmt.Sprintf("w%d ", i%1000)
		want += len(tok)
		fmt.Fprintf(&body, `{"model":"gemma3:1b","created_at":"2025-08-20T13:48:24.316155Z","message":{"role":"assistant","content":%q},"done":false}`+"\n", tok)
	}
	body.WriteString(`{"model":"gemma3:1b","created_at":"2025-08-20T13:48:25.316155Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":1,"load_duration":1,"prompt_eval_count":19,"prompt_eval_duration":1,"eval_count":100000,"eval_duration":1}` + "\n")
	data := body.Bytes()
	codec := adapter.NewNameCodec(nil, adapter.FunctionNames)
	ctx := context.Background()
	var text int
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	perByte := replay.AllocPerByte(b, len(data))
	for b.Loop() {
		text = 0
		s := newStreamer("http://bench/api/chat", codec, nil, adapter.SinkFunc(func(c providers.Chunk) { text += len(c.Text) }))
		if err := s.read(ctx, bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
	perByte()
	if text != want {
		b.Fatalf("text: got %d bytes, want %d", text, want)
	}
}
