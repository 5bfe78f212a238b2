package google

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// BenchmarkStreamOneTokens streams a 100,000-token answer, one token per
// event laid out as the API sends it (running usage in every event), from
// memory through the whole adapter.
func BenchmarkStreamOneTokens(b *testing.B) {
	const tokens = 100_000
	var body bytes.Buffer
	want := 0
	for i := range tokens {
		tok := fmt.Sprintf("w%d ", i%1000)
		want += len(tok)
		fmt.Fprintf(&body, `data: {"candidates": [{"content": {"parts": [{"text": %q}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 11,"candidatesTokenCount": %d,"totalTokenCount": %d,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 11}]},"modelVersion": "gemini-2.5-flash","responseId": "VwCzabneCuzPz7IP0aL64A0"}`+"\r\n\r\n", tok, i+1, i+12)
	}
	body.WriteString(`data: {"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 11,"candidatesTokenCount": 100000,"totalTokenCount": 100011},"modelVersion": "gemini-2.5-flash","responseId": "VwCzabneCuzPz7IP0aL64A0"}` + "\r\n\r\n")
	data := body.Bytes()
	p := New(Config{APIKey: testKey, HTTPClient: &http.Client{Transport: memTransport{data, "text/event-stream"}}})
	req := &providers.Request{Model: "gemini-2.5-flash", Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}}
	ctx := context.Background()
	var text int
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	perByte := replay.AllocPerByte(b, len(data))
	for b.Loop() {
		text = 0
		if err := p.Stream(ctx, req, func(c providers.Chunk) { text += len(c.Text) }); err != nil {
			b.Fatal(err)
		}
	}
	perByte()
	if text != want {
		b.Fatalf("text: got %d bytes, want %d", text, want)
	}
}
