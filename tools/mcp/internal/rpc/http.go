package rpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/llmrt/llmrt/internal/origin"
)

// Header names of the streamable HTTP transport.
const (
	headerSession  = "Mcp-Session-Id"
	headerProtocol = "Mcp-Protocol-Version"
)

// ErrSessionLost says a streamable HTTP server no longer knows the
// session (it answered 404): a new one must be initialised.
var ErrSessionLost = errors.New("the server no longer knows the session (404 session not found); it must be initialized again")

// ErrNoAnswer says a server's answer stream ended without the answer.
var ErrNoAnswer = errors.New("the server ended its answer without answering the request")

// retryInterval is how long the standing GET stream waits before it is
// opened again after it broke off.
const retryInterval = time.Second

// HTTPOptions configure a streamable HTTP or SSE transport.
type HTTPOptions struct {
	URL     string
	Headers map[string]string
	// Client sends the requests; its transport adds OAuth tokens.
	Client *http.Client
	// Listen opens the standing GET stream, on which the server sends
	// notifications and requests outside any call, once the protocol
	// version is set.
	Listen bool
}

// HTTP is the streamable HTTP transport.
type HTTP struct {
	o    HTTPOptions
	life context.Context
	stop context.CancelFunc
	rc   Receiver

	mu        sync.Mutex
	session   string
	version   string
	lost      bool
	listening bool
	closeOnce sync.Once
}

// NewHTTP returns a streamable HTTP transport.
func NewHTTP(o HTTPOptions) *HTTP {
	// The configured headers hold credentials: no redirect takes them
	// to another address.
	o.Client = origin.Only(o.Client)
	h := &HTTP{o: o}
	h.life, h.stop = context.WithCancel(context.Background())
	return h
}

// Start implements Transport; nothing is sent until the first message.
func (h *HTTP) Start(_ context.Context, rc Receiver) error {
	h.rc = rc
	return nil
}

// SetProtocolVersion records the version the session speaks, sent with
// every later request, and opens the standing GET stream if asked to.
func (h *HTTP) SetProtocolVersion(v string) {
	h.mu.Lock()
	h.version = v
	listen := h.o.Listen && !h.listening
	h.listening = h.listening || listen
	h.mu.Unlock()
	if listen {
		go h.listen()
	}
}

// request builds a request to the server with the session's headers.
func (h *HTTP) request(ctx context.Context, method string, body []byte, accept string) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, h.o.URL, rd)
	if err != nil {
		return nil, fmt.Errorf("server url %q: %w", h.o.URL, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", accept)
	h.mu.Lock()
	if h.session != "" {
		req.Header.Set(headerSession, h.session)
	}
	if h.version != "" {
		req.Header.Set(headerProtocol, h.version)
	}
	h.mu.Unlock()
	for k, v := range h.o.Headers {
		req.Header.Set(k, v)
	}
	return req, nil
}

// do sends req under a context that Close also ends.
func (h *HTTP) do(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(h.life, cancel)
	resp, err := h.o.Client.Do(req.WithContext(ctx))
	if err != nil {
		stop()
		cancel()
		if h.life.Err() != nil {
			return nil, ErrClosed
		}
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, done: func() { stop(); cancel() }}
	return resp, nil
}

// cancelBody releases its request's context once closed.
type cancelBody struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.done)
	return err
}

// Send implements Transport: one POST. A request's answer, as a JSON body
// or in an SSE stream (resumed if the server ends it early with an event
// id), goes to the Receiver before Send returns, with whatever the
// server sends along with it.
func (h *HTTP) Send(ctx context.Context, msg []byte, id string) error {
	h.mu.Lock()
	lost, first := h.lost, h.session == "" && h.version == ""
	h.mu.Unlock()
	if lost {
		return ErrSessionLost
	}
	req, err := h.request(ctx, http.MethodPost, msg, "application/json, text/event-stream")
	if err != nil {
		return err
	}
	resp, err := h.do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("send to %s: %w", h.o.URL, err)
	}
	defer resp.Body.Close()
	h.mu.Lock()
	sent := req.Header.Get(headerSession)
	if sid := resp.Header.Get(headerSession); sid != "" && h.session == "" && !h.lost {
		h.session = Clean(sid, 1000)
	}
	h.mu.Unlock()
	switch {
	case resp.StatusCode == http.StatusNotFound && sent != "":
		h.mu.Lock()
		h.lost = true
		h.mu.Unlock()
		return ErrSessionLost
	case resp.StatusCode == http.StatusUnauthorized:
		return fmt.Errorf("authorization required: the server answered %s", resp.Status)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		if id != "" && h.rc.Receive(body) == id {
			return nil // a JSON-RPC error answer with an HTTP error status
		}
		err := fmt.Errorf("the server answered %s: %s", resp.Status, Clean(string(bytes.TrimSpace(body)), 500))
		if first && resp.StatusCode >= 400 && resp.StatusCode < 500 {
			err = fmt.Errorf("%w (if it speaks the older HTTP+SSE transport, set \"type\": \"sse\" in its config)", err)
		}
		return err
	case id == "":
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch media {
	case "application/json":
		body, err := io.ReadAll(io.LimitReader(resp.Body, MaxMessage+1))
		if err != nil {
			return fmt.Errorf("read the answer: %w", err)
		}
		if len(body) > MaxMessage {
			return fmt.Errorf("the server's answer is larger than %d MiB", MaxMessage>>20)
		}
		if h.rc.Receive(body) != id {
			return ErrNoAnswer
		}
		return nil
	case "text/event-stream":
		return h.answerStream(ctx, resp.Body, id)
	}
	return fmt.Errorf("the server answered with content type %q, want application/json or text/event-stream", Clean(resp.Header.Get("Content-Type"), 100))
}

// answerStream reads a request's SSE answer stream until the answer
// comes. A server may end the stream before the answer once it has sent
// an event id; the stream is then opened again with Last-Event-ID after
// the delay the server asked for.
func (h *HTTP) answerStream(ctx context.Context, body io.ReadCloser, id string) error {
	var cur cursor
	got := false
	each := func(name string, data []byte) {
		if name != "message" || got {
			return
		}
		if h.rc.Receive(data) == id {
			got = true
			body.Close() // the rest of the stream is not waited for
		}
	}
	ended, err := readEvents(body, &cur, each)
	for !got && ended && cur.lastID != "" && ctx.Err() == nil {
		delay := retryInterval
		if cur.hasRetry {
			delay = max(cur.retry, 10*time.Millisecond)
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return ctx.Err()
		case <-h.life.Done():
			return ErrClosed
		}
		req, rerr := h.request(ctx, http.MethodGet, nil, "text/event-stream")
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Last-Event-ID", cur.lastID)
		resp, rerr := h.do(req)
		if rerr != nil {
			return fmt.Errorf("resume the answer stream: %w", rerr)
		}
		media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if resp.StatusCode != http.StatusOK || media != "text/event-stream" {
			resp.Body.Close()
			return fmt.Errorf("resume the answer stream: the server answered %s (%s)", resp.Status, Clean(media, 100))
		}
		body = resp.Body
		ended, err = readEvents(body, &cur, each)
		body.Close()
	}
	switch {
	case got:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case h.life.Err() != nil:
		return ErrClosed
	case err != nil:
		return fmt.Errorf("read the answer stream: %w", err)
	}
	return ErrNoAnswer
}

// listen keeps the standing GET stream open until Close: it is opened
// again a second after it ends, and given up when the server does not
// offer it (405, 404) or it fails to open five times in a row.
func (h *HTTP) listen() {
	failures := 0
	for h.life.Err() == nil && failures < 5 {
		req, err := h.request(h.life, http.MethodGet, nil, "text/event-stream")
		if err != nil {
			return
		}
		resp, err := h.do(req)
		if err == nil {
			media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
			switch {
			case resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotFound:
				resp.Body.Close()
				return
			case resp.StatusCode == http.StatusOK && media == "text/event-stream":
				failures = -1
				_, _ = readEvents(resp.Body, nil, func(name string, data []byte) {
					if name == "message" {
						h.rc.Receive(data)
					}
				})
			}
			resp.Body.Close()
		}
		failures++
		select {
		case <-time.After(retryInterval):
		case <-h.life.Done():
		}
	}
}

// Close implements Transport: in-flight requests end, and the server is
// told the session is over (a DELETE, bounded by five seconds).
func (h *HTTP) Close() error {
	h.closeOnce.Do(func() {
		h.stop()
		h.mu.Lock()
		session, lost := h.session, h.lost
		h.mu.Unlock()
		if session == "" || lost {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, err := h.request(ctx, http.MethodDelete, nil, "application/json, text/event-stream")
		if err != nil {
			return
		}
		if resp, err := h.o.Client.Do(req); err == nil {
			resp.Body.Close()
		}
	})
	return nil
}
