package openai

import (
	"context"
	"fmt"
	"slices"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// knownModels are the chat models of the hosted APIs this adapter
// serves, as far as this release knows them, sorted. Their servers list
// many more (embeddings, speech, images, snapshots), which a chat cannot
// use.
var knownModels = map[string][]string{
	NameOpenAI: {"gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "gpt-5", "gpt-5-mini", "gpt-5-nano", "o3", "o3-mini", "o4-mini"},
	NameXAI:    {"grok-3", "grok-3-mini", "grok-4", "grok-4-fast", "grok-4-fast-non-reasoning", "grok-code-fast-1"},
}

// SupportedModels lists the models this provider serves: the table of
// the hosted APIs for openai and xai, the server's own list (GET /models)
// for openai-compatible, and ErrModelsUnknown for azure, whose
// deployments are named by their owner. See providers.ModelLister.
func (p *Provider) SupportedModels(ctx context.Context) ([]string, error) {
	return p.cfg.supportedModels(ctx)
}

func (c *Config) supportedModels(ctx context.Context) ([]string, error) {
	switch c.Name {
	case NameOpenAI, NameXAI:
		return slices.Clone(knownModels[c.Name]), nil
	case NameCompatible:
		if c.BaseURL == "" {
			return nil, c.missingBaseURL()
		}
		type list struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		return adapter.ListModels(ctx, c.HTTPClient, c.Name, c.BaseURL+"/models", c.Timeouts, c.setHeaders,
			func(l *list) []string {
				ids := make([]string, 0, len(l.Data))
				for _, m := range l.Data {
					ids = append(ids, m.ID)
				}
				return ids
			})
	}
	return nil, fmt.Errorf("%s: %w: a deployment's name is its model's name here", c.Name, providers.ErrModelsUnknown)
}

var _ providers.ModelLister = (*Provider)(nil)
