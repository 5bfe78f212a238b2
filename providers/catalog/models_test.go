package catalog

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

// TestSupportedModels: every provider built here says which models it
// serves, or that it cannot know (Azure's deployments are named by their
// owner). A provider whose list is its own table includes its default
// model; the servers that list their models themselves (Ollama, an
// OpenAI-compatible server) are asked, which is tested with each adapter.
func TestSupportedModels(t *testing.T) {
	for _, name := range Names() {
		p, err := New(name, Settings{APIKey: "k", BaseURL: "http://127.0.0.1:1"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lister, ok := p.(providers.ModelLister)
		if !ok {
			t.Errorf("%s: %T does not list its models", name, p)
			continue
		}
		spec, _ := Lookup(name)
		switch name {
		case "azure":
			if _, err := lister.SupportedModels(context.Background()); !errors.Is(err, providers.ErrModelsUnknown) {
				t.Errorf("azure: got %v, want ErrModelsUnknown", err)
			}
		case "openai", "anthropic", "google", "xai":
			models, err := lister.SupportedModels(context.Background())
			if err != nil || !slices.Contains(models, spec.DefaultModel) {
				t.Errorf("%s: got %v, %v; want a list holding the default model %s", name, models, err, spec.DefaultModel)
			}
		}
	}
}
