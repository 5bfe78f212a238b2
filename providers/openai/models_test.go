package openai

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

// TestSupportedModels: openai and xai answer from the adapter's table, an
// OpenAI-compatible server is asked (GET /models, with the key), and
// Azure cannot know its deployments' names.
func TestSupportedModels(t *testing.T) {
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		auth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[{"id":"qwen3-8b","object":"model"},{"id":"llama-3.1-8b","object":"model"}]}`))
	}))
	defer srv.Close()
	ctx := context.Background()
	got, err := New(Config{Name: NameCompatible, BaseURL: srv.URL + "/v1", APIKey: testKey}).SupportedModels(ctx)
	if err != nil || !slices.Equal(got, []string{"llama-3.1-8b", "qwen3-8b"}) || auth != "Bearer "+testKey {
		t.Errorf("compatible: got %v, %v (auth %q); want the server's models, sorted, asked with the key", got, err, auth)
	}
	_, err = New(Config{Name: NameCompatible, BaseURL: srv.URL + "/nope", APIKey: testKey}).SupportedModels(ctx)
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.StatusCode != http.StatusNotFound {
		t.Errorf("compatible without /models: got %v, want a 404 *providers.Error", err)
	}
	for _, name := range []string{NameOpenAI, NameXAI} {
		if got, err := New(Config{Name: name, APIKey: testKey}).SupportedModels(ctx); err != nil || len(got) == 0 {
			t.Errorf("%s: got %v, %v; want the adapter's table", name, got, err)
		}
	}
	if _, err := New(Config{Name: NameAzure, BaseURL: srv.URL}).SupportedModels(ctx); !errors.Is(err, providers.ErrModelsUnknown) {
		t.Errorf("azure: got %v, want ErrModelsUnknown", err)
	}
}
