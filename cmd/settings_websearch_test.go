package cmd_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestWebSearchRuleMatchesTheAdapters: the diagnostic that --web-search
// is ignored, decided before the run from the provider catalogue (and
// refused by --strict), is given exactly for the providers whose adapter
// then sends the request without web search, so the one rule cannot drift
// from what the adapters do.
func TestWebSearchRuleMatchesTheAdapters(t *testing.T) {
	cases := []struct {
		provider string
		protocol string
		env      func(url string) map[string]string
		ignored  bool
	}{
		{"openai", fakellm.OpenAI, func(u string) map[string]string {
			return map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": u + "/v1"}
		}, false},
		{"xai", fakellm.OpenAI, func(u string) map[string]string {
			return map[string]string{"XAI_API_KEY": "xai-test", "XAI_BASE_URL": u + "/v1"}
		}, true},
		{"azure", fakellm.OpenAI, func(u string) map[string]string {
			return map[string]string{"AZURE_OPENAI_API_KEY": "az-test", "AZURE_OPENAI_ENDPOINT": u, "AZURE_OPENAI_API_VERSION": "2024-10-21"}
		}, true},
		{"openai-compatible", fakellm.OpenAI, func(u string) map[string]string {
			return map[string]string{"OPENAI_COMPATIBLE_BASE_URL": u + "/v1"}
		}, true},
		{"anthropic", fakellm.Anthropic, func(u string) map[string]string {
			return map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": u}
		}, false},
		{"google", fakellm.Gemini, func(u string) map[string]string {
			return map[string]string{"GEMINI_API_KEY": "gem-test", "GOOGLE_GEMINI_BASE_URL": u}
		}, true},
		{"ollama", fakellm.Ollama, func(u string) map[string]string { return map[string]string{"OLLAMA_HOST": u} }, true},
	}
	for _, tc := range cases {
		t.Run(tc.provider, func(t *testing.T) {
			sb := newSandbox(t)
			srv := fake(t, tc.protocol, finalAnswer("ok"))
			o := sb.run(cli{args: []string{"run", "--provider", tc.provider, "--model", "test-model", "--web-search", "-o", "json", "-p", "hi"}, env: tc.env(srv.URL)})
			o.want(t, 0)
			var got struct {
				Warnings []struct {
					Code string `json:"code"`
				} `json:"warnings"`
				Diagnostics []string `json:"diagnostics"`
			}
			if err := json.Unmarshal([]byte(o.stdout), &got); err != nil {
				t.Fatalf("stdout is not one JSON object: %v\n%s", err, o.stdout)
			}
			warned := false
			for _, w := range got.Warnings {
				warned = warned || w.Code == "web_search_ignored"
			}
			diagnosed := strings.Contains(strings.Join(got.Diagnostics, "\n"), "--web-search is ignored")
			if warned != tc.ignored || diagnosed != tc.ignored {
				t.Errorf("adapter warned %v, catalogue diagnosed %v; want both %v\n%s", warned, diagnosed, tc.ignored, o.stdout)
			}
		})
	}
}
