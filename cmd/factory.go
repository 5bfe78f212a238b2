package cmd

import (
	"net/http"
	"sync"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine/session"
)

// Factory hands out lazily built dependencies, so `llmrt --help` does no IO.
type Factory struct {
	IO     *IO
	Getenv func(string) string
	// HTTPClient, when set, is used for every provider (tests).
	HTTPClient *http.Client

	// secrets are the values redacted from everything llmrt writes but
	// the answer; settings fill it as they find keys.
	secrets *redactor

	mu      sync.Mutex
	configs map[string]*config.Config
}

// NewFactory returns a Factory for the given streams and environment.
func NewFactory(io *IO, getenv func(string) string) *Factory {
	return &Factory{IO: io, Getenv: getenv, secrets: &redactor{}, configs: make(map[string]*config.Config)}
}

// Config loads the configuration layers for a working directory, once.
func (f *Factory) Config(dir string) (*config.Config, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.configs[dir]; ok {
		return c, nil
	}
	c, err := config.Load(config.Options{Dir: dir, Getenv: f.Getenv})
	if err != nil {
		return nil, err
	}
	f.configs[dir] = c
	return c, nil
}

// Sessions returns the store saved sessions live in
// ($XDG_STATE_HOME/llmrt/sessions).
func (f *Factory) Sessions() *session.Store {
	return &session.Store{Dir: session.DefaultDir(f.Getenv)}
}
