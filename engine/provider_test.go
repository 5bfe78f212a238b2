package engine_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// TestSupportedModels: a runtime asks a provider, by name or the default
// one, for its models; a provider that cannot say is ErrModelsUnknown, and
// a name the runtime does not know is ErrNoProvider.
func TestSupportedModels(t *testing.T) {
	sp := scripted.New()
	sp.Register("b-script", &scripted.Script{})
	sp.Register("a-script", &scripted.Script{})
	rt, err := engine.New(engine.Config{Adapters: []engine.Provider{sp}, Providers: map[string]providers.Provider{"wrapped": plain{sp}},
		Defaults: engine.Defaults{Provider: "scripted"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ctx := context.Background()
	for _, name := range []string{"", "scripted"} {
		if got, err := rt.SupportedModels(ctx, name); err != nil || !slices.Equal(got, []string{"a-script", "b-script"}) {
			t.Errorf("%q: got %v, %v; want the registered scripts", name, got, err)
		}
	}
	if _, err := rt.SupportedModels(ctx, "wrapped"); !errors.Is(err, providers.ErrModelsUnknown) {
		t.Errorf("a provider that does not list: got %v, want ErrModelsUnknown", err)
	}
	if _, err := rt.SupportedModels(ctx, "nope"); !errors.Is(err, engine.ErrNoProvider) {
		t.Errorf("unknown provider: got %v, want ErrNoProvider", err)
	}
}
