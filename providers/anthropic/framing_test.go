package anthropic

import (
	"errors"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestHeaders: the call names llmrt as its user agent, sends the key,
// version and JSON headers, and none of the SDK's telemetry headers.
func TestHeaders(t *testing.T) {
	srv := replay.Serve(t, replay.Load(t, simpleStream))
	if _, _, err := replay.Run(t.Context(), providerFor(srv), simpleRequest()); err != nil {
		t.Fatal(err)
	}
	r := srv.OnlyRequest(t)
	for k, want := range map[string]string{"User-Agent": "llmrt", "X-Api-Key": testKey, "Anthropic-Version": "2023-06-01",
		"Content-Type": "application/json", "Content-Length": "", "Authorization": ""} {
		if got := r.Header.Get(k); got != want && !(k == "Content-Length" && got != "") {
			t.Errorf("%s: got %q, want %q", k, got, want)
		}
	}
	for k := range r.Header {
		if strings.HasPrefix(k, "X-Stainless") {
			t.Errorf("header %s: got one, want no SDK telemetry", k)
		}
	}
}

// TestFraming: the event stream is read however its lines end, with
// multi-line data joined, comments and unknown fields skipped, and a body
// that ends inside a line is complete only when its stop_reason came.
func TestFraming(t *testing.T) {
	text := `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	delta := `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`
	stop := `{"type":"content_block_stop","index":0}`
	lf := sse(startEv, text, delta, stop, deltaEv("end_turn", 5), stopEv)
	tests := []struct {
		name string
		body string
		want string // error text; "" for the reply "hi"
	}{
		{"LF", lf, ""},
		{"CRLF", strings.ReplaceAll(lf, "\n", "\r\n"), ""},
		{"CR", strings.ReplaceAll(lf, "\n", "\r"), ""},
		{"comments, ids and unknown fields", ": keep-alive\nid: 7\nretry: 100\nfoo: bar\n\n" + lf, ""},
		{"data split over lines", sse(startEv, text) + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\ndata: \"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n" +
			sse(stop, deltaEv("end_turn", 5), stopEv), ""},
		{"no space after the colon", strings.ReplaceAll(strings.ReplaceAll(lf, "data: ", "data:"), "event: ", "event:"), ""},
		{"last event without its blank line", strings.TrimSuffix(lf, "\n"), ""},
		{"ends inside message_stop", strings.TrimSuffix(lf, "\n\n"), ""},
		{"ends inside a line before stop_reason", sse(startEv, text, delta) + "event: content_block_stop\ndata: {\"type\":", "stream ended before the reply was complete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Sequence{replay.SSE(tt.body)}.Serve(t)
			reply, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), simpleRequest())
			switch {
			case tt.want == "" && (err != nil || reply.Message.Text() != "hi" || reply.Stop != providers.StopNatural):
				t.Errorf("got %q, %q, %v; want \"hi\", natural, no error", reply.Message.Text(), reply.Stop, err)
			case tt.want != "":
				var pe *providers.Error
				if !errors.As(err, &pe) || !pe.Retryable || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error: got %v, want a retryable error containing %q", err, tt.want)
				}
			}
		})
	}
}

// TestHostileBlockIndex: a block index far past the blocks seen is
// ignored, with its deltas, instead of sizing the streamer's table by it.
func TestHostileBlockIndex(t *testing.T) {
	body := sse(startEv,
		`{"type":"content_block_start","index":1000000000000,"content_block":{"type":"text","text":"ignored"}}`,
		`{"type":"content_block_delta","index":1000000000000,"delta":{"type":"text_delta","text":" also ignored"}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`,
		`{"type":"content_block_stop","index":0}`,
		deltaEv("end_turn", 5), stopEv)
	reply, _ := stream(t, body, simpleRequest())
	if got := reply.Message.Text(); got != "hi" {
		t.Errorf("text: got %q, want %q", got, "hi")
	}
}
