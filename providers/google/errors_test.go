package google

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestReplayHTTPErrors replays the recorded error responses: the error
// names the provider, host, status and the server's own message and
// status code; only the quota error is retryable, with the wait from its
// RetryInfo detail.
func TestReplayHTTPErrors(t *testing.T) {
	tests := []struct {
		file       string
		status     int
		code       string
		message    string
		retryable  bool
		retryAfter time.Duration
	}{
		{"langchaingo__googleai.TestGoogleAIErrorHandling.json", 403, "PERMISSION_DENIED",
			"Method doesn't allow unregistered callers (callers without established identity).", false, 0},
		{"pydantic-ai__cassettes.test_model_name_suggestions.test_model_name_suggestion_google.json", 404, "NOT_FOUND",
			"models/gemini-3.6-flahs is not found for API version v1beta", false, 0},
		{"ruby_llm__chat_error_handling_with_gemini_gemini-2_5-flash_raises_appropriate_auth_error.json", 400, "INVALID_ARGUMENT",
			"API key not valid. Please pass a valid API key.", false, 0},
		{"ruby_llm__chat_real_error_scenarios_gemini_gemini-2_5-flash_handles_context_length_exceeded_errors.json", 429, "RESOURCE_EXHAUSTED",
			"You exceeded your current quota, please check your plan and billing details.", true, 48 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, "gemini/"+tt.file)
			srv := replay.Serve(t, rec)
			_, chunks, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), simpleRequest())
			pe := replay.ProviderError(t, err)
			replay.ErrorContains(t, err, "google: ", strings.TrimPrefix(srv.URL, "http://"), strconv.Itoa(tt.status), tt.message)
			if pe.StatusCode != tt.status || pe.Code != tt.code || pe.Retryable != tt.retryable || pe.RetryAfter != tt.retryAfter {
				t.Errorf("error fields: got status %d code %q retryable %v retry-after %v, want %d %q %v %v",
					pe.StatusCode, pe.Code, pe.Retryable, pe.RetryAfter, tt.status, tt.code, tt.retryable, tt.retryAfter)
			}
			if !strings.HasSuffix(pe.URL, ":streamGenerateContent") {
				t.Errorf("error URL: got %q, want the endpoint without its query", pe.URL)
			}
			if len(chunks) != 0 {
				t.Errorf("chunks: got %d, want none", len(chunks))
			}
		})
	}
}

// TestMissingKey: without a key nothing is sent and the error names the
// variables to set.
func TestMissingKey(t *testing.T) {
	srv := replay.Sequence{replay.Status(200, "{}")}.Serve(t)
	_, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), simpleRequest())
	var se *providers.SetupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "GEMINI_API_KEY or GOOGLE_API_KEY is not set") {
		t.Errorf("error: got %v, want a setup error naming GEMINI_API_KEY or GOOGLE_API_KEY", err)
	}
	if srv.Hits() != 0 {
		t.Errorf("requests: got %d, want none", srv.Hits())
	}
}

// TestRetryDelay: the wait of a 429 comes from its RetryInfo detail, in an
// object or in the array form of a body without alt=sse.
func TestRetryDelay(t *testing.T) {
	const info = `{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure"},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"%s"}]}}`
	tests := []struct {
		body string
		want time.Duration
	}{
		{fmt.Sprintf(info, "48s"), 48 * time.Second},
		{"[" + fmt.Sprintf(info, "1.5s") + "]", 1500 * time.Millisecond},
		{fmt.Sprintf(info, "soon"), 0},
		{`{"error":{"code":429}}`, 0},
		{`<html>`, 0},
	}
	for _, tt := range tests {
		if got := retryDelay([]byte(tt.body)); got != tt.want {
			t.Errorf("retryDelay(%s): got %v, want %v", tt.body, got, tt.want)
		}
	}
}
