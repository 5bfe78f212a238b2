package google

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// memTransport answers every request with body, from memory.
type memTransport struct {
	body        []byte
	contentType string
}

func (m memTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, req.Body)
	return &http.Response{StatusCode: 200, Request: req,
		Header: http.Header{"Content-Type": {m.contentType}},
		Body:   io.NopCloser(bytes.NewReader(m.body))}, nil
}

// BenchmarkStreamParse parses large streams built from real recordings —
// their events without a finish reason repeated to about 4 MB, then the
// final event — from memory, through the whole adapter: the SSE reader,
// response decoding, the timeout transport, and chunk emission.
// json_array measures the fallback that reads a streamed JSON array.
func BenchmarkStreamParse(b *testing.B) {
	for _, tt := range []struct{ name, file string }{
		{"sse_reasoning", "gemini/ruby_llm__chat_with_extended_thinking_gemini_gemini-3-flash-preview_streams_thinking_content_when_available.json"},
		{"sse_tool_calls", "gemini/fantasy__GoogleCommon.gemini-3-pro-preview.multi_tool_streaming__0.json"},
		{"json_array", "gemini/llm-gemini__test_gemini.test_prompt.json"},
	} {
		b.Run(tt.name, func(b *testing.B) {
			rec := replay.Load(b, tt.file)
			body, contentType := bigStream(b, rec, 4<<20)
			p := New(Config{APIKey: testKey, HTTPClient: &http.Client{Transport: memTransport{body, contentType}}})
			req := &providers.Request{Model: rec.Model, Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}}
			ctx := context.Background()
			var chunks int
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			perByte := replay.AllocPerByte(b, len(body))
			for b.Loop() {
				if err := p.Stream(ctx, req, func(providers.Chunk) { chunks++ }); err != nil {
					b.Fatal(err)
				}
			}
			perByte()
			b.ReportMetric(float64(chunks)/float64(b.N), "chunks/op")
		})
	}
}

// bigStream repeats the events of rec that carry no finish reason until
// the body reaches size, then appends the final events, in rec's format.
func bigStream(b *testing.B, rec *replay.Recording, size int) ([]byte, string) {
	b.Helper()
	var events []json.RawMessage
	if rec.StreamFormat == "json-array" {
		if err := json.Unmarshal(rec.Body(), &events); err != nil {
			b.Fatal(err)
		}
	} else {
		for _, ev := range replay.Pieces(rec.Body(), rec.StreamFormat) {
			data := strings.TrimSpace(strings.TrimPrefix(string(ev), "data:"))
			events = append(events, json.RawMessage(data))
		}
	}
	var middle, tail []json.RawMessage
	for _, ev := range events {
		if bytes.Contains(ev, []byte(`"finishReason"`)) {
			tail = append(tail, ev)
		} else {
			middle = append(middle, ev)
		}
	}
	var all []json.RawMessage
	n := 0
	for n < size {
		for _, ev := range middle {
			all = append(all, ev)
			n += len(ev)
		}
	}
	all = append(all, tail...)
	var buf bytes.Buffer
	if rec.StreamFormat == "json-array" {
		buf.WriteString("[")
		for i, ev := range all {
			if i > 0 {
				buf.WriteString(",\r\n")
			}
			buf.Write(ev)
		}
		buf.WriteString("]")
		return buf.Bytes(), "application/json; charset=UTF-8"
	}
	for _, ev := range all {
		buf.WriteString("data: ")
		buf.Write(ev)
		buf.WriteString("\r\n\r\n")
	}
	return buf.Bytes(), "text/event-stream"
}
