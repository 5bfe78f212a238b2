package mcp

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/llmrt/llmrt/tools"
)

// progressSink forwards one call's progress notifications. Notifications can
// be delivered on separate goroutines, so they may arrive out of order; the
// protocol says progress only increases, so one that does not move past the
// last forwarded value is stale and dropped.
type progressSink struct {
	mu     sync.Mutex
	report func(tools.Progress)
	last   tools.Progress
	seen   bool
}

func (s *progressSink) forward(p tools.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen && p.Progress <= s.last.Progress {
		return
	}
	s.seen, s.last = true, p
	s.report(p)
}

// say reports a message about the call, its progress as it was.
func (s *progressSink) say(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.last
	p.Message = msg
	s.report(p)
}

// sayToCalls reports msg as progress of every call in flight on the
// server. Asking the person for an elicitation goes through it first: a
// host shows that the call now waits for them (a terminal's spinner for
// the call stops, so it does not draw over the form).
func (c *conn) sayToCalls(msg string) {
	c.progMu.Lock()
	sinks := make([]*progressSink, 0, len(c.progress))
	for _, s := range c.progress {
		sinks = append(sinks, s)
	}
	c.progMu.Unlock()
	for _, s := range sinks {
		s.say(msg)
	}
}

// notify takes a server's notification; it runs on the connection's
// reading goroutine and does not block.
func (c *conn) notify(method string, params json.RawMessage) {
	switch method {
	case "notifications/tools/list_changed":
		c.mu.Lock()
		c.stale = true
		c.mu.Unlock()
	case "notifications/progress":
		var f struct {
			Token    any     `json:"progressToken"`
			Progress float64 `json:"progress"`
			Total    float64 `json:"total"`
			Message  string  `json:"message"`
		}
		if json.Unmarshal(params, &f) != nil {
			return
		}
		tok := fmt.Sprint(f.Token)
		c.progMu.Lock()
		sink := c.progress[tok]
		c.progMu.Unlock()
		if sink == nil {
			return
		}
		sink.forward(tools.Progress{Progress: f.Progress, Total: f.Total, Message: f.Message})
	}
}
