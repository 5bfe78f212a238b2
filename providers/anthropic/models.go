package anthropic

import (
	"context"
	"slices"

	"github.com/llmrt/llmrt/providers"
)

// knownModels are the Claude models of the Messages API as far as this
// release knows them (aliases, which follow the latest snapshot), sorted.
var knownModels = []string{
	"claude-3-5-haiku-latest", "claude-3-7-sonnet-latest", "claude-haiku-4-5",
	"claude-opus-4-0", "claude-opus-4-1", "claude-sonnet-4-0", "claude-sonnet-4-5",
}

// SupportedModels lists the Claude models this adapter knows. See
// providers.ModelLister.
func (p *Provider) SupportedModels(context.Context) ([]string, error) {
	return slices.Clone(knownModels), nil
}

var _ providers.ModelLister = (*Provider)(nil)
