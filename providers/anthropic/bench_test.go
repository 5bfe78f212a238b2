package anthropic

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
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
				s := &streamer{endpoint: "http://bench/v1/messages", codec: codec, out: adapter.SinkFunc(func(providers.Chunk) { chunks++ })}
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

// BenchmarkStreamOneTokens streams a 100,000-token answer, one token per
// content_block_delta as the API sends it, from memory through the whole
// adapter: the HTTP client with its timeout transport, the SSE reader,
// event decoding and chunk emission.
func BenchmarkStreamOneTokens(b *testing.B) {
	var body bytes.Buffer
	body.WriteString(sse(startEv, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`))
	want := 0
	for i := range 100_000 {
		token := fmt.Sprintf("w%d ", i%1000)
		want += len(token)
		fmt.Fprintf(&body, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":%q}}\n\n", token)
	}
	body.WriteString(sse(`{"type":"content_block_stop","index":0}`, deltaEv("end_turn", 100_000), stopEv))
	data := body.Bytes()
	p := New(Config{APIKey: testKey, HTTPClient: &http.Client{Transport: memTransport{data}}})
	req := simpleRequest()
	ctx := context.Background()
	var text int
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	perByte := replay.AllocPerByte(b, len(data))
	for b.Loop() {
		text = 0
		err := p.Stream(ctx, req, func(c providers.Chunk) { text += len(c.Text) })
		if err != nil {
			b.Fatal(err)
		}
	}
	perByte()
	if text != want {
		b.Fatalf("text: got %d bytes, want %d", text, want)
	}
}

// memTransport answers every request with body, from memory, as an event
// stream.
type memTransport struct{ body []byte }

func (m memTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, req.Body)
	return &http.Response{StatusCode: 200, Request: req,
		Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body:   io.NopCloser(bytes.NewReader(m.body))}, nil
}
