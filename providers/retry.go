package providers

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// RetryPolicy governs retries of provider calls (SPEC §3.8). The zero value
// takes the defaults.
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

// Retry describes a retry about to happen, for progress reporting.
type Retry struct {
	Attempt     int // the attempt about to start, from 2
	MaxAttempts int
	Wait        time.Duration
	Err         error // what the previous attempt failed with
}

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

// Stream calls p.Stream, retrying a retryable *Error as long as the failed
// attempt emitted no content (text, reasoning or tool call): a stream that
// already showed output is not restartable. onRetry, when non-nil, is told
// about each retry before its wait.
func (rp RetryPolicy) Stream(ctx context.Context, p Provider, req *Request, emit func(Chunk), onRetry func(Retry)) error {
	rp = rp.withDefaults()
	for attempt := 1; ; attempt++ {
		emitted := false
		err := p.Stream(ctx, req, func(c Chunk) {
			switch c.Type {
			case ChunkText, ChunkReasoning, ChunkToolCall:
				emitted = true
			}
			emit(c)
		})
		if err == nil || ctx.Err() != nil || emitted || attempt >= rp.MaxAttempts {
			return err
		}
		var pe *Error
		if !errors.As(err, &pe) || !pe.Retryable {
			return err
		}
		wait := rp.backoff(attempt)
		if pe.RetryAfter > 0 {
			if pe.RetryAfter > rp.MaxDelay {
				return err
			}
			wait = pe.RetryAfter
		}
		if onRetry != nil {
			onRetry(Retry{Attempt: attempt + 1, MaxAttempts: rp.MaxAttempts, Wait: wait, Err: err})
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
