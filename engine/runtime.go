package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/runcode"
)

// Config is the stable state of a Runtime.
type Config struct {
	// Adapters are providers known by their own names (Provider.Name):
	// openai.New(openai.Config{APIKey: key}) is the provider "openai".
	Adapters []providers.Provider
	// Providers maps further provider names (Request.Provider) to
	// adapters, for a host that wants names of its own ("claude", "work").
	// A name may not be given twice across Adapters and Providers.
	Providers map[string]providers.Provider
	// BuiltinOptions configures the built-in tools.
	BuiltinOptions tools.Options
	// Sources supply tools from outside requests (MCP servers, a skill
	// catalogue), offered to every run besides its built-ins and host
	// tools. The Runtime starts them (see Start) and closes them.
	Sources []ToolSource
	// Defaults fill zero fields of each request.
	Defaults Defaults
	// RunCode configures run_code: the bounds of its programs (time,
	// steps, output), the runtime that runs them (Starlark unless
	// RunCode.Runtime is another language's) and globals of the host's
	// that every program sees beside the tools' functions.
	RunCode runcode.Options
	// Agents are the named sub-agents spawn_agent offers: with some,
	// its agent argument picks one (see AgentDef). Names must be unique.
	Agents []AgentDef
	// OpenProvider builds a provider the runtime was not given, by name,
	// when a request (an agent's sub-run) names one: the host owns keys
	// and endpoints, so the runtime never builds a provider itself. Each
	// name is built once. nil: such a request fails as an unknown
	// provider.
	OpenProvider func(name string) (providers.Provider, error)
	// SpawnDepth is how deep spawn_agent sub-runs may nest: zero means
	// DefaultSpawnDepth, negative forbids sub-runs.
	SpawnDepth int
	// Reporter, when set, hears every run's warnings as they happen.
	Reporter Reporter
	// Checkpoints keeps paused runs, so that a paused Result carries a
	// token and Resume goes on with it in any process sharing the store.
	// nil: runs still pause, without a token.
	Checkpoints CheckpointStore
	// Interrupt is what a pause does to the run's work; empty means
	// InterruptContinue.
	Interrupt InterruptMode
}

// Defaults are request settings applied when a request leaves them zero.
type Defaults struct {
	// Provider is the provider of requests that name none. Empty means
	// the only configured provider, when there is exactly one.
	Provider string
	// Model is the model of requests that name none and use the default
	// provider.
	Model string

	MaxIterations   int
	ReasoningEffort providers.Effort
	Permission      Mode
	Finish          FinishPolicy
	Retry           providers.RetryPolicy
	MaxResultBytes  int
	// Strict makes every request strict (Request.Strict).
	Strict bool
}

// Runtime runs requests against a fixed set of providers and tool sources.
// It is safe for concurrent use. Its life is New, Start (or the first run,
// which starts it), any number of runs, then Close.
type Runtime struct {
	cfg     Config
	schemas schemaCache
	// providers is every configured provider by name, and defaultProvider
	// the name of the one requests get when they name none.
	providers       map[string]providers.Provider
	defaultProvider string
	opened          openedProviders // those Config.OpenProvider built

	life       sync.Mutex // held while starting and closing
	started    atomic.Bool
	closed     atomic.Bool
	active     []ToolSource // sources that started; set once, before started
	startDiags []Diagnostic
	closeErr   error
}

// New returns a Runtime for cfg. A nil adapter or source, a provider name
// given twice, a default provider that is not configured and a run_code
// global that is not an identifier are errors matching ErrInvalidRequest.
func New(cfg Config) (*Runtime, error) {
	byName := make(map[string]providers.Provider, len(cfg.Adapters)+len(cfg.Providers))
	for i, p := range cfg.Adapters {
		if p == nil {
			return nil, configError("adapter %d is nil", i)
		}
		name := p.Name()
		if _, dup := byName[name]; dup {
			return nil, configError("two adapters are named %q; register one of them under another name in Config.Providers", name)
		}
		byName[name] = p
	}
	for name, p := range cfg.Providers {
		if p == nil {
			return nil, configError("provider %q is nil", name)
		}
		if _, dup := byName[name]; dup {
			return nil, configError("provider %q is given in both Config.Adapters and Config.Providers", name)
		}
		byName[name] = p
	}
	for i, src := range cfg.Sources {
		if src == nil {
			return nil, configError("tool source %d is nil", i)
		}
	}
	if err := checkAgents(cfg.Agents); err != nil {
		return nil, err
	}
	if err := cfg.RunCode.Validate(); err != nil {
		return nil, configError("%v", err)
	}
	def := cfg.Defaults.Provider
	if def == "" && len(byName) == 1 {
		for name := range byName {
			def = name
		}
	}
	if _, ok := byName[def]; def != "" && !ok {
		return nil, configError("default provider %q is not configured (configured: %s)", def, providerNames(byName))
	}
	switch {
	case def == "" && cfg.Defaults.Model != "" && len(byName) == 0:
		return nil, configError("default model %q has no provider: add its adapter to Config.Adapters", cfg.Defaults.Model)
	case def == "" && cfg.Defaults.Model != "":
		return nil, configError("default model %q has no default provider: set Defaults.Provider to one of %s", cfg.Defaults.Model, providerNames(byName))
	}
	if err := checkInterrupt(cfg.Interrupt); err != nil {
		return nil, err
	}
	return &Runtime{cfg: cfg, providers: byName, defaultProvider: def}, nil
}

func configError(format string, args ...any) error {
	return &RunError{Code: CodeInvalidRequest, Message: "engine: " + fmt.Sprintf(format, args...)}
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
			rt.startDiags = append(rt.startDiags, Diagnostic{Level: DiagnosticError, Kind: DiagSourceStart,
				Source: "tool source", Message: "did not start: " + errs[i].Error()})
			continue
		}
		rt.active = append(rt.active, src)
	}
	rt.started.Store(true)
	return nil
}

func (rt *Runtime) checkOpen() error {
	if rt.closed.Load() {
		e := invalidRequest("the runtime is closed")
		e.Err = ErrClosed
		return e
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
	p, err := rt.providerFor(&req, needModel)
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
	switch {
	case req.AnswerRetries == 0:
		req.AnswerRetries = defaultAnswerRetries
	case req.AnswerRetries < 0:
		req.AnswerRetries = 0
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
	req.Retry = providers.ResolveRetry(req.Retry, d.Retry, p)
	req.Strict = req.Strict || d.Strict
	req.Diagnostics = normalized(req.Diagnostics, DiagRequest)
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
