package ollama

import (
	"context"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// SupportedModels lists the models the server has pulled (GET /api/tags),
// sorted. See providers.ModelLister.
func (p *Provider) SupportedModels(ctx context.Context) ([]string, error) {
	type tags struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	return adapter.ListModels(ctx, p.cfg.HTTPClient, Name, p.base+"/api/tags", p.cfg.Timeouts, p.setHeaders,
		func(t *tags) []string {
			names := make([]string, 0, len(t.Models))
			for _, m := range t.Models {
				names = append(names, m.Name)
			}
			return names
		})
}

var _ providers.ModelLister = (*Provider)(nil)
