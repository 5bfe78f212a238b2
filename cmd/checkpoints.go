package cmd

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools/checkpoint"
)

// checkpointsDir is where sessions' checkpoints are kept, one directory
// per session: $XDG_STATE_HOME/llmrt/checkpoints; "" without a home.
func checkpointsDir(getenv func(string) string) string {
	if d := config.StateDir(getenv); d != "" {
		return filepath.Join(d, "checkpoints")
	}
	return ""
}

// checkpointer snapshots the workspace before and after every change a
// session's runs make, so `llmrt rewind` can put it back. The session
// and its turn are read when a call comes, since the conversation that
// holds them is opened after the request is built.
type checkpointer struct {
	base, root string
	policy     checkpoint.Policy
	warn       func(string)

	mu       sync.Mutex
	session  func() string
	messages func() []engine.Message
	stores   map[string]*checkpoint.Store
	warned   bool
}

// wire points the checkpointer at the conversation the runs belong to.
func (c *checkpointer) wire(session func() string, messages func() []engine.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.session, c.messages = session, messages
}

// take snapshots the workspace for the current session, if there is one.
// A checkpoint that cannot be taken is a warning (once), not a reason to
// refuse the call.
func (c *checkpointer) take(ctx context.Context, phase, tool string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session == nil {
		return
	}
	id := c.session()
	if id == "" {
		return
	}
	st := c.storeLocked(id)
	if _, err := st.Take(ctx, userTurns(c.messages()), phase, tool); err != nil && !c.warned {
		c.warned = true
		c.warn("checkpoint: " + err.Error() + "; llmrt rewind cannot restore this change")
	}
}

// store is session id's checkpoint store, the one its runs' changes are
// taken into.
func (c *checkpointer) store(id string) *checkpoint.Store {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.storeLocked(id)
}

func (c *checkpointer) storeLocked(id string) *checkpoint.Store {
	st := c.stores[id]
	if st == nil {
		if c.stores == nil {
			c.stores = map[string]*checkpoint.Store{}
			// Once a process, drop what sessions long gone left behind.
			// Sizing every store reads them all, so it runs beside the
			// call rather than before it; it never touches this session's
			// store, and a prune cut short by the process ending leaves
			// no half store (see checkpoint.Prune).
			p := c.policy
			p.Keep = id
			go checkpoint.Prune(c.base, p, time.Now())
		}
		// The chat moves to a new session on /clear or a rewind: stop
		// watching the workspace for the stores it left, each of which
		// holds a watch per directory.
		for _, old := range c.stores {
			old.Close()
		}
		st = checkpoint.Open(checkpoint.Options{Dir: filepath.Join(c.base, id), Root: c.root})
		c.stores[id] = st
	}
	return st
}

// checkpointPolicy reads the checkpoints setting: ok false when it turns
// checkpoints off.
func checkpointPolicy(c *config.Checkpoints) (p checkpoint.Policy, ok bool) {
	p = checkpoint.Policy{MaxAge: checkpoint.DefaultMaxAge, MaxSize: checkpoint.DefaultMaxSize}
	if c == nil {
		return p, true
	}
	if c.MaxAgeDays != nil {
		p.MaxAge = time.Duration(max(*c.MaxAgeDays, 0)) * 24 * time.Hour
	}
	if c.MaxSizeMB != nil {
		p.MaxSize = int64(max(*c.MaxSizeMB, 0)) << 20
	}
	return p, c.Enabled == nil || *c.Enabled
}

// userTurns counts the person's messages: the turn a call belongs to,
// numbered from 1, since a turn's prompt is in the conversation before
// its calls run.
func userTurns(msgs []engine.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == providers.RoleUser {
			n++
		}
	}
	return n
}

// checkpointHooks takes a checkpoint before and after every call that
// may change something, then asks the hooks the person configured
// (inner, possibly nil). Read calls pass straight through.
type checkpointHooks struct {
	inner engine.Hooks
	cp    *checkpointer
}

func (h checkpointHooks) BeforeTool(ctx context.Context, c engine.HookCall) engine.HookVerdict {
	if c.Kind.Mutating() {
		h.cp.take(ctx, checkpoint.PhaseBefore, c.Tool)
	}
	if h.inner == nil {
		return engine.HookVerdict{}
	}
	return h.inner.BeforeTool(ctx, c)
}

func (h checkpointHooks) AfterTool(ctx context.Context, c engine.HookCall, o engine.ToolOutcome) engine.HookVerdict {
	// The snapshot after the call is what rewind compares the workspace
	// with to find changes made outside llmrt.
	if c.Kind.Mutating() {
		h.cp.take(ctx, checkpoint.PhaseAfter, c.Tool)
	}
	if h.inner == nil {
		return engine.HookVerdict{}
	}
	return h.inner.AfterTool(ctx, c, o)
}

func (h checkpointHooks) BeforeStop(ctx context.Context, s engine.HookStop) engine.HookVerdict {
	if h.inner == nil {
		return engine.HookVerdict{}
	}
	return h.inner.BeforeStop(ctx, s)
}
