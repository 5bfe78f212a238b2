// Package adapter is the plumbing the provider adapters share: HTTP calls
// with response and idle timeouts, errors built from HTTP statuses and
// transport failures, tool-name encoding for APIs that restrict names, and
// JSON decoding for streams: a one-pass decoder (DecodeFast) and scanners
// for reading an event of a known shape directly (fastjson.go). It is
// internal: programs use the adapters, never this.
package adapter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/llmrt/llmrt/internal/origin"
	"github.com/llmrt/llmrt/providers"
)

// Timeouts is the adapters' Config field for HTTP time limits.
type Timeouts = providers.Timeouts

func withDefaults(t Timeouts) Timeouts {
	if t.Response <= 0 {
		t.Response = 2 * time.Minute
	}
	if t.Idle <= 0 {
		t.Idle = providers.DefaultIdleTimeout
	}
	return t
}

var (
	errNoResponse = errors.New("no response")
	errIdle       = errors.New("stream idle")
)

type idleError struct{ d time.Duration }

func (e idleError) Error() string        { return fmt.Sprintf("no data for %s", e.d) }
func (e idleError) Is(target error) bool { return target == errIdle }

func idleOf(err error) time.Duration {
	var ie idleError
	if errors.As(err, &ie) {
		return ie.d
	}
	return 0
}

// Send performs req with the given client and timeouts. A 2xx response is
// returned with a body that fails with a stall error after Timeouts.Idle of
// silence; the caller closes it. Any other status is read, closed and
// returned as an *Error carrying the server's message and retry hint.
// Transport failures become retryable *Errors; cancellation of ctx is
// returned as ctx.Err().
func Send(ctx context.Context, hc *http.Client, provider string, req *http.Request, t Timeouts) (*http.Response, error) {
	hc = origin.Only(hc)
	endpoint := req.URL.String()
	resp, err := watch(req.WithContext(ctx), t, hc.Do)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, errNoResponse) {
			return nil, &providers.Error{
				Provider: provider, URL: StripQuery(endpoint), Retryable: true, Err: err,
				Message: fmt.Sprintf("no response from %s within %s", StripQuery(endpoint), withDefaults(t).Response),
			}
		}
		return nil, NetworkError(ctx, provider, endpoint, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		return nil, StatusError(provider, endpoint, resp, body)
	}
	return resp, nil
}

// TimeoutTransport wraps base (nil: http.DefaultTransport) so that every
// request fails when its response headers take longer than t.Response and
// every response body fails after t.Idle of silence. Adapters built on
// vendor SDKs use it to get the same guarantees as Send.
func TimeoutTransport(base http.RoundTripper, t Timeouts) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return roundTripper{base: base, t: t}
}

type roundTripper struct {
	base http.RoundTripper
	t    Timeouts
}

func (rt roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := watch(req, rt.t, rt.base.RoundTrip)
	if errors.Is(err, errNoResponse) {
		err = noResponseError{withDefaults(rt.t).Response}
	}
	return resp, err
}

// noResponseError is a response-header deadline that passed.
type noResponseError struct{ d time.Duration }

func (e noResponseError) Error() string        { return fmt.Sprintf("no response within %s", e.d) }
func (e noResponseError) Is(target error) bool { return target == errNoResponse }

// watch performs one attempt with a response-header deadline and wraps a
// successful response's body in an idle watchdog. On failure it returns
// errNoResponse when the deadline fired.
func watch(req *http.Request, t Timeouts, do func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	t = withDefaults(t)
	attemptCtx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(t.Response, func() { cancel(errNoResponse) })
	resp, err := do(req.WithContext(attemptCtx))
	timer.Stop()
	if err != nil {
		cause := context.Cause(attemptCtx)
		cancel(nil)
		if errors.Is(cause, errNoResponse) && req.Context().Err() == nil {
			return nil, errNoResponse
		}
		return nil, err
	}
	resp.Body = newIdleBody(resp.Body, t.Idle, cancel)
	return resp, nil
}

// idleBody cancels the attempt when no bytes arrive for d, so a stalled
// stream surfaces as an error instead of hanging the run.
type idleBody struct {
	rc     io.ReadCloser
	d      time.Duration
	cancel context.CancelCauseFunc
	timer  *time.Timer

	mu    sync.Mutex
	idled bool
}

func newIdleBody(rc io.ReadCloser, d time.Duration, cancel context.CancelCauseFunc) *idleBody {
	b := &idleBody{rc: rc, d: d, cancel: cancel}
	b.timer = time.AfterFunc(d, func() {
		b.mu.Lock()
		b.idled = true
		b.mu.Unlock()
		cancel(errIdle)
	})
	return b
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.timer.Reset(b.d)
	}
	if err != nil && err != io.EOF {
		b.mu.Lock()
		idled := b.idled
		b.mu.Unlock()
		if idled {
			return n, idleError{b.d}
		}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	err := b.rc.Close()
	b.cancel(nil)
	return err
}

// ReadError converts an error met while reading a response body into what a
// Provider returns: the context's error on cancellation, otherwise a
// retryable *Error (the retry policy decides whether a retry is allowed).
func ReadError(ctx context.Context, provider, endpoint string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, errIdle) {
		return NetworkError(ctx, provider, endpoint, err)
	}
	return &providers.Error{
		Provider: provider, URL: StripQuery(endpoint), Retryable: true, Err: err,
		Message: fmt.Sprintf("stream from %s broke off: %v", StripQuery(endpoint), err),
	}
}
