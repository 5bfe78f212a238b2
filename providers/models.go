package providers

import (
	"context"
	"errors"
)

// ModelLister is implemented by adapters that can say which models they
// serve (seed LLM Gateway's supportedModels()), for a host offering a
// choice of models. An adapter answers from its own table where its API's
// models are public and few, and asks the server where the server decides
// (Ollama's pulled models, an OpenAI-compatible server's /models). The
// list is sorted. An adapter that cannot know returns an error matching
// ErrModelsUnknown.
type ModelLister interface {
	SupportedModels(ctx context.Context) ([]string, error)
}

// ErrModelsUnknown says a provider cannot list the models it serves: it
// does not implement ModelLister, or its models are named by their owner
// (Azure deployments).
var ErrModelsUnknown = errors.New("the provider cannot list its models")
