package engine

import (
	"context"
	"fmt"

	"github.com/llmrt/llmrt/providers"
)

// SupportedModels returns the models the named provider serves, sorted,
// for a host offering a choice; empty names the default provider. A
// provider that cannot say (one that does not implement
// providers.ModelLister, or Azure) is an error matching
// providers.ErrModelsUnknown; a name the runtime does not know matches
// ErrNoProvider. The adapter may ask its server, so ctx bounds the call.
func (rt *Runtime) SupportedModels(ctx context.Context, provider string) ([]string, error) {
	if err := rt.checkOpen(); err != nil {
		return nil, err
	}
	name := cmpOr(provider, rt.defaultProvider)
	if name == "" {
		return nil, noProvider("no provider named and no default provider (configured: %s)", providerNames(rt.providers))
	}
	p, ok := rt.providers[name]
	if !ok {
		return nil, noProvider("unknown provider %q (configured: %s)", name, providerNames(rt.providers))
	}
	lister, ok := p.(providers.ModelLister)
	if !ok {
		return nil, fmt.Errorf("%s: %w", name, providers.ErrModelsUnknown)
	}
	return lister.SupportedModels(ctx)
}
