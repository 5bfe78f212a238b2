package replay

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
)

// Target says how the shared fault checks build and call one adapter.
type Target struct {
	// New returns the adapter pointed at srv, with timeouts.
	New func(srv *Server, timeouts providers.Timeouts) providers.Provider
	// Request returns the request every call sends.
	Request func() *providers.Request
	// Text is the reply text of the recording the success cases end on.
	Text string
}

// Retried runs one call through providers.RetryPolicy (three attempts, a
// 5ms base delay, the default 30s cap on a server's wait) against a server
// answering from seq. It returns the reply an Accumulator assembled over
// all attempts (a restarted attempt's output dropped), the server (for its
// hits) and the error.
func (tg Target) Retried(t testing.TB, seq Sequence, timeouts providers.Timeouts) (providers.Reply, *Server, error) {
	t.Helper()
	o := tg.retried(t, seq, timeouts, false)
	return o.reply, o.srv, o.err
}

// retryOutcome is what one call through the retry policy did.
type retryOutcome struct {
	reply    providers.Reply
	srv      *Server
	err      error
	restarts int // stream_restarted warning chunks
	retries  []providers.Retry
	// order holds "warning" for each restart warning and "retry" for each
	// onRetry call, in the order they came.
	order []string
}

// retried is Retried for a caller that, when shown is set, treats every
// piece of content as already shown to the user, so no attempt that
// emitted content may be restarted.
func (tg Target) retried(t testing.TB, seq Sequence, timeouts providers.Timeouts, shown bool) retryOutcome {
	t.Helper()
	policy := providers.RetryPolicy{MaxAttempts: 3, BaseDelay: 5 * time.Millisecond}
	srv := seq.Serve(t)
	p := tg.New(srv, timeouts)
	acc := stream.Accumulator{Provider: p.Name()}
	o := retryOutcome{srv: srv}
	emit := func(c providers.Chunk) {
		acc.Add(c)
		if c.Type == providers.ChunkWarning && c.Warning.Code == providers.WarnStreamRestarted {
			o.restarts++
			o.order = append(o.order, "warning")
		}
	}
	onRetry := func(r providers.Retry) {
		o.retries = append(o.retries, r)
		o.order = append(o.order, "retry")
	}
	var committed func() bool
	if shown {
		committed = acc.Emitted
	}
	o.err = policy.StreamCommitted(t.Context(), p, tg.Request(), emit, onRetry, committed)
	o.reply = acc.Reply()
	return o
}

// FaultCase is one scripted exchange for Target.RunFaults.
type FaultCase struct {
	Name     string
	Seq      Sequence
	Timeouts providers.Timeouts
	// Hits is how many requests the server must see: 3 when every attempt
	// failed and was retried.
	Hits int
	// Restarts is how many attempts broke off after emitting content and
	// were restarted, each announced by a stream_restarted warning chunk.
	Restarts int
	// Shown makes the caller treat content as shown to the user the
	// moment it arrives: a stream that breaks off after content is then
	// not restarted.
	Shown bool
	// WantErr holds substrings of the error, which must be a
	// *providers.Error. None means the call must succeed with the Target's
	// Text and no tool call.
	WantErr []string
	// NoRetry says the error must not be retryable.
	NoRetry bool
}

// RunFaults runs each case as a subtest through the retry policy and checks
// the attempts and the restarts (each restart warning comes just before its
// retry, which is marked Restarted), then either the reply or the error:
// its type, its substrings and, where asked, that it is not retryable.
func (tg Target) RunFaults(t *testing.T, cases []FaultCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			o := tg.retried(t, tc.Seq, tc.Timeouts, tc.Shown)
			if n := o.srv.Hits(); n != tc.Hits {
				t.Errorf("attempts: got %d, want %d", n, tc.Hits)
			}
			checkRestarts(t, o, tc.Restarts)
			if len(tc.WantErr) == 0 {
				if o.err != nil {
					t.Fatalf("error: got %v, want success", o.err)
				}
				if got := o.reply.Message.Text(); got != tg.Text {
					t.Errorf("text: got %q, want %q", got, tg.Text)
				}
				if n := len(o.reply.Message.ToolCalls); n != 0 {
					t.Errorf("tool calls: got %d (%+v), want none: a restarted attempt's calls are dropped", n, o.reply.Message.ToolCalls)
				}
				return
			}
			pe := ProviderError(t, o.err)
			t.Logf("error: %v (retryable %v)", o.err, pe.Retryable)
			ErrorContains(t, o.err, tc.WantErr...)
			if tc.NoRetry && pe.Retryable {
				t.Errorf("error %q: got retryable, want not", o.err)
			}
		})
	}
}

// checkRestarts checks that want attempts were restarted, each announced
// by a warning chunk right before the retry, and that only those retries
// are marked Restarted.
func checkRestarts(t *testing.T, o retryOutcome, want int) {
	t.Helper()
	if o.restarts != want {
		t.Errorf("stream_restarted warnings: got %d, want %d", o.restarts, want)
	}
	marked := 0
	for _, r := range o.retries {
		if r.Restarted {
			marked++
		}
	}
	if marked != want {
		t.Errorf("retries marked Restarted: got %d, want %d", marked, want)
	}
	for i, step := range o.order {
		if step == "warning" && (i+1 >= len(o.order) || o.order[i+1] != "retry") {
			t.Errorf("order %v: a restart warning must come right before its retry", o.order)
			break
		}
	}
}

// CheckRetryAfter runs limit, a 429 asking for a wait of one second, then
// ok through Retried, and checks that the call succeeds on the second
// attempt with the Target's Text after the server's wait, not the 5ms
// backoff.
func (tg Target) CheckRetryAfter(t *testing.T, limit, ok http.Handler) {
	t.Helper()
	start := time.Now()
	reply, srv, err := tg.Retried(t, Sequence{limit, ok}, providers.Timeouts{})
	waited := time.Since(start)
	if err != nil {
		t.Fatalf("error: got %v, want success after one retry", err)
	}
	if n := srv.Hits(); n != 2 || reply.Message.Text() != tg.Text {
		t.Errorf("got %d attempts and text %q, want 2 and %q", n, reply.Message.Text(), tg.Text)
	}
	if waited < 900*time.Millisecond {
		t.Errorf("waited %v before retrying, want at least the 1s Retry-After", waited)
	}
}

// CheckCancelMidStream streams against stall, a handler that holds the
// stream open after some text (see Stall), cancels on the first text chunk,
// and checks that Stream returns context.Canceled at once.
func (tg Target) CheckCancelMidStream(t *testing.T, stall http.Handler) {
	t.Helper()
	srv := Sequence{stall}.Serve(t)
	p := tg.New(srv, providers.Timeouts{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// Buffered: the goroutine never blocks, even after the test gave up.
	done := make(chan error, 1)
	go func() {
		done <- p.Stream(ctx, tg.Request(), func(c providers.Chunk) {
			if c.Type == providers.ChunkText {
				cancel()
			}
		})
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error: got %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Stream did not return after cancellation")
	}
}

// CheckCancelBeforeResponse checks that a deadline passing while the server
// holds the request unanswered ends the call with the context's error, not
// a network error.
func (tg Target) CheckCancelBeforeResponse(t *testing.T) {
	t.Helper()
	srv := Sequence{Hang()}.Serve(t)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, _, err := Run(ctx, tg.New(srv, providers.Timeouts{}), tg.Request())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error: got %v, want context.DeadlineExceeded", err)
	}
}

// ClosedAddr returns host:port of a loopback port that was open a moment
// ago and is now closed: a connection to it is refused.
func ClosedAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// CheckRefused runs one call of p, pointed at a ClosedAddr, and checks the
// error is a retryable *providers.Error naming url and "connection
// refused".
func CheckRefused(t testing.TB, p providers.Provider, req *providers.Request, url string) {
	t.Helper()
	_, _, err := Run(t.Context(), p, req)
	var pe *providers.Error
	if !errors.As(err, &pe) || !pe.Retryable || !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("error: got %v, want a retryable error naming %s and 'connection refused'", err, url)
	}
}
