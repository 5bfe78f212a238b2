package catalog

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

func TestAutoSelect(t *testing.T) {
	ollama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/version" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"version":"0.12.0"}`))
	}))
	defer ollama.Close()
	down := httptest.NewServer(http.NotFoundHandler())
	defer down.Close()
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"first key in order", map[string]string{"XAI_API_KEY": "x", "GEMINI_API_KEY": "g"}, "google"},
		{"openai first", map[string]string{"XAI_API_KEY": "x", "OPENAI_API_KEY": "o", "ANTHROPIC_API_KEY": "a"}, "openai"},
		{"azure is never automatic", map[string]string{"AZURE_OPENAI_API_KEY": "k", "OLLAMA_HOST": down.URL}, ""},
		{"a key wins over ollama", map[string]string{"ANTHROPIC_API_KEY": "a", "OLLAMA_HOST": ollama.URL}, "anthropic"},
		{"ollama answers", map[string]string{"OLLAMA_HOST": ollama.URL}, "ollama"},
		{"ollama does not answer", map[string]string{"OLLAMA_HOST": down.URL}, ""},
	}
	for _, tc := range cases {
		if got := AutoSelect(context.Background(), env(tc.env), nil); got != tc.want {
			t.Errorf("%s: AutoSelect(%v) got %q, want %q", tc.name, tc.env, got, tc.want)
		}
	}
}

func TestAutoKeys(t *testing.T) {
	want := []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "XAI_API_KEY"}
	if got := AutoKeys(); !slices.Equal(got, want) {
		t.Errorf("AutoKeys: got %v, want %v", got, want)
	}
	for _, k := range AutoKeys() {
		if got := AutoSelect(context.Background(), env(map[string]string{k: "x"}), nil); got == "" {
			t.Errorf("AutoSelect with only %s set picked nothing", k)
		}
	}
}

func TestWebSearchIgnored(t *testing.T) {
	cases := []struct {
		name    string
		ignored bool
	}{
		{"openai", false}, {"anthropic", false}, {"google", true}, {"xai", true}, {"azure", true},
		{"openai-compatible", true}, {"ollama", true}, {"scripted", true}, {"nonesuch", false},
	}
	for _, tc := range cases {
		why, ignored := WebSearchIgnored(tc.name)
		if ignored != tc.ignored || ignored != (why != "") {
			t.Errorf("WebSearchIgnored(%q): got %v %q, want ignored %v with a reason", tc.name, ignored, why, tc.ignored)
		}
	}
}
