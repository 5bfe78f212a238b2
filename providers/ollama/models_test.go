package ollama

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestSupportedModels: the models are the ones the server has pulled
// (GET /api/tags).
func TestSupportedModels(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"models":[{"name":"qwen3:8b","model":"qwen3:8b","size":5225388164},{"name":"llama3.2:latest","model":"llama3.2:latest"}]}`))
	}))
	defer srv.Close()
	got, err := New(Config{BaseURL: srv.URL}).SupportedModels(context.Background())
	if err != nil || !slices.Equal(got, []string{"llama3.2:latest", "qwen3:8b"}) {
		t.Errorf("got %v, %v; want the pulled models, sorted", got, err)
	}
}
