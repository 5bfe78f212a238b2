package catalog

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFromEnv(t *testing.T) {
	e := env(map[string]string{"GOOGLE_API_KEY": "g", "OPENAI_API_KEY": "o", "AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com",
		"AZURE_OPENAI_API_VERSION": "2024-10-21", "AZURE_OPENAI_API_KEY": "a"})
	if s := FromEnv("google", e); s.APIKey != "g" {
		t.Errorf("google should fall back to GOOGLE_API_KEY: %+v", s)
	}
	if s := FromEnv("azure", e); s.BaseURL != "https://r.openai.azure.com" || s.APIVersion != "2024-10-21" || s.APIKey != "a" {
		t.Errorf("azure: %+v", s)
	}
	e2 := env(map[string]string{"OPENAI_BASE_URL": "http://a/v1", "LLMRT_BASE_URL": "http://b/v1"})
	if s := FromEnv("openai", e2); s.BaseURL != "http://b/v1" {
		t.Errorf("LLMRT_BASE_URL should override: %+v", s)
	}
	if !HasKey("openai", e) || HasKey("anthropic", e) {
		t.Errorf("HasKey")
	}
}

func TestNew(t *testing.T) {
	cases := []struct {
		name    string
		s       Settings
		wantVar string
	}{
		{"openai", Settings{}, "OPENAI_API_KEY"},
		{"anthropic", Settings{}, "ANTHROPIC_API_KEY"},
		{"google", Settings{}, "GEMINI_API_KEY"},
		{"azure", Settings{APIKey: "k"}, "AZURE_OPENAI_ENDPOINT"},
		{"openai-compatible", Settings{}, "OPENAI_COMPATIBLE_BASE_URL"},
		{"openai-compatible", Settings{BaseURL: "http://localhost:8000/v1"}, ""},
		{"ollama", Settings{}, ""},
		{"scripted", Settings{}, ""},
		{"xai", Settings{APIKey: "k"}, ""},
	}
	for _, tc := range cases {
		p, err := New(tc.name, tc.s)
		var se *providers.SetupError
		switch {
		case tc.wantVar == "" && (err != nil || p == nil || p.Name() != tc.name):
			t.Errorf("%s: got %v, %v", tc.name, p, err)
		case tc.wantVar != "" && (!errors.As(err, &se) || !strings.Contains(err.Error(), tc.wantVar)):
			t.Errorf("%s: got %v, want a setup error naming %s", tc.name, err, tc.wantVar)
		}
	}
	if _, err := New("nope", Settings{}); err == nil || !strings.Contains(err.Error(), "known:") {
		t.Errorf("unknown provider: %v", err)
	}
	for _, n := range Names() {
		if _, ok := Lookup(n); !ok {
			t.Errorf("Lookup(%s)", n)
		}
	}
}

// TestNewAPI: openai speaks the Responses API unless told chat, at its
// default URL or a base URL; the other OpenAI-family providers speak
// Chat Completions and have no choice.
func TestNewAPI(t *testing.T) {
	cases := []struct {
		name string
		s    Settings
		want string // the adapter's type, or "error"
	}{
		{"openai", Settings{APIKey: "k"}, "*openai.Responses"},
		{"openai", Settings{APIKey: "k", BaseURL: "https://proxy.example/v1"}, "*openai.Responses"},
		{"openai", Settings{APIKey: "k", API: APIResponses}, "*openai.Responses"},
		{"openai", Settings{APIKey: "k", BaseURL: "https://proxy.example/v1", API: APIChat}, "*openai.Provider"},
		{"xai", Settings{APIKey: "k"}, "*openai.Provider"},
		{"azure", Settings{APIKey: "k", BaseURL: "https://r.openai.azure.com"}, "*openai.Provider"},
		{"openai-compatible", Settings{BaseURL: "http://localhost:8000/v1"}, "*openai.Provider"},
		{"azure", Settings{APIKey: "k", BaseURL: "https://r.openai.azure.com", API: APIResponses}, "error"},
		{"anthropic", Settings{APIKey: "k", API: APIChat}, "error"},
		{"openai", Settings{APIKey: "k", API: "completions"}, "error"},
	}
	for _, tc := range cases {
		p, err := New(tc.name, tc.s)
		got := "error"
		if err == nil {
			got = fmt.Sprintf("%T", p)
		}
		if got != tc.want {
			t.Errorf("New(%s, api %q): got %s (%v), want %s", tc.name, tc.s.API, got, err, tc.want)
		}
	}
}
