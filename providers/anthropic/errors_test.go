package anthropic

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestReplayHTTPErrors replays the recorded error responses: the error
// names the provider, the host, the status and the server's own message,
// and none of them is retryable.
func TestReplayHTTPErrors(t *testing.T) {
	tests := []struct {
		file    string
		status  int
		code    string
		message string
	}{
		{"ruby_llm__chat_error_handling_with_anthropic_claude-haiku-4-5_raises_appropriate_auth_error.json",
			401, "authentication_error", "invalid x-api-key"},
		{"pydantic-ai__cassettes.test_model_name_suggestions.test_model_name_suggestion_anthropic.json",
			404, "not_found_error", "model: claude-sonet-4-5"},
		{"pydantic-ai__models.test_anthropic.test_anthropic_count_tokens_error.json",
			404, "not_found_error", "model: claude-does-not-exist"},
		{"pydantic-ai__models.test_anthropic.test_anthropic_explicit_effort_xhigh_unsupported_model_errors.json",
			400, "invalid_request_error", "This model does not support effort level 'xhigh'."},
		{"ruby_llm__chat_real_error_scenarios_anthropic_claude-haiku-4-5_handles_context_length_exceeded_errors.json",
			400, "invalid_request_error", "prompt is too long: 3333404 tokens > 200000 maximum"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, "anthropic/"+tt.file)
			srv := replay.Serve(t, rec)
			_, chunks, err := replay.Run(t.Context(), providerFor(srv), simpleRequest())
			pe := replay.ProviderError(t, err)
			replay.ErrorContains(t, err, "anthropic: ", strings.TrimPrefix(srv.URL, "http://"), strconv.Itoa(tt.status), tt.message)
			if pe.StatusCode != tt.status || pe.Code != tt.code || pe.Retryable || pe.URL != srv.URL+"/v1/messages" {
				t.Errorf("error: got status %d code %q retryable %v url %q, want %d %q false %q",
					pe.StatusCode, pe.Code, pe.Retryable, pe.URL, tt.status, tt.code, srv.URL+"/v1/messages")
			}
			if len(chunks) != 0 {
				t.Errorf("chunks: got %d, want none", len(chunks))
			}
		})
	}
}

// TestStatusErrors covers statuses the recordings lack: rate limits and
// Anthropic's 529 are retryable and carry the server's retry hint.
func TestStatusErrors(t *testing.T) {
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	tests := []struct {
		name       string
		status     int
		body       string
		header     []string
		retryable  bool
		retryAfter time.Duration
		message    string
	}{
		{"529 overloaded", 529, overloaded, nil, true, 0, "Overloaded"},
		{"429 with retry-after-ms", 429, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`,
			[]string{"Retry-After-Ms", "1500", "Retry-After", "2"}, true, 1500 * time.Millisecond, "per-minute rate limit"},
		{"429 with retry-after", 429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`,
			[]string{"Retry-After", "7"}, true, 7 * time.Second, "slow down"},
		{"500 api_error", 500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`, nil, true, 0, "Internal server error"},
		{"502 with an HTML page", 502, "<html><body>Bad gateway</body></html>\n", []string{"Content-Type", "text/html"}, true, 0, "<html><body>Bad gateway"},
		{"413 without a body", 413, "", nil, false, 0, "Request Entity Too Large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Sequence{replay.Status(tt.status, tt.body, tt.header...)}.Serve(t)
			_, _, err := replay.Run(t.Context(), providerFor(srv), simpleRequest())
			pe := replay.ProviderError(t, err)
			if pe.StatusCode != tt.status || pe.Retryable != tt.retryable || pe.RetryAfter != tt.retryAfter || !strings.Contains(pe.Message, tt.message) {
				t.Errorf("error: got status %d retryable %v retry-after %v message %q, want %d %v %v %q",
					pe.StatusCode, pe.Retryable, pe.RetryAfter, pe.Message, tt.status, tt.retryable, tt.retryAfter, tt.message)
			}
		})
	}
}
