package catalog

import (
	"fmt"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/anthropic"
	"github.com/llmrt/llmrt/providers/google"
	"github.com/llmrt/llmrt/providers/ollama"
)

// newNative builds the providers with their own SDKs or wire protocols.
func newNative(name, base string, s Settings) (providers.Provider, error) {
	switch name {
	case "anthropic":
		return anthropic.New(anthropic.Config{BaseURL: base, APIKey: s.APIKey, HTTPClient: s.HTTPClient, Timeouts: s.Timeouts}), nil
	case "google":
		return google.New(google.Config{BaseURL: base, APIKey: s.APIKey, HTTPClient: s.HTTPClient, Timeouts: s.Timeouts}), nil
	case "ollama":
		return ollama.New(ollama.Config{BaseURL: base, APIKey: s.APIKey, HTTPClient: s.HTTPClient, Timeouts: s.Timeouts}), nil
	}
	return nil, fmt.Errorf("provider %s is not available in this build", name)
}
