package ollama

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestHTTPErrors replays the recorded ollama.com errors and Ollama's own
// error bodies: the error names the provider, the status and the server's
// message, adds a hint where the cause is known, and only 5xx is retried.
func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name      string
		handler   http.Handler
		status    int
		want      []string
		retryable bool
	}{
		{"recorded 401 from ollama.com",
			replay.Load(t, "ollama/ruby_llm__chat_error_handling_with_ollama_cloud_gpt-oss_120b_raises_appropriate_auth_error.json"),
			401, []string{"Unauthorized"}, false},
		{"recorded 400 prompt too long",
			replay.Load(t, "ollama/ruby_llm__chat_real_error_scenarios_ollama_cloud_gpt-oss_120b_handles_context_length_exceeded_errors.json"),
			400, []string{"prompt too long; exceeded max context length by 1119046 tokens"}, false},
		{"model not pulled",
			replay.Status(404, `{"error":"model \"qwen3\" not found, try pulling it first"}`),
			404, []string{`model "qwen3" not found, try pulling it first`, "ollama pull qwen3"}, false},
		{"model not found without its name",
			replay.Status(404, `{"error":"model not found"}`),
			404, []string{`model "qwen3": model not found`, "ollama pull qwen3"}, false},
		{"not an ollama server",
			replay.Status(404, "404 page not found", "Content-Type", "text/plain"),
			404, []string{"404 page not found", "an Ollama server?"}, false},
		{"model without tool support",
			replay.Status(400, `{"error":"registry.ollama.ai/library/gemma3:1b does not support tools"}`),
			400, []string{"gemma3:1b does not support tools", "model with tool support"}, false},
		{"model without thinking",
			replay.Status(400, `{"error":"\"gemma3:1b\" does not support thinking"}`),
			400, []string{"does not support thinking", "reasoning effort"}, false},
		{"level for a model without levels",
			replay.Status(400, `{"error":"think value \"high\" is not supported for this model"}`),
			400, []string{`think value "high" is not supported`, "on or off only"}, false},
		{"server error",
			replay.Status(500, `{"error":"llama runner process has terminated: signal: killed"}`),
			500, []string{"llama runner process has terminated"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Sequence{tt.handler}.Serve(t)
			_, chunks, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), userRequest("hi", "weather"))
			pe := replay.ProviderError(t, err)
			host := strings.TrimPrefix(srv.URL, "http://")
			replay.ErrorContains(t, err, append([]string{"ollama: " + strconv.Itoa(tt.status) + " from " + host}, tt.want...)...)
			if pe.StatusCode != tt.status || pe.Retryable != tt.retryable {
				t.Errorf("error fields: got status %d retryable %v, want %d %v", pe.StatusCode, pe.Retryable, tt.status, tt.retryable)
			}
			if len(chunks) != 0 {
				t.Errorf("chunks: got %d, want none", len(chunks))
			}
		})
	}
}

// TestInStreamError: an {"error": ...} line in a 200 stream is an error
// carrying the server's message, retryable only when the runner failed.
func TestInStreamError(t *testing.T) {
	text := `{"model":"qwen3","message":{"role":"assistant","content":"Hel"},"done":false}` + "\n"
	tests := []struct {
		name, body, want string
		retryable        bool
	}{
		{"runner crash after output", text + `{"error":"model runner has unexpectedly stopped, this may be due to resource limitations or an internal error"}` + "\n",
			"model runner has unexpectedly stopped", true},
		{"request problem", `{"error":"invalid tool call arguments"}` + "\n", "invalid tool call arguments", false},
		{"object-shaped error", `{"error":{"message":"upstream overloaded","type":"server_error"}}` + "\n", "upstream overloaded", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Serve(t, ndjson(tt.body))
			_, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), userRequest("hi"))
			var pe *providers.Error
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "ollama: "+tt.want) || pe.Retryable != tt.retryable {
				t.Errorf("error: got %v (retryable %v), want %q with retryable %v", err, pe != nil && pe.Retryable, tt.want, tt.retryable)
			}
		})
	}
}
