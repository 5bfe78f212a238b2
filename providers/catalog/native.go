package catalog

import (
	"fmt"

	"github.com/llmrt/llmrt/providers"
)

// newNative builds the providers with their own SDKs or wire protocols.
func newNative(name, base string, s Settings) (providers.Provider, error) {
	return nil, fmt.Errorf("provider %s is not available in this build", name)
}
