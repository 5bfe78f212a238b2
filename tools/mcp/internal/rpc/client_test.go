package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// peer is the server end of a Stream: it reads what the client sends and
// writes raw lines back.
type peer struct {
	t    *testing.T
	in   *bufio.Scanner // what the client wrote
	out  *io.PipeWriter // what the client reads
	mu   sync.Mutex
	seen chan map[string]any
}

// newPair returns a started client over a stream and the peer at its
// other end. Messages the client sends arrive on peer.seen.
func newPair(t *testing.T, o Options) (*Client, *peer) {
	return newPairMax(t, o, MaxMessage)
}

// newPairMax is newPair with a stream that reads lines of at most max
// bytes.
func newPairMax(t *testing.T, o Options, max int) (*Client, *peer) {
	t.Helper()
	cr, pw := io.Pipe() // peer → client
	pr, cw := io.Pipe() // client → peer
	p := &peer{t: t, in: bufio.NewScanner(pr), out: pw, seen: make(chan map[string]any, 100)}
	p.in.Buffer(nil, 1<<20)
	go func() {
		for p.in.Scan() {
			var m map[string]any
			if err := json.Unmarshal(p.in.Bytes(), &m); err != nil {
				t.Errorf("the client sent a line that is not JSON: %q", p.in.Text())
				continue
			}
			p.seen <- m
		}
	}()
	s := NewStream(cr, cw, func() error { return pw.Close() })
	s.max = max
	c := NewClient(s, o)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); pr.Close() })
	return c, p
}

func (p *peer) write(lines ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range lines {
		if _, err := io.WriteString(p.out, l+"\n"); err != nil {
			p.t.Errorf("write %q: %v", l, err)
		}
	}
}

// next returns the next message the client sent, failing the test after
// a generous deadline.
func (p *peer) next() map[string]any {
	p.t.Helper()
	select {
	case m := <-p.seen:
		return m
	case <-time.After(20 * time.Second):
		p.t.Fatal("the client sent nothing")
		return nil
	}
}

func idOf(m map[string]any) int64 {
	f, _ := m["id"].(float64)
	return int64(f)
}

// TestConcurrentCallsAnsweredOutOfOrder: each of several calls in flight
// gets its own answer, whatever order the answers come in.
func TestConcurrentCallsAnsweredOutOfOrder(t *testing.T) {
	c, p := newPair(t, Options{})
	const n = 5
	var wg sync.WaitGroup
	got := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			var out struct{ Echo string }
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			errs[i] = c.Call(ctx, "echo", map[string]any{"i": i}, &out)
			got[i] = out.Echo
		})
	}
	reqs := map[int64]float64{}
	for range n {
		m := p.next()
		reqs[idOf(m)] = m["params"].(map[string]any)["i"].(float64)
	}
	// Answer in reverse order of id, the first one by a string id.
	for id := int64(n); id >= 1; id-- {
		idText := fmt.Sprint(id)
		if id == 1 {
			idText = `"1"`
		}
		p.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"echo":"call %v"}}`, idText, reqs[id]))
	}
	wg.Wait()
	for i := range n {
		if want := fmt.Sprintf("call %d", i); errs[i] != nil || got[i] != want {
			t.Errorf("call %d: got %q, %v; want %q", i, got[i], errs[i], want)
		}
	}
}

// TestHostileLinesAreSkipped: garbage, blank and oversized lines, answers
// to ids never sent or already answered, and messages with neither
// result nor error are skipped; the real answer still arrives.
func TestHostileLinesAreSkipped(t *testing.T) {
	const max = 4 << 10
	c, p := newPairMax(t, Options{}, max)
	done := make(chan error, 1)
	var out struct{ OK bool }
	go func() { done <- c.Call(context.Background(), "x", nil, &out) }()
	id := idOf(p.next())
	huge := `{"jsonrpc":"2.0","id":` + fmt.Sprint(id) + `,"result":{"ok":false},"pad":"` + strings.Repeat("a", 3*max) + `"}`
	p.write("not json", "", "   ", "\x1b[31m{", "[1,2,3]", `{"jsonrpc":"2.0","id":999,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":%d}`, id), huge,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"ok":true}}`, id),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"ok":false}}`, id))
	select {
	case err := <-done:
		if err != nil || !out.OK {
			t.Fatalf("got ok=%v, %v; want the real answer (ok=true)", out.OK, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call was never answered")
	}
}

// TestErrorAnswer: an error answer keeps its code and the server's
// message, cleaned of escape sequences.
func TestErrorAnswer(t *testing.T) {
	c, p := newPair(t, Options{})
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "x", nil, nil) }()
	id := idOf(p.next())
	p.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"bad \u001b[2Jargs"}}`, id))
	err := <-done
	var rpcErr *Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
		t.Fatalf("got %v, want an *Error with code -32602", err)
	}
	if msg := err.Error(); strings.ContainsRune(msg, 0x1b) || !strings.Contains(msg, "bad") || !strings.Contains(msg, "-32602") {
		t.Errorf("got message %q, want the server's text without ESC and the code", msg)
	}
}

// TestCancelledCallIsNotified: a call whose context ends returns at once
// and the server is sent notifications/cancelled naming the request; an
// initialize is never cancelled that way.
func TestCancelledCallIsNotified(t *testing.T) {
	c, p := newPair(t, Options{})
	for _, method := range []string{"initialize", "tools/call"} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- c.Call(ctx, method, nil, nil) }()
		id := idOf(p.next())
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: got %v, want context.Canceled", method, err)
		}
		if method == "initialize" {
			continue
		}
		m := p.next()
		params, _ := m["params"].(map[string]any)
		if m["method"] != "notifications/cancelled" || params == nil || int64(params["requestId"].(float64)) != id {
			t.Fatalf("%s: got %v, want notifications/cancelled for request %d", method, m, id)
		}
	}
	// The initialize cancelled above sent nothing: the next message is
	// this ping's answer request.
	go func() { _ = c.Notify(context.Background(), "marker", nil) }()
	if m := p.next(); m["method"] != "marker" {
		t.Fatalf("got %v after the cancellations, want the marker only", m)
	}
}

// TestClosedStreamFailsPendingCalls: when the server's output ends,
// pending and later calls fail at once with ErrClosed.
func TestClosedStreamFailsPendingCalls(t *testing.T) {
	c, p := newPair(t, Options{})
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "x", nil, nil) }()
	p.next()
	p.out.Close()
	select {
	case err := <-done:
		if !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "closed its output") {
			t.Fatalf("got %v, want ErrClosed saying the server closed its output", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the pending call did not fail when the stream ended")
	}
	if err := c.Call(context.Background(), "y", nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("a call after the end: got %v, want ErrClosed", err)
	}
}

// TestServerRequestsAnswered: ping is answered {}, a handled method with
// the handler's result, an error from the handler with its code, an
// unknown method with -32601, and a panicking handler with -32603.
func TestServerRequestsAnswered(t *testing.T) {
	handle := func(_ context.Context, method string, params json.RawMessage) (any, error) {
		switch method {
		case "roots/list":
			return map[string]any{"roots": []any{}, "params": string(params)}, nil
		case "elicitation/create":
			return nil, &Error{Code: -32602, Message: "bad form"}
		case "boom":
			panic("boom")
		}
		return nil, &Error{Code: CodeMethodNotFound, Message: "no"}
	}
	var notes []string
	var mu sync.Mutex
	_, p := newPair(t, Options{Handle: handle, Notify: func(m string, _ json.RawMessage) {
		mu.Lock()
		notes = append(notes, m)
		mu.Unlock()
	}})
	cases := []struct {
		id, method string
		code       float64 // 0: a result is wanted
	}{
		{`"a"`, "ping", 0},
		{`7`, "roots/list", 0},
		{`8`, "elicitation/create", -32602},
		{`9`, "sampling/createMessage", CodeMethodNotFound},
		{`10`, "boom", CodeInternal},
	}
	for _, tc := range cases {
		p.write(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`)
		p.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{"k":1}}`, tc.id, tc.method))
		m := p.next()
		if got, _ := json.Marshal(m["id"]); string(got) != tc.id {
			t.Errorf("%s: answered id %s, want %s", tc.method, got, tc.id)
		}
		e, _ := m["error"].(map[string]any)
		switch {
		case tc.code == 0 && (e != nil || m["result"] == nil):
			t.Errorf("%s: got %v, want a result", tc.method, m)
		case tc.code != 0 && (e == nil || e["code"] != tc.code):
			t.Errorf("%s: got %v, want error code %v", tc.method, m, tc.code)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) != len(cases) {
		t.Errorf("got %d notifications, want %d", len(notes), len(cases))
	}
}

// TestNoAnswerWaitsOnlyForTheContext: a server that never answers holds a
// call only until its context's deadline.
func TestNoAnswerWaitsOnlyForTheContext(t *testing.T) {
	c, p := newPair(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "x", nil, nil) }()
	p.next()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want DeadlineExceeded", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call outlived its context")
	}
}

// TestSendGivenUpBeforeWritingKeepsTheStream: a send whose context has
// ended before any byte went writes nothing and leaves the stream whole,
// so the next message goes out intact. (Under load a call's deadline can
// pass between its start and its write.)
func TestSendGivenUpBeforeWritingKeepsTheStream(t *testing.T) {
	for i := range 20 {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		s := NewStream(strings.NewReader(""), pw, nil)
		ended, cancel := context.WithCancel(context.Background())
		cancel()
		if err := s.Send(ended, []byte(`{"n":1}`), "1"); !errors.Is(err, context.Canceled) {
			t.Fatalf("try %d: send with an ended context: got %v, want Canceled", i, err)
		}
		if err := s.Send(context.Background(), []byte(`{"n":2}`), "2"); err != nil {
			t.Fatalf("try %d: the next send: %v", i, err)
		}
		pw.Close()
		got, _ := io.ReadAll(pr)
		pr.Close()
		if string(got) != "{\"n\":2}\n" {
			t.Fatalf("try %d: the server read %q, want only the second message", i, got)
		}
	}
}
