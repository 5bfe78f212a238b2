package openai

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestReplayHTTPErrors replays recorded error responses: the error names
// the provider, the status and the server's own message, and only rate
// limits are retryable.
func TestReplayHTTPErrors(t *testing.T) {
	tests := []struct {
		file, name string
		status     int
		message    string
		retryable  bool
		retryAfter time.Duration
	}{
		{"openai/ruby_llm__chat_error_handling_with_openai_gpt-5-nano_raises_appropriate_auth_error.json", "openai",
			401, "Incorrect API key provided: invalid-key.", false, 0},
		{"azure/ruby_llm__chat_error_handling_with_azure_grok-4-1-fast-non-reasoning_raises_appropriate_auth_error.json", "azure",
			401, "Access denied due to invalid subscription key or wrong API endpoint.", false, 0},
		{"azure/ruby_llm__chat_real_error_scenarios_azure_grok-4-1-fast-non-reasoning_handles_context_length_exceeded_errors.json", "azure",
			429, "Your requests to grok-4-1-fast-non-reasoning for grok-4-1-fast-non-reasoning in westeurope have exceeded rate limit.", true, time.Second},
		{"xai/ruby_llm__chat_error_handling_with_xai_grok-4-1-fast-non-reasoning_raises_appropriate_auth_error.json", "xai",
			400, "Incorrect API key provided. You can obtain an API key from https://console.x.ai.", false, 0},
		{"openai-compatible/langchaingo__openai.TestOpenRouterStreaming__1.json", "openai-compatible",
			429, "Rate limit exceeded: limit_rpm/meta-llama/llama-3.2-3b-instruct/REDACTED.", true, 0},
		{"openai-compatible/pydantic-ai__models.test_openrouter.test_openrouter_errors_raised__0.json", "openai-compatible",
			429, "Provider returned error", true, 0},
		{"openai-compatible/ruby_llm__chat_error_handling_with_deepseek_deepseek-chat_raises_appropriate_auth_error.json", "openai-compatible",
			401, "Authentication Fails, Your api key: ****-key is invalid", false, 0},
		{"openai-compatible/ruby_llm__chat_error_handling_with_mistral_mistral-small-latest_raises_appropriate_auth_error.json", "openai-compatible",
			401, "Invalid API Key", false, 0},
		{"openai-compatible/pydantic-ai__models.test_groq.test_tool_regular_error.json", "openai-compatible",
			404, "The model `non-existent` does not exist or you do not have access to it.", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, tt.file)
			srv := replay.Serve(t, rec)
			p := providerFor(tt.name, srv, rec)
			_, chunks, err := replay.Run(t.Context(), p, simpleRequest())
			pe := replay.ProviderError(t, err)
			replay.ErrorContains(t, err, tt.name+": ", strings.TrimPrefix(strings.TrimPrefix(srv.URL, "http://"), "https://"), strconv.Itoa(tt.status), tt.message)
			if pe.StatusCode != tt.status || pe.Retryable != tt.retryable || pe.RetryAfter != tt.retryAfter {
				t.Errorf("error fields: got status %d retryable %v retry-after %v, want %d %v %v",
					pe.StatusCode, pe.Retryable, pe.RetryAfter, tt.status, tt.retryable, tt.retryAfter)
			}
			if len(chunks) != 0 {
				t.Errorf("chunks: got %d, want none", len(chunks))
			}
		})
	}
}

// TestReplayInStreamError replays Groq's "event: error" after streamed
// reasoning: the server's message and code surface, not retryable.
func TestReplayInStreamError(t *testing.T) {
	rec := replay.Load(t, "openai-compatible/pydantic-ai__models.test_groq.test_tool_use_failed_error_streaming__0.json")
	srv := replay.Serve(t, rec)
	p := providerFor("openai-compatible", srv, rec)
	reply, _, err := replay.Run(t.Context(), p, neutralRequest(t, rec.Request.Body))
	pe := replay.ProviderError(t, err)
	const want = "Tool call validation failed: tool call validation failed: parameters for tool get_something_by_name did not match schema"
	if !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "openai-compatible: ") {
		t.Errorf("error: got %q, want it to name the provider and contain %q", err, want)
	}
	if pe.Code != "tool_use_failed" || pe.Retryable {
		t.Errorf("error fields: got code %q retryable %v, want tool_use_failed false", pe.Code, pe.Retryable)
	}
	if r := replay.ReasoningText(reply); !strings.HasPrefix(r, "We need to call the tool") {
		t.Errorf("reasoning streamed before the error: got %q, want prefix %q", r, "We need to call the tool")
	}
}
