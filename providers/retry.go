package providers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// RetryPolicy governs retries of provider calls: network failures and
// HTTP 408, 409, 429 and 5xx are retried with exponential backoff and
// jitter, honouring the server's Retry-After; other errors are returned at
// once. The zero value takes the defaults.
type RetryPolicy struct {
	// MaxAttempts is the total number of attempts (default 3; 1 disables
	// retries).
	MaxAttempts int `json:"max_attempts,omitempty"`
	// BaseDelay is the first backoff (default 500ms); it doubles per attempt,
	// with jitter.
	BaseDelay time.Duration `json:"base_delay,omitempty"`
	// MaxDelay caps one wait (default 30s). A server asking for a longer wait
	// is not retried: the error is returned at once.
	MaxDelay time.Duration `json:"max_delay,omitempty"`
}

// RetryDefaulter is implemented by adapters that declare how calls to
// their API are retried (seed llm-core's adapter.metadata.retry).
// ResolveRetry consults it only when neither the run nor the runtime's
// defaults set a policy. The adapters of this module declare the zero
// policy, which takes RetryPolicy's defaults. A wrapper around an adapter
// (logging, metrics) should pass DefaultRetry on: without it, calls
// through the wrapper are not retried unless a policy is set.
type RetryDefaulter interface {
	DefaultRetry() RetryPolicy
}

// ResolveRetry is the retry policy of a call: run when it is set (not the
// zero value), else defaults when set, else the one p declares
// (RetryDefaulter). With none of them there is no policy and the call is
// not retried: the result is MaxAttempts 1, which is also how a run or a
// runtime says "no retries". p may be nil.
func ResolveRetry(run, defaults RetryPolicy, p Provider) RetryPolicy {
	switch {
	case run != RetryPolicy{}:
		return run
	case defaults != RetryPolicy{}:
		return defaults
	}
	if d, ok := p.(RetryDefaulter); ok {
		return d.DefaultRetry()
	}
	return RetryPolicy{MaxAttempts: 1}
}

// Retry describes a retry about to happen, for progress reporting.
type Retry struct {
	Attempt     int // the attempt about to start, from 2
	MaxAttempts int
	Wait        time.Duration
	Err         error // what the previous attempt failed with
	// Restarted says the failed attempt had already emitted content, which
	// the caller must drop: a WarnStreamRestarted warning chunk announced it
	// just before this retry.
	Restarted bool
}

// WarnStreamRestarted is the code of the warning chunk RetryPolicy.Stream
// emits before it restarts an attempt that had already emitted content.
// Everything the attempt emitted before the warning (text, reasoning and
// tool call fragments) belongs to a reply that will never complete: drop
// it. The next attempt streams the whole reply again from its beginning.
// The engine does this by itself.
const WarnStreamRestarted = "stream_restarted"

func (rp RetryPolicy) withDefaults() RetryPolicy {
	if rp.MaxAttempts <= 0 {
		rp.MaxAttempts = 3
	}
	if rp.BaseDelay <= 0 {
		rp.BaseDelay = 500 * time.Millisecond
	}
	if rp.MaxDelay <= 0 {
		rp.MaxDelay = 30 * time.Second
	}
	return rp
}

// Stream calls p.Stream, retrying a retryable *Error up to MaxAttempts. A
// stream that breaks off after emitting content is restarted like any other
// failure, after a WarnStreamRestarted warning chunk tells emit to drop
// what the attempt sent. Use StreamCommitted when some of that content may
// already have reached a user. onRetry, when non-nil, is told about each
// retry before its wait.
func (rp RetryPolicy) Stream(ctx context.Context, p Provider, req *Request, emit func(Chunk), onRetry func(Retry)) error {
	return rp.StreamCommitted(ctx, p, req, emit, onRetry, nil)
}

// StreamCommitted is Stream for a caller that shows part of the output as it
// arrives. After a failed attempt that emitted content, committed (when
// non-nil) is asked whether that content already reached the user in a form
// a restart cannot take back (printed answer text, say); if it did, the
// failure is returned as it is and the call is not restarted.
func (rp RetryPolicy) StreamCommitted(ctx context.Context, p Provider, req *Request, emit func(Chunk), onRetry func(Retry), committed func() bool) error {
	rp = rp.withDefaults()
	for attempt := 1; ; attempt++ {
		emitted := false
		err := p.Stream(ctx, req, func(c Chunk) {
			if isContent(c) {
				emitted = true
			}
			emit(c)
		})
		if err == nil || ctx.Err() != nil || attempt >= rp.MaxAttempts {
			return err
		}
		var pe *Error
		if !errors.As(err, &pe) || !pe.Retryable {
			return err
		}
		if emitted && committed != nil && committed() {
			return err
		}
		wait := rp.backoff(attempt)
		if pe.RetryAfter > 0 {
			if pe.RetryAfter > rp.MaxDelay {
				return err
			}
			wait = pe.RetryAfter
		}
		next := Retry{Attempt: attempt + 1, MaxAttempts: rp.MaxAttempts, Wait: wait, Err: err, Restarted: emitted}
		if emitted {
			emit(Chunk{Type: ChunkWarning, Warning: Warning{Code: WarnStreamRestarted, Message: restartMessage(next)}})
		}
		if onRetry != nil {
			onRetry(next)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// isContent reports whether c carries part of the reply itself, which a
// restart makes obsolete.
func isContent(c Chunk) bool {
	switch c.Type {
	case ChunkText:
		return c.Text != ""
	case ChunkReasoning, ChunkToolCall:
		return true
	}
	return false
}

func restartMessage(rt Retry) string {
	return fmt.Sprintf("%v; restarting the reply from its beginning in %s (attempt %d of %d)",
		rt.Err, rt.Wait.Round(10*time.Millisecond), rt.Attempt, rt.MaxAttempts)
}

// backoff is BaseDelay·2^(attempt-1), scaled by a random factor in [0.8, 1.2)
// and capped at MaxDelay.
func (rp RetryPolicy) backoff(attempt int) time.Duration {
	d := rp.BaseDelay << (attempt - 1)
	if d <= 0 || d > rp.MaxDelay {
		d = rp.MaxDelay
	}
	jittered := time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	return min(jittered, rp.MaxDelay)
}
