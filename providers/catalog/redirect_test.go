package catalog

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

// TestRedirectElsewhereKeepsTheKey: a server that redirects a model call
// to another host does not get the key sent there, whichever header the
// provider carries it in (Authorization, Api-Key, X-Api-Key,
// X-Goog-Api-Key, Ollama's bearer): the call fails with an error naming
// both addresses, not retried, and the other host sees no request.
func TestRedirectElsewhereKeepsTheKey(t *testing.T) {
	const key = "sk-redirect-5ecret"
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		for _, vs := range r.Header {
			for _, v := range vs {
				if strings.Contains(v, key) {
					t.Errorf("the key reached the other host in %s %s", r.Method, r.URL)
				}
			}
		}
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer other.Close()
	var hits atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer api.Close()

	for _, name := range []string{"openai", "azure", "xai", "openai-compatible", "anthropic", "google", "ollama"} {
		t.Run(name, func(t *testing.T) {
			elsewhere.Store(0)
			hits.Store(0)
			s := Settings{APIKey: key, BaseURL: api.URL, APIVersion: "2024-10-21"}
			if name == "openai" {
				s.API = APIChat
			}
			p, err := New(name, s)
			if err != nil {
				t.Fatal(err)
			}
			req := &providers.Request{Model: "m", Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}}
			err = p.Stream(context.Background(), req, func(providers.Chunk) {})
			if err == nil {
				t.Fatal("the call succeeded through a redirect to another host")
			}
			if !strings.Contains(err.Error(), other.URL[len("http://"):]) || !strings.Contains(err.Error(), "redirect") {
				t.Errorf("the error should say the server redirected to another host: %v", err)
			}
			if pe, ok := errors.AsType[*providers.Error](err); !ok || pe.Retryable {
				t.Errorf("a redirect elsewhere is not worth retrying: %v", err)
			}
			if n := elsewhere.Load(); n != 0 {
				t.Errorf("the other host got %d requests", n)
			}
		})
	}
}
