package google

import (
	"net/http"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestBodyFaults: JSON bodies and events that end early, carry an error or
// have the wrong shape. A reply whose finish reason arrived survives the
// loss of the closing bracket; an error sent in place of a response keeps
// its status and is retryable when transient; a response of the wrong
// shape is not retryable.
func TestBodyFaults(t *testing.T) {
	const final = `{"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3}}`
	const partial = `{"candidates":[{"content":{"parts":[{"text":"ok"}]}}]}`
	tests := []struct {
		name      string
		handler   http.Handler
		text      string   // the reply on success
		err       []string // substrings of the error
		status    int
		retryable bool
	}{
		{name: "array without its closing bracket after the finish keeps the reply",
			handler: replay.Status(200, "["+final+",\r\n"), text: "ok"},
		{name: "array cut before the finish broke off",
			handler: replay.Status(200, "["+partial+",\r\n"), err: []string{"broke off", "unexpected EOF"}, retryable: true},
		{name: "transient error in a JSON array",
			handler: replay.Status(200, `[{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}]`),
			err:     []string{"The model is overloaded."}, status: 503, retryable: true},
		{name: "object of the wrong shape",
			handler: replay.Status(200, `{"candidates":{"content":1}}`), err: []string{"invalid JSON from http://127.0.0.1", "cannot unmarshal"}},
		{name: "event of the wrong shape",
			handler: replay.SSE(sse(`{"candidates":[{"content":{"parts":"text"}}]}`)), err: []string{"invalid response from http://127.0.0.1", `"parts":"text"`}},
		{name: "event with an enum that is neither name nor number",
			handler: replay.SSE(sse(`{"candidates":[{"finishReason":true}]}`)), err: []string{"invalid response", "neither a name nor a number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Sequence{tt.handler}.Serve(t)
			reply, _, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), simpleRequest())
			if len(tt.err) == 0 {
				if err != nil || reply.Message.Text() != tt.text || reply.Stop != providers.StopNatural {
					t.Errorf("got %q stop %q err %v, want %q, natural, nil", reply.Message.Text(), reply.Stop, err, tt.text)
				}
				return
			}
			pe := replay.ProviderError(t, err)
			replay.ErrorContains(t, err, tt.err...)
			if pe.StatusCode != tt.status || pe.Retryable != tt.retryable {
				t.Errorf("got status %d retryable %v, want %d %v (%v)", pe.StatusCode, pe.Retryable, tt.status, tt.retryable, err)
			}
			if !strings.HasSuffix(pe.URL, ":streamGenerateContent") {
				t.Errorf("error URL: got %q, want the endpoint without its query", pe.URL)
			}
		})
	}
}
