package engine_test

import (
	"context"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// plain wraps a provider and hides everything but the Provider methods,
// as a host's logging wrapper would: it declares no retry policy.
type plain struct{ p providers.Provider }

func (w plain) Name() string { return w.p.Name() }
func (w plain) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	return w.p.Stream(ctx, req, emit)
}

// TestRetryResolution: a run's provider calls are retried by the
// request's policy, else the runtime's default, else the one its adapter
// declares; with none, a failed call is not retried.
func TestRetryResolution(t *testing.T) {
	flaky := []scripted.Turn{{Error: &scripted.TurnError{Status: 503, Message: "busy", RetryAfterMS: 1}}, answer("ok")}
	cases := []struct {
		name     string
		bare     bool // the adapter declares no policy
		defaults providers.RetryPolicy
		run      providers.RetryPolicy
		calls    int
		status   engine.Status
	}{
		{name: "the adapter's policy", calls: 2, status: engine.StatusCompleted},
		{name: "no policy, no retries", bare: true, calls: 1, status: engine.StatusFailed},
		{name: "the runtime's default", bare: true, defaults: providers.RetryPolicy{MaxAttempts: 2}, calls: 2, status: engine.StatusCompleted},
		{name: "the run over the adapter", run: providers.RetryPolicy{MaxAttempts: 1}, calls: 1, status: engine.StatusFailed},
		{name: "the run over the default", bare: true, defaults: providers.RetryPolicy{MaxAttempts: 1}, run: providers.RetryPolicy{MaxAttempts: 3}, calls: 2, status: engine.StatusCompleted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sp := scripted.New()
			sp.Register("m", &scripted.Script{Turns: flaky})
			rec := &recorder{p: sp}
			var p providers.Provider = withRetry{rec, sp}
			if tc.bare {
				p = plain{rec}
			}
			rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"s": p}, Defaults: engine.Defaults{Retry: tc.defaults}})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			res, err := rt.Complete(context.Background(), engine.Request{Provider: "s", Model: "m", WorkDir: t.TempDir(), Retry: tc.run,
				Messages: []engine.Message{engine.UserMessage("go")}})
			if err != nil || res.Status != tc.status || rec.calls() != tc.calls {
				t.Errorf("got %v %s after %d calls, want %s after %d", err, res.Status, rec.calls(), tc.status, tc.calls)
			}
		})
	}
}

// withRetry is a recorder that passes on the policy its adapter declares.
type withRetry struct {
	*recorder
	declares providers.RetryDefaulter
}

func (w withRetry) DefaultRetry() providers.RetryPolicy { return w.declares.DefaultRetry() }
