package cmd

import (
	"net/http"

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
}

// NewFactory returns a Factory for the given streams and environment.
func NewFactory(io *IO, getenv func(string) string) *Factory {
	return &Factory{IO: io, Getenv: getenv, secrets: &redactor{}}
}

// Sessions returns the store saved sessions live in
// ($XDG_STATE_HOME/llmrt/sessions).
func (f *Factory) Sessions() *session.Store {
	return &session.Store{Dir: session.DefaultDir(f.Getenv)}
}
