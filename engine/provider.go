package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

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

// providerFor picks the request's provider, filling Provider and Model
// from the Runtime's defaults when the request leaves them empty.
func (rt *Runtime) providerFor(req *Request, needModel bool) (providers.Provider, error) {
	if !needModel && req.Provider == "" {
		return nil, nil
	}
	if req.Provider == "" {
		req.Provider = rt.defaultProvider
	}
	if req.Provider == "" {
		return nil, noProvider("no provider set: set Request.Provider or Config.Defaults.Provider (configured: %s)", providerNames(rt.providers))
	}
	p, ok := rt.providers[req.Provider]
	if !ok {
		var err error
		if p, err = rt.open(req.Provider); err != nil {
			return nil, err
		}
	}
	if req.Model == "" && req.Provider == rt.defaultProvider {
		req.Model = rt.cfg.Defaults.Model
	}
	if needModel && req.Model == "" {
		if req.Provider == rt.defaultProvider {
			return nil, noProvider("no model set for provider %s: set Request.Model or Config.Defaults.Model", req.Provider)
		}
		return nil, noProvider("no model set for provider %s: set Request.Model (Config.Defaults.Model applies to the default provider, %s)", req.Provider, cmpOr(rt.defaultProvider, "none here"))
	}
	return p, nil
}

func noProvider(format string, args ...any) *RunError {
	e := invalidRequest(format, args...)
	e.Err = ErrNoProvider
	return e
}

func providerNames(m map[string]providers.Provider) string {
	if len(m) == 0 {
		return "none"
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
