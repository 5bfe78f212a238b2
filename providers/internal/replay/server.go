package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Request is one request the server received, as the adapter sent it.
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

// JSON decodes the request body, failing t when it is not a JSON object.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("replay: request body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Sequence scripts a server: the n-th request is answered by the n-th
// handler, and every request past the end by the last one. Recordings and
// the fault handlers of this package can be mixed freely:
//
//	replay.Sequence{replay.Status(429, body, "Retry-After", "1"), rec}.Serve(t)
type Sequence []http.Handler

// Server is an httptest.Server answering from a Sequence and logging every
// request. It is closed when the test ends.
type Server struct {
	*httptest.Server

	seq Sequence
	// done is closed at cleanup so handlers that block (Hang) return and
	// httptest.Server.Close does not wait forever.
	done chan struct{}

	mu       sync.Mutex
	requests []Request
}

// Serve starts a server that answers successive requests with successive
// recordings, then keeps answering with the last.
func Serve(t testing.TB, recs ...*Recording) *Server {
	t.Helper()
	seq := make(Sequence, len(recs))
	for i, r := range recs {
		seq[i] = r
	}
	return seq.Serve(t)
}

// Serve starts a server answering from seq.
func (seq Sequence) Serve(t testing.TB) *Server {
	t.Helper()
	if len(seq) == 0 {
		t.Fatal("replay: empty sequence")
	}
	s := &Server{seq: seq, done: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		close(s.done)
		s.Server.Close()
	})
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{
		Method: r.Method,
		Path:   r.URL.Path,
		Query:  r.URL.Query(),
		Header: r.Header.Clone(),
		Body:   body,
	})
	s.mu.Unlock()

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	// The goroutine ends with the request (cancel above) or at cleanup.
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	s.seq[min(n, len(s.seq)-1)].ServeHTTP(w, r.WithContext(ctx))
}

// Requests returns a copy of the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// OnlyRequest returns the one request the server received, failing t at
// once unless it received exactly one.
func (s *Server) OnlyRequest(t testing.TB) Request {
	t.Helper()
	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests: got %d, want 1", len(reqs))
	}
	return reqs[0]
}

// Hits returns how many requests the server has received.
func (s *Server) Hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// ServeHTTP replays the recorded response: status, recorded headers (minus
// the framing headers Content-Length, Transfer-Encoding and
// Content-Encoding, which no longer match the stored body) and the body in
// Pieces, flushed one by one.
func (r *Recording) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	writeHead(w, r.Response.Status, r.Response.Headers)
	for _, p := range Pieces(r.Body(), r.StreamFormat) {
		if _, err := w.Write(p); err != nil {
			return
		}
		flush(w)
	}
}

func writeHead(w http.ResponseWriter, status int, h http.Header) {
	for k, vs := range h {
		switch strings.ToLower(k) {
		case "content-length", "transfer-encoding", "content-encoding":
			continue
		}
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(status)
}

func flush(w http.ResponseWriter) {
	_ = http.NewResponseController(w).Flush()
}
