package google

import (
	"context"
	"slices"

	"github.com/llmrt/llmrt/providers"
)

// knownModels are the Gemini models of generateContent that chat with
// tools, as far as this release knows them, sorted.
var knownModels = []string{
	"gemini-2.0-flash", "gemini-2.0-flash-lite", "gemini-2.5-flash", "gemini-2.5-flash-lite",
	"gemini-2.5-pro", "gemini-3-pro-preview",
}

// SupportedModels lists the Gemini models this adapter knows. See
// providers.ModelLister.
func (p *Provider) SupportedModels(context.Context) ([]string, error) {
	return slices.Clone(knownModels), nil
}

var _ providers.ModelLister = (*Provider)(nil)
