package engine

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// Config is the stable state of a Runtime.
type Config struct {
	// Providers maps a provider name (Request.Provider) to its adapter.
	Providers map[string]providers.Provider
	// Tools configures the built-in tools.
	Tools tools.Options
	// Defaults fill zero fields of each request.
	Defaults Defaults
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

// Runtime runs requests against a fixed set of providers. It is safe for
// concurrent use; Close releases what it holds.
type Runtime struct {
	cfg     Config
	schemas schemaCache

	closeOnce sync.Once
}

// New returns a Runtime for cfg.
func New(cfg Config) (*Runtime, error) {
	for name, p := range cfg.Providers {
		if p == nil {
			return nil, fmt.Errorf("engine: provider %q is nil", name)
		}
	}
	return &Runtime{cfg: cfg}, nil
}

// Close releases the runtime's resources. It is idempotent.
func (rt *Runtime) Close() error {
	rt.closeOnce.Do(func() {})
	return nil
}

const (
	defaultMaxIterations  = 24
	defaultEmptyRetries   = 2
	defaultMaxResultBytes = 32 * 1024
)

// prepare validates req and fills defaults. Errors are misuse. Without
// needModel, the provider and model may be left empty (tool calls only).
func (rt *Runtime) prepare(req Request, needModel bool) (Request, providers.Provider, error) {
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
		req.Finish = cmpOr(d.Finish, FinishEvidence)
	}
	if req.Finish != FinishEvidence && req.Finish != FinishText {
		return req, nil, invalidRequest("unknown finish policy %q (use evidence or text)", req.Finish)
	}
	if req.Retry == (providers.RetryPolicy{}) {
		req.Retry = d.Retry
	}
	if req.MaxResultBytes <= 0 {
		req.MaxResultBytes = cmpOr(d.MaxResultBytes, defaultMaxResultBytes)
	}
	switch req.ReasoningEffort {
	case "", providers.EffortNone, providers.EffortLow, providers.EffortMedium, providers.EffortHigh:
	default:
		return req, nil, invalidRequest("unknown reasoning effort %q (use none, low, medium or high)", req.ReasoningEffort)
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
