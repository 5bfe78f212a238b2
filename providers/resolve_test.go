package providers_test

import (
	"context"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
)

type bare struct{}

func (bare) Name() string                                                            { return "bare" }
func (bare) Stream(context.Context, *providers.Request, func(providers.Chunk)) error { return nil }

type declaring struct {
	bare
	rp providers.RetryPolicy
}

func (d declaring) DefaultRetry() providers.RetryPolicy { return d.rp }

// TestResolveRetry: the run's policy wins, then the defaults', then the
// one the adapter declares; with none of them a call is not retried.
func TestResolveRetry(t *testing.T) {
	run := providers.RetryPolicy{MaxAttempts: 5}
	defaults := providers.RetryPolicy{MaxAttempts: 4, BaseDelay: time.Second}
	adapter := declaring{rp: providers.RetryPolicy{MaxAttempts: 2}}
	none := providers.RetryPolicy{MaxAttempts: 1}
	cases := []struct {
		name          string
		run, defaults providers.RetryPolicy
		p             providers.Provider
		want          providers.RetryPolicy
	}{
		{"run", run, defaults, adapter, run},
		{"defaults", providers.RetryPolicy{}, defaults, adapter, defaults},
		{"adapter", providers.RetryPolicy{}, providers.RetryPolicy{}, adapter, adapter.rp},
		{"adapter declaring the standard policy", providers.RetryPolicy{}, providers.RetryPolicy{}, declaring{}, providers.RetryPolicy{}},
		{"no policy, no retries", providers.RetryPolicy{}, providers.RetryPolicy{}, bare{}, none},
		{"no provider", providers.RetryPolicy{}, providers.RetryPolicy{}, nil, none},
		{"the run says no retries", none, defaults, adapter, none},
	}
	for _, tc := range cases {
		if got := providers.ResolveRetry(tc.run, tc.defaults, tc.p); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
