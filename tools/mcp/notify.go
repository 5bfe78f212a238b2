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
	last   float64
	seen   bool
}

func (s *progressSink) forward(p tools.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen && p.Progress <= s.last {
		return
	}
	s.seen, s.last = true, p.Progress
	s.report(p)
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
