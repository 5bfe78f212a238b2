package anthropic

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestThinkingOptions: reasoning effort maps to extended thinking with a
// budget below max_tokens, and temperature is dropped (with a warning)
// while thinking is on.
func TestThinkingOptions(t *testing.T) {
	temp := 0.3
	tests := []struct {
		name      string
		model     string
		effort    providers.Effort
		maxTokens int
		temp      *float64
		// want: thinking type and budget, max_tokens, temperature sent,
		// output_config effort, warnings.
		thinking  string
		budget    int
		wantMax   int
		wantTemp  bool
		outEffort string
		warnings  []string
	}{
		{name: "default: no thinking", effort: "", wantMax: 8192, temp: &temp, wantTemp: true},
		{name: "none: no thinking", effort: providers.EffortNone, maxTokens: 1000, wantMax: 1000},
		{name: "low", effort: providers.EffortLow, thinking: "enabled", budget: 2048, wantMax: 10240},
		{name: "medium", effort: providers.EffortMedium, thinking: "enabled", budget: 8192, wantMax: 16384},
		{name: "high, capped", effort: providers.EffortHigh, thinking: "enabled", budget: 24576, wantMax: 32000},
		{name: "max_tokens below the budget is raised", effort: providers.EffortHigh, maxTokens: 4096, thinking: "enabled", budget: 24576, wantMax: 28672},
		{name: "max_tokens above the budget is kept", effort: providers.EffortLow, maxTokens: 50000, thinking: "enabled", budget: 2048, wantMax: 50000},
		{name: "temperature dropped with thinking", effort: providers.EffortLow, temp: &temp, thinking: "enabled", budget: 2048, wantMax: 10240,
			warnings: []string{"temperature_ignored"}},
		{name: "adaptive model", model: "claude-opus-4-6", effort: providers.EffortHigh, thinking: "adaptive", wantMax: 32000, outEffort: "high"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := simpleRequest()
			if tt.model != "" {
				req.Model = tt.model
			}
			req.ReasoningEffort, req.MaxTokens, req.Temperature = tt.effort, tt.maxTokens, tt.temp
			body, chunks := capture(t, req)
			var w struct {
				wireRequest
				OutputConfig struct {
					Effort string `json:"effort"`
				} `json:"output_config"`
			}
			if err := json.Unmarshal(body, &w); err != nil {
				t.Fatal(err)
			}
			var gotType string
			var gotBudget int
			if w.Thinking != nil {
				gotType, gotBudget = w.Thinking.Type, w.Thinking.BudgetTokens
			}
			if gotType != tt.thinking || gotBudget != tt.budget || w.MaxTokens != tt.wantMax || (w.Temperature != nil) != tt.wantTemp || w.OutputConfig.Effort != tt.outEffort {
				t.Errorf("got thinking %q budget %d max_tokens %d temperature %v effort %q; want %q %d %d sent=%v %q",
					gotType, gotBudget, w.MaxTokens, w.Temperature, w.OutputConfig.Effort, tt.thinking, tt.budget, tt.wantMax, tt.wantTemp, tt.outEffort)
			}
			if got := warningCodes(chunks); !slices.Equal(got, tt.warnings) {
				t.Errorf("warnings: got %q, want %q", got, tt.warnings)
			}
		})
	}
}

// TestThinkingOffForForeignToolTurn: continuing a tool loop whose assistant
// turn has no Anthropic thinking block (another provider made it) turns
// thinking off for the call, which the API would otherwise reject.
func TestThinkingOffForForeignToolTurn(t *testing.T) {
	call := providers.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{}`}
	req := &providers.Request{Model: "m", ReasoningEffort: providers.EffortMedium, Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "go"),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}, Reasoning: []providers.Reasoning{{Text: "x", Signature: "s", Provider: "google"}}},
		providers.ToolResultMessage(call, "ok", false),
	}}
	body, chunks := capture(t, req)
	if w := decodeWire(t, body); w.Thinking != nil || w.MaxTokens != 8192 {
		t.Errorf("got thinking %+v max_tokens %d, want no thinking and 8192", w.Thinking, w.MaxTokens)
	}
	if got := warningCodes(chunks); !slices.Equal(got, []string{"thinking_disabled"}) {
		t.Errorf("warnings: got %q, want thinking_disabled", got)
	}
	// Adaptive thinking may skip thinking on a turn: it stays on.
	req.Model = "claude-sonnet-4-6"
	body, chunks = capture(t, req)
	if w := decodeWire(t, body); w.Thinking == nil || w.Thinking.Type != "adaptive" || len(warningCodes(chunks)) != 0 {
		t.Errorf("adaptive: got thinking %+v and warnings %q, want adaptive thinking and none", w.Thinking, warningCodes(chunks))
	}
}

// TestWebSearch: the web search server tool is added with max_uses from
// the context size; a client tool of the same name makes it a warning.
func TestWebSearch(t *testing.T) {
	tests := []struct {
		size    string
		tools   []providers.ToolSpec
		maxUses int
		warning string
	}{
		{"low", nil, 3, ""},
		{"", nil, 5, ""},
		{"medium", []providers.ToolSpec{{Name: "read_file"}}, 5, ""},
		{"high", nil, 10, ""},
		{"high", []providers.ToolSpec{{Name: "web_search"}}, 0, "web_search_ignored"},
	}
	for _, tt := range tests {
		req := simpleRequest()
		req.WebSearch = &providers.WebSearch{ContextSize: tt.size}
		req.Tools = tt.tools
		body, chunks := capture(t, req)
		w := decodeWire(t, body)
		var got int
		for _, tool := range w.Tools {
			if tool.Type == "web_search_20250305" && tool.Name == "web_search" {
				got = tool.MaxUses
			}
		}
		codes := warningCodes(chunks)
		if got != tt.maxUses || (tt.warning == "") != (len(codes) == 0) || (tt.warning != "" && codes[0] != tt.warning) {
			t.Errorf("size %q with tools %v: got max_uses %d and warnings %q, want %d and %q", tt.size, tt.tools, got, codes, tt.maxUses, tt.warning)
		}
		if n := len(w.Tools); n > 0 && w.Tools[n-1].CacheControl == nil {
			t.Errorf("size %q: last tool has no cache_control", tt.size)
		}
	}
}

// TestBaseURL: the host root takes /v1/messages; a trailing slash or /v1
// does not double it. Extra headers are sent; no key means no x-api-key.
func TestBaseURL(t *testing.T) {
	for _, suffix := range []string{"", "/", "/v1", "/v1/"} {
		srv := replay.Serve(t, replay.Load(t, simpleStream))
		p := New(Config{BaseURL: srv.URL + suffix, Headers: map[string]string{"Anthropic-Beta": "x-1"}})
		if _, _, err := replay.Run(t.Context(), p, simpleRequest()); err != nil {
			t.Fatalf("base %q: %v", suffix, err)
		}
		r := srv.Requests()[0]
		if r.Path != "/v1/messages" || r.Header.Get("Anthropic-Beta") != "x-1" || r.Header.Get("X-Api-Key") != "" {
			t.Errorf("base %q: got path %q, anthropic-beta %q, x-api-key %q; want /v1/messages, x-1, none",
				suffix, r.Path, r.Header.Get("Anthropic-Beta"), r.Header.Get("X-Api-Key"))
		}
	}
}

// TestEnvironmentIgnored: the adapter reads no environment, so a
// stray ANTHROPIC_BASE_URL or key cannot redirect or authenticate a call.
func TestEnvironmentIgnored(t *testing.T) {
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ANTHROPIC_API_KEY", "from-env")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "from-env")
	srv := replay.Serve(t, replay.Load(t, simpleStream))
	if _, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), simpleRequest()); err != nil {
		t.Fatalf("Stream: got %v, want the configured server to answer", err)
	}
	h := srv.Requests()[0].Header
	if h.Get("X-Api-Key") != "" || h.Get("Authorization") != "" {
		t.Errorf("credentials: got x-api-key %q authorization %q, want none", h.Get("X-Api-Key"), h.Get("Authorization"))
	}
}

// TestAdaptiveModels: Claude 4.6 and later get adaptive thinking; older
// models and other servers' models get a budget.
func TestAdaptiveModels(t *testing.T) {
	for model, want := range map[string]bool{
		"claude-opus-4-6": true, "claude-sonnet-4-6": true, "claude-opus-4-7": true, "claude-sonnet-5": true,
		"claude-opus-5-5": true, "claude-mythos-preview": true, "anthropic.claude-opus-4-6-v1:0": true, "claude-opus-4-6@20260205": true,
		"claude-sonnet-4-20250514": false, "claude-sonnet-4-5-20250929": false, "claude-haiku-4-5": false, "claude-opus-4-1": false,
		"claude-3-7-sonnet-20250219": false, "claude-3-7-sonnet@20250219": false, "deepseek-chat": false, "": false,
	} {
		if got := adaptiveOnly(model); got != want {
			t.Errorf("adaptiveOnly(%q): got %v, want %v", model, got, want)
		}
	}
}
