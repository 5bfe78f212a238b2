package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/runcode"
)

// Config is the stable state of a Runtime.
type Config struct {
	// Providers maps a provider name (Request.Provider) to its adapter.
	Providers map[string]providers.Provider
	// BuiltinOptions configures the built-in tools.
	BuiltinOptions tools.Options
	// Sources supply tools from outside requests (MCP servers, a skill
	// catalogue), offered to every run besides its built-ins and host
	// tools. The Runtime starts them (see Start) and closes them.
	Sources []ToolSource
	// Defaults fill zero fields of each request.
	Defaults Defaults
	// RunCode bounds run_code programs (time, steps, output).
	RunCode runcode.Options
	// SpawnDepth is how deep spawn_agent sub-runs may nest: zero means
	// DefaultSpawnDepth, negative forbids sub-runs.
	SpawnDepth int
}

// Defaults are request settings applied when a request leaves them zero.
type Defaults struct {
	MaxIterations   int
	ReasoningEffort providers.Effort
	Permission      Mode
	Finish          FinishPolicy
	Retry           providers.RetryPolicy
	MaxResultBytes  int
}

// Runtime runs requests against a fixed set of providers and tool sources.
// It is safe for concurrent use. Its life is New, Start (or the first run,
// which starts it), any number of runs, then Close.
type Runtime struct {
	cfg     Config
	schemas schemaCache

	life       sync.Mutex // held while starting and closing
	started    atomic.Bool
	closed     atomic.Bool
	active     []ToolSource // sources that started; set once, before started
	startDiags []Diagnostic
	closeErr   error
}

// New returns a Runtime for cfg.
func New(cfg Config) (*Runtime, error) {
	for name, p := range cfg.Providers {
		if p == nil {
			return nil, fmt.Errorf("engine: provider %q is nil", name)
		}
	}
	for i, src := range cfg.Sources {
		if src == nil {
			return nil, fmt.Errorf("engine: tool source %d is nil", i)
		}
	}
	return &Runtime{cfg: cfg}, nil
}

// Start starts the tool sources that need it (those implementing
// Starter), concurrently, and waits for them. A source that fails to start
// is left out of every run and reported as a diagnostic; the others work.
// Start is idempotent. A Runtime that was not started starts on its first
// run, with that run's context, so call Start to bound start-up on its own
// context. It fails only on a closed Runtime.
func (rt *Runtime) Start(ctx context.Context) error {
	if rt.started.Load() {
		return rt.checkOpen()
	}
	rt.life.Lock()
	defer rt.life.Unlock()
	if err := rt.checkOpen(); err != nil || rt.started.Load() {
		return err
	}
	errs := make([]error, len(rt.cfg.Sources))
	var wg sync.WaitGroup
	for i, src := range rt.cfg.Sources {
		if s, ok := src.(Starter); ok {
			wg.Go(func() { errs[i] = s.Start(ctx) })
		}
	}
	wg.Wait()
	for i, src := range rt.cfg.Sources {
		if errs[i] != nil {
			rt.startDiags = append(rt.startDiags, Diagnostic{Source: "tool source", Message: "did not start: " + errs[i].Error()})
			continue
		}
		rt.active = append(rt.active, src)
	}
	rt.started.Store(true)
	return nil
}

func (rt *Runtime) checkOpen() error {
	if rt.closed.Load() {
		return invalidRequest("the runtime is closed")
	}
	return nil
}

// Close closes every tool source that implements io.Closer (stopping MCP
// servers), concurrently, and refuses later runs. It is idempotent, waits
// for a Start in progress, and is safe on a nil Runtime.
func (rt *Runtime) Close() error {
	if rt == nil {
		return nil
	}
	rt.life.Lock()
	defer rt.life.Unlock()
	if rt.closed.Swap(true) {
		return rt.closeErr
	}
	errs := make([]error, len(rt.cfg.Sources))
	var wg sync.WaitGroup
	for i, src := range rt.cfg.Sources {
		if c, ok := src.(io.Closer); ok {
			wg.Go(func() { errs[i] = c.Close() })
		}
	}
	wg.Wait()
	rt.closeErr = errors.Join(errs...)
	return rt.closeErr
}

const (
	defaultMaxIterations  = 24
	defaultEmptyRetries   = 2
	defaultMaxResultBytes = 32 * 1024
)

// prepare validates req and fills defaults. Errors are misuse. Without
// needModel, the provider and model may be left empty (tool calls only).
func (rt *Runtime) prepare(req Request, needModel bool) (Request, providers.Provider, error) {
	if err := rt.checkOpen(); err != nil {
		return req, nil, err
	}
	p, err := rt.providerFor(req, needModel)
	if err != nil {
		return req, nil, err
	}
	d := rt.cfg.Defaults
	if req.MaxIterations <= 0 {
		req.MaxIterations = cmpOr(d.MaxIterations, defaultMaxIterations)
	}
	switch {
	case req.EmptyRetryLimit == 0:
		req.EmptyRetryLimit = defaultEmptyRetries
	case req.EmptyRetryLimit < 0:
		req.EmptyRetryLimit = 0
	}
	if req.ReasoningEffort == "" {
		req.ReasoningEffort = d.ReasoningEffort
	}
	if req.Permission.Mode == "" {
		req.Permission.Mode = d.Permission
		if req.Permission.Mode == "" {
			req.Permission.Mode = ModeAuto
		}
	}
	if _, err := ParseMode(string(req.Permission.Mode)); err != nil {
		return req, nil, invalidRequest("%v", err)
	}
	if req.Finish == "" {
		req.Finish = d.Finish
	}
	if req.Finish, err = ParseFinish(string(req.Finish)); err != nil {
		return req, nil, invalidRequest("%v", err)
	}
	if req.Retry == (providers.RetryPolicy{}) {
		req.Retry = d.Retry
	}
	if req.MaxResultBytes <= 0 {
		req.MaxResultBytes = cmpOr(d.MaxResultBytes, defaultMaxResultBytes)
	}
	if _, err := providers.ParseEffort(string(req.ReasoningEffort)); err != nil {
		return req, nil, invalidRequest("%v", err)
	}
	return req, p, nil
}

func cmpOr[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}

func (rt *Runtime) providerFor(req Request, needModel bool) (providers.Provider, error) {
	if !needModel && req.Provider == "" {
		return nil, nil
	}
	if req.Provider == "" {
		return nil, invalidRequest("no provider set")
	}
	p, ok := rt.cfg.Providers[req.Provider]
	if !ok {
		names := make([]string, 0, len(rt.cfg.Providers))
		for n := range rt.cfg.Providers {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, invalidRequest("unknown provider %q (configured: %s)", req.Provider, strings.Join(names, ", "))
	}
	if needModel && req.Model == "" {
		return nil, invalidRequest("no model set for provider %s", req.Provider)
	}
	return p, nil
}
