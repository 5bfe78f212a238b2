// Package fakellm is a local HTTP server that speaks the wire protocols of
// the real model APIs (OpenAI's Responses API and Chat Completions,
// Anthropic messages, Gemini streamGenerateContent, Ollama /api/chat) and
// answers each request with the next turn of a script, in the same format
// as the scripted provider. End-to-end tests point the real llmrt binary
// at it with --base-url. Responses API requests are checked the way the
// real API checks a stateless client (see checkResponses) and answered
// 400 when they break its rules.
//
// A turn's error field injects faults: a status with a JSON error body and
// an optional Retry-After; status 0 hangs up before answering (a stream
// cut before any output); after_output streams the turn's reasoning and
// text and then breaks the connection; after_call_header also streams the
// start of the first tool call (with argument_bytes of its arguments; the
// whole call where the protocol sends calls whole) before the break.
// Server.Hold keeps a turn's answer back until the test releases it.
//
// Like the real APIs, the server refuses with a 400 a request whose
// conversation has a shape the API rejects: turns that do not alternate,
// a tool call without its result, an empty text block (see check). Such
// a request takes no turn of the script; Request.Rejected says why.
package fakellm

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/llmrt/llmrt/providers/scripted"
)

// Protocols the server speaks (and OpenAIChat).
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
	Gemini    = "gemini"
	Ollama    = "ollama"
)

// Request is one request the server received.
type Request struct {
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte
	At     time.Time
	// Rejected is why the server refused the request as the real API
	// would (see check), or "".
	Rejected string
}

// Server is a running fake model API.
type Server struct {
	URL      string
	protocol string
	srv      *httptest.Server

	mu    sync.Mutex
	turns []scripted.Turn
	next  int
	reqs  []Request
	holds map[int]chan struct{} // turn number → closed when it may be answered
	// issued holds the encrypted reasoning handed out, which the
	// Responses API accepts back.
	issued map[string]bool
}

// Start serves turns over protocol until Close. Requests past the last
// turn get a 500 naming the problem.
func Start(protocol string, turns ...scripted.Turn) *Server {
	s := &Server{protocol: protocol, turns: turns}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close stops the server, breaking open connections.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Hold keeps the answer to turn n (1 for the first) back until release
// is called or its request ends, so a test can look at a run while it
// waits for the model, as long as it needs to and no longer. Call it
// before the turn is requested. release may be called more than once.
func (s *Server) Hold(n int) (release func()) {
	ch := make(chan struct{})
	s.mu.Lock()
	if s.holds == nil {
		s.holds = map[int]chan struct{}{}
	}
	s.holds[n] = ch
	s.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

// Requests returns what the server received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body, At: time.Now()})
	if err := check(s.protocol, r.URL.Path, body); err != nil {
		s.reqs[len(s.reqs)-1].Rejected = err.Error()
		s.mu.Unlock()
		s.fail(w, &scripted.TurnError{Status: http.StatusBadRequest, Message: err.Error()})
		return
	}
	if s.protocol == Ollama && r.URL.Path == "/api/version" {
		s.mu.Unlock()
		io.WriteString(w, `{"version":"0.0.0-fake"}`)
		return
	}
	responses := isResponses(r.URL.Path) && (s.protocol == OpenAI || s.protocol == OpenAIChat)
	if responses && s.protocol == OpenAIChat {
		s.mu.Unlock()
		notFound(w, r)
		return
	}
	include := false
	if responses {
		var problem string
		if include, problem = s.checkResponses(body); problem != "" {
			s.mu.Unlock()
			badRequest(w, problem)
			return
		}
	}
	if s.next >= len(s.turns) {
		n := s.next
		s.mu.Unlock()
		http.Error(w, `{"error":{"message":"fakellm: no turn `+strconv.Itoa(n+1)+` in the script"}}`, http.StatusInternalServerError)
		return
	}
	t := s.turns[s.next]
	s.next++
	turnNo := s.next
	hold := s.holds[turnNo]
	enc := ""
	if responses && include && t.Reasoning != "" {
		if s.issued == nil {
			s.issued = map[string]bool{}
		}
		enc = encryptedFor(turnNo)
		s.issued[enc] = true
	}
	s.mu.Unlock()

	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	if t.DelayMS > 0 {
		select {
		case <-time.After(time.Duration(t.DelayMS) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
	if t.Error != nil && !t.Error.Partial() {
		s.fail(w, t.Error)
		return
	}
	st := &stream{w: w, flusher: w.(http.Flusher), delay: time.Duration(t.ChunkDelayMS) * time.Millisecond, done: r.Context().Done(), turn: turnNo, eol: "\n"}
	switch s.protocol {
	case OpenAI, OpenAIChat:
		if responses {
			writeResponses(st, t, enc)
		} else {
			writeOpenAI(st, t)
		}
	case Anthropic:
		writeAnthropic(st, t)
	case Gemini:
		writeGemini(st, t)
	case Ollama:
		writeOllama(st, t)
	}
	if st.cut {
		hangUp(w)
	}
}

// fail answers with an error status, or hangs up for status 0.
func (s *Server) fail(w http.ResponseWriter, e *scripted.TurnError) {
	if e.Status == 0 {
		hangUp(w)
		return
	}
	if e.RetryAfterMS > 0 {
		w.Header().Set("Retry-After", strconv.Itoa((e.RetryAfterMS+999)/1000))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	var body any
	switch s.protocol {
	case Anthropic:
		kind := "api_error"
		if e.Status == 529 {
			kind = "overloaded_error"
		}
		body = map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": e.Message}}
	case Gemini:
		body = []any{map[string]any{"error": map[string]any{"code": e.Status, "message": e.Message, "status": "UNAVAILABLE"}}}
	case Ollama:
		body = map[string]any{"error": e.Message}
	default:
		body = map[string]any{"error": map[string]any{"message": e.Message, "type": "server_error"}}
	}
	json.NewEncoder(w).Encode(body)
}

// hangUp closes the connection without completing the response.
func hangUp(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	buf.Flush()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

// stream writes protocol frames with the turn's pacing.
type stream struct {
	w         http.ResponseWriter
	flusher   http.Flusher
	delay     time.Duration
	done      <-chan struct{}
	turn      int
	started   bool
	cut       bool
	unflushed int    // bytes written since the last flush
	eol       string // what ends an event's lines: \n, or \r\n as Gemini sends
}

// frame writes one frame and flushes it, waiting the chunk delay first.
func (st *stream) frame(s string) {
	if st.cut {
		return
	}
	if st.delay > 0 && st.started {
		select {
		case <-time.After(st.delay):
		case <-st.done:
			st.cut = true
			return
		}
	}
	st.started = true
	io.WriteString(st.w, s)
	// Paced frames go out one by one; unpaced ones in batches, as a real
	// API's arrive several to a packet, so a long stream is not a test of
	// the server's flushing.
	st.unflushed += len(s)
	if st.delay > 0 || st.unflushed >= 16<<10 {
		st.flusher.Flush()
		st.unflushed = 0
	}
}

func (st *stream) sse(event string, v any) {
	b, _ := json.Marshal(v)
	st.sseData(event, string(b))
}

// header returns the first tool call and the part of its arguments an
// after_call_header fault streams, or ok false when the turn has no such
// fault.
func header(t scripted.Turn) (c scripted.Call, args string, ok bool) {
	if t.Error == nil || !t.Error.AfterCallHeader || len(t.ToolCalls) == 0 {
		return scripted.Call{}, "", false
	}
	c = t.ToolCalls[0]
	a := c.ArgumentText()
	return c, a[:min(max(t.Error.ArgumentBytes, 0), len(a))], true
}

func (st *stream) callID(i int, c scripted.Call) string {
	if c.ID != "" {
		return c.ID
	}
	return "call_" + strconv.Itoa(st.turn) + "_" + strconv.Itoa(i+1)
}
