package mcp

import (
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

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

func (c *conn) notify(n mcp.JSONRPCNotification) {
	switch n.Method {
	case "notifications/tools/list_changed":
		c.mu.Lock()
		c.stale = true
		c.mu.Unlock()
	case "notifications/progress":
		fields := n.Params.AdditionalFields
		tok := fmt.Sprint(fields["progressToken"])
		c.progMu.Lock()
		sink := c.progress[tok]
		c.progMu.Unlock()
		if sink == nil {
			return
		}
		p := tools.Progress{}
		if v, ok := fields["progress"].(float64); ok {
			p.Progress = v
		}
		if v, ok := fields["total"].(float64); ok {
			p.Total = v
		}
		if v, ok := fields["message"].(string); ok {
			p.Message = v
		}
		sink.forward(p)
	}
}
