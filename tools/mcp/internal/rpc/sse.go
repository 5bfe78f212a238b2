package rpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/llmrt/llmrt/internal/origin"
)

// cursor is what resuming an SSE stream needs: the id of the last event
// dispatched and the reconnection delay the server asked for.
type cursor struct {
	lastID   string
	retry    time.Duration
	hasRetry bool
}

// readEvents reads an SSE stream, calling fn with each event's name
// ("message" when none is given) and data, until r ends. It reports
// whether the stream ended (EOF) as opposed to breaking off. An event
// whose data exceeds MaxMessage is dropped. cur, when not nil, records
// the id and retry fields.
func readEvents(r io.Reader, cur *cursor, fn func(name string, data []byte)) (ended bool, err error) {
	lr := newLineReader(r, MaxMessage)
	var name string
	var data []byte
	hasData, oversized := false, false
	var id string
	hasID := false
	dispatch := func() {
		if cur != nil && hasID {
			cur.lastID = id
		}
		hasID = false
		if hasData && !oversized {
			if name == "" {
				name = "message"
			}
			fn(name, data)
		}
		name, data, hasData, oversized = "", data[:0], false, false
		if cap(data) > 1<<20 {
			data = nil
		}
	}
	for {
		line, tooLong, err := lr.next()
		switch {
		case tooLong:
			oversized = true // a field too long to keep loses its event
		case len(line) == 0:
			if err == nil {
				dispatch()
			}
		case line[0] == ':':
			// a comment, sent to keep the connection open
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "event":
				name = string(value)
			case "data":
				if hasData {
					data = append(data, '\n')
				}
				if len(data)+len(value) > MaxMessage {
					oversized = true
				} else {
					data = append(data, value...)
				}
				hasData = true
			case "id":
				if bytes.IndexByte(value, 0) < 0 {
					id, hasID = string(value), true
				}
			case "retry":
				if ms, perr := strconv.ParseUint(string(value), 10, 31); perr == nil && cur != nil {
					cur.retry, cur.hasRetry = time.Duration(ms)*time.Millisecond, true
				}
			}
		}
		if err != nil {
			if err == io.EOF {
				// An event the stream ended in the middle of still counts;
				// its id does not, as it was never finished.
				hasID = false
				dispatch()
				return true, nil
			}
			return false, err
		}
	}
}

// SSE is the older HTTP+SSE transport: a GET stream carries everything the
// server sends, starting with an "endpoint" event naming the URL messages
// are POSTed to.
type SSE struct {
	o       HTTPOptions
	timeout time.Duration
	life    context.Context
	stop    context.CancelFunc

	mu       sync.Mutex
	endpoint *url.URL
}

// NewSSE returns an SSE transport; Start waits at most endpointTimeout
// for the endpoint.
func NewSSE(o HTTPOptions, endpointTimeout time.Duration) *SSE {
	// The configured headers hold credentials: no redirect takes them
	// to another address.
	o.Client = origin.Only(o.Client)
	s := &SSE{o: o, timeout: endpointTimeout}
	s.life, s.stop = context.WithCancel(context.Background())
	return s
}

// Start implements Transport: it opens the stream and waits for the
// endpoint. The stream is read until Close or its end, which is reported
// to rc.Lost.
func (s *SSE) Start(ctx context.Context, rc Receiver) error {
	base, err := url.Parse(s.o.URL)
	if err != nil {
		return fmt.Errorf("server url %q: %w", s.o.URL, err)
	}
	req, err := http.NewRequestWithContext(s.life, http.MethodGet, s.o.URL, nil)
	if err != nil {
		return fmt.Errorf("server url %q: %w", s.o.URL, err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Cache-Control", "no-cache")
	for k, v := range s.o.Headers {
		req.Header.Set(k, v)
	}
	// The request lives as long as the transport; ctx bounds the wait
	// for the answer and the endpoint only.
	stopEarly := context.AfterFunc(ctx, s.stop)
	defer stopEarly()
	resp, err := s.o.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("open the event stream: %w", ctx.Err())
		}
		return fmt.Errorf("open the event stream: %w", err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		resp.Body.Close()
		return fmt.Errorf("authorization required: the server answered %s", resp.Status)
	case resp.StatusCode != http.StatusOK:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		return fmt.Errorf("open the event stream: the server answered %s: %s", resp.Status, Clean(string(bytes.TrimSpace(body)), 500))
	}
	ready := make(chan struct{})
	var once sync.Once
	go func() {
		defer resp.Body.Close()
		_, err := readEvents(resp.Body, nil, func(name string, data []byte) {
			switch name {
			case "endpoint":
				ep, err := base.Parse(string(bytes.TrimSpace(data)))
				if err != nil || ep.Host != base.Host {
					return // an endpoint elsewhere is not followed
				}
				s.mu.Lock()
				s.endpoint = ep
				s.mu.Unlock()
				once.Do(func() { close(ready) })
			case "message":
				rc.Receive(data)
			}
		})
		if err == nil {
			err = errors.New("the server ended its event stream")
		}
		rc.Lost(err)
	}()
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	select {
	case <-ready:
		return nil
	case <-timer.C:
		s.stop()
		return fmt.Errorf("no endpoint event within %s: is it an SSE server? (a streamable HTTP server is configured with \"type\": \"http\")", s.timeout)
	case <-s.life.Done():
		if ctx.Err() != nil {
			return fmt.Errorf("waiting for the endpoint: %w", ctx.Err())
		}
		return ErrClosed
	}
}

// Send implements Transport: a POST to the endpoint; answers come on the
// stream.
func (s *SSE) Send(ctx context.Context, msg []byte, _ string) error {
	s.mu.Lock()
	ep := s.endpoint
	s.mu.Unlock()
	if ep == nil {
		return errors.New("the server has sent no endpoint yet")
	}
	if s.life.Err() != nil {
		return ErrClosed
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.String(), bytes.NewReader(msg))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range s.o.Headers {
		req.Header.Set(k, v)
	}
	resp, err := s.o.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("send to %s: %w", ep.Redacted(), err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return fmt.Errorf("authorization required: the server answered %s", resp.Status)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return fmt.Errorf("the server answered %s: %s", resp.Status, Clean(string(bytes.TrimSpace(body)), 500))
	}
	return nil
}

// Close implements Transport.
func (s *SSE) Close() error {
	s.stop()
	return nil
}
