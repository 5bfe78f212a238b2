package openai

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// oneTokens is the size of the one-token benchmarks' answers.
const oneTokens = 100_000

// BenchmarkStreamOneTokens parses a 100,000-token answer, one token per
// event laid out as the API sends it, from memory, through the SSE reader,
// event decoding and chunk emission, for both APIs.
func BenchmarkStreamOneTokens(b *testing.B) {
	codec := adapter.NewNameCodec(nil, adapter.FunctionNames)
	b.Run("chat", func(b *testing.B) {
		var body bytes.Buffer
		for i := range oneTokens {
			fmt.Fprintf(&body, `data: {"id":"chatcmpl-DuLddZr4DRHJOM0r9PiSog78i9fIY","object":"chat.completion.chunk","created":1782321917,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_560af6e559","choices":[{"index":0,"delta":{"content":%q},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"6PfkJQFAw"}`+"\n\n", token(i))
		}
		body.WriteString(`data: {"id":"chatcmpl-DuLddZr4DRHJOM0r9PiSog78i9fIY","object":"chat.completion.chunk","created":1782321917,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}` + "\n\n")
		body.WriteString(`data: {"id":"chatcmpl-DuLddZr4DRHJOM0r9PiSog78i9fIY","object":"chat.completion.chunk","created":1782321917,"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":19,"completion_tokens":100000,"total_tokens":100019}}` + "\n\ndata: [DONE]\n\n")
		data := body.Bytes()
		benchOneTokens(b, data, func(ctx context.Context, emit func(providers.Chunk)) error {
			s := &streamer{site: site{"openai", "http://bench/v1/chat/completions"}, codec: codec, out: adapter.SinkFunc(emit)}
			return s.readSSE(ctx, bytes.NewReader(data))
		})
	})
	b.Run("responses", func(b *testing.B) {
		var body bytes.Buffer
		for i := range oneTokens {
			fmt.Fprintf(&body, "event: response.output_text.delta\n"+`data: {"type":"response.output_text.delta","content_index":0,"delta":%q,"item_id":"msg_051d610521e34f94016a3c121042ec819d967453ef7e979dc7","logprobs":[],"obfuscation":"L7avu2BFWBVc0","output_index":0,"sequence_number":%d}`+"\n\n", token(i), i+4)
		}
		body.WriteString("event: response.completed\n" + `data: {"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[],"usage":{"input_tokens":19,"output_tokens":100000,"total_tokens":100019}},"sequence_number":100004}` + "\n\n")
		data := body.Bytes()
		benchOneTokens(b, data, func(ctx context.Context, emit func(providers.Chunk)) error {
			s := &rstreamer{site: site{"openai", "http://bench/v1/responses"}, codec: codec, out: adapter.SinkFunc(emit)}
			return s.readSSE(ctx, bytes.NewReader(data))
		})
	})
}

// token is the i-th one-token delta of the benchmarks.
func token(i int) string { return fmt.Sprintf("w%d ", i%1000) }

// benchOneTokens runs parse over body and checks every token's text came
// out.
func benchOneTokens(b *testing.B, body []byte, parse func(context.Context, func(providers.Chunk)) error) {
	want := 0
	for i := range oneTokens {
		want += len(token(i))
	}
	var text int
	benchParse(b, body, func(ctx context.Context, emit func(providers.Chunk)) error {
		text = 0
		return parse(ctx, func(c providers.Chunk) {
			text += len(c.Text)
			emit(c)
		})
	})
	if text != want {
		b.Fatalf("text: got %d bytes, want %d", text, want)
	}
}
