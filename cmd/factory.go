package cmd

import (
	"net/http"
	"runtime/debug"
	"sync"

	"github.com/llmrt/llmrt/cmd/config"
)

// version is set at build time with -ldflags "-X github.com/llmrt/llmrt/cmd.version=...".
var version = ""

// Factory hands out lazily built dependencies, so `llmrt --help` does no IO.
type Factory struct {
	IO     *IO
	Getenv func(string) string
	// HTTPClient, when set, is used for every provider (tests).
	HTTPClient *http.Client

	mu      sync.Mutex
	configs map[string]*config.Config
	closers []func()
}

// NewFactory returns a Factory for the given streams and environment.
func NewFactory(io *IO, getenv func(string) string) *Factory {
	return &Factory{IO: io, Getenv: getenv, configs: make(map[string]*config.Config)}
}

// Config loads the configuration layers for a working directory, once.
func (f *Factory) Config(dir string, extra []string) (*config.Config, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := dir
	for _, e := range extra {
		key += "\x00" + e
	}
	if c, ok := f.configs[key]; ok {
		return c, nil
	}
	c, err := config.Load(config.Options{Dir: dir, Getenv: f.Getenv, ExtraFiles: extra})
	if err != nil {
		return nil, err
	}
	f.configs[key] = c
	return c, nil
}

// OnClose registers cleanup run when the command ends.
func (f *Factory) OnClose(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closers = append(f.closers, fn)
}

// Close runs the registered cleanups, newest first.
func (f *Factory) Close() {
	f.mu.Lock()
	closers := f.closers
	f.closers = nil
	f.mu.Unlock()
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i]()
	}
}

// Version returns the build's version.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
