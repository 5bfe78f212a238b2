package mcp

import (
	"context"
	"io"
	"log"
	"os"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/sandbox"
)

// protocolVersion is the protocol revision llmrt speaks. Pinning it keeps
// a server from being taken for a newer-protocol one.
const protocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION

// Status is a server's state, as `llmrt tools` and the chat's /mcp show
// it.
type Status struct {
	Name string
	// State is one of the State constants: StateStarting, StateReady,
	// StateFailed, StateExited (started again on the next call),
	// StateDisabled; StateRestarting only as OnStatus is told of a
	// restart.
	State string
	// Err is the last error: why it failed, or how it exited (exit
	// status and stderr tail, secrets taken out).
	Err   string
	Tools []string
	// Transport is TransportStdio, TransportHTTP or TransportSSE.
	Transport string
	// Origin is the config file the server comes from (its scope).
	Origin string
	// Restarts counts the restarts since the session (or the last
	// Reconnect or Enable) began.
	Restarts int
}

// Source is a set of MCP servers offered to the engine as one tool source.
// Start starts every enabled server concurrently; a server that fails is a
// diagnostic and the others work. Close ends every server.
type Source struct {
	servers []*conn
	// Dir is the working directory, answered to roots requests and used as
	// the default cwd of stdio servers.
	Dir string
	// OnStatus, when set, is told of each server's start and its outcome.
	OnStatus func(Status)
	// Sandbox confines the stdio servers whose config sets "sandbox": true.
	Sandbox sandbox.Policy

	auth Auth // set by SetAuth

	askMu  sync.Mutex // one elicitation form at a time
	askSet sync.Mutex // guards ask
	ask    AskFunc

	lastMu   sync.Mutex
	last     []tools.Tool
	lastGens []uint64

	// closed is set by Close: no server is started again after it.
	closed atomic.Bool
}

// New returns a source for the servers in list. A server its config
// disables is not started, and is listed as disabled until Enable.
func New(list []Server, dir string) *Source {
	s := &Source{Dir: dir}
	for _, sv := range list {
		c := &conn{cfg: sv, dir: dir, src: s}
		if !sv.IsEnabled() {
			c.state = StateDisabled
		}
		s.servers = append(s.servers, c)
	}
	return s
}

// SetAsk sets how servers' elicitation requests reach a person; with none
// (nil, the default) they are declined. It may be called while servers
// run: each request reads it, and requests are put one at a time.
func (s *Source) SetAsk(ask AskFunc) {
	s.askSet.Lock()
	s.ask = ask
	s.askSet.Unlock()
}

func (s *Source) askFunc() AskFunc {
	s.askSet.Lock()
	defer s.askSet.Unlock()
	return s.ask
}

// Len returns the number of servers, disabled ones included.
func (s *Source) Len() int { return len(s.servers) }

var quietLog sync.Once

// Start starts every server concurrently, each within its start-up timeout.
// It fails only when ctx ends; failed servers are diagnostics.
func (s *Source) Start(ctx context.Context) error {
	// A library may report problems through the standard logger (mcp-go's
	// client did); they are ours to report, never the terminal's.
	quietLog.Do(func() {
		if log.Writer() == os.Stderr {
			log.SetOutput(io.Discard)
		}
	})
	var wg sync.WaitGroup
	for _, c := range s.servers {
		if c.status().State == StateDisabled {
			continue
		}
		wg.Add(1)
		go func(c *conn) {
			defer wg.Done()
			if s.OnStatus != nil {
				s.OnStatus(Status{Name: c.cfg.Name, State: "starting"})
			}
			c.start(ctx)
			if s.OnStatus != nil {
				s.OnStatus(c.status())
			}
		}(c)
	}
	wg.Wait()
	return ctx.Err()
}

// Statuses reports every server's state, in name order, with the names
// its tools were last offered under.
func (s *Source) Statuses() []Status {
	s.lastMu.Lock()
	last := s.last
	s.lastMu.Unlock()
	out := make([]Status, 0, len(s.servers))
	for _, c := range s.servers {
		st := c.status()
		if last != nil {
			st.Tools = nil
			for _, t := range last {
				if t.Source == "mcp:"+c.cfg.Name {
					st.Tools = append(st.Tools, t.Name)
				}
			}
		}
		out = append(out, st)
	}
	return out
}

// Tools returns the tools of every ready server. The slice is the same
// while no server's list changed. A name two servers give (only servers
// whose names sanitise alike, "a.b" and "a_b", can) stays with the server
// first by name; the other's tool gets _2 (then _3...), as within one
// server.
func (s *Source) Tools(ctx context.Context) ([]tools.Tool, error) {
	var out []tools.Tool
	taken := map[string]bool{}
	for _, c := range s.servers {
		ts, _ := c.currentTools(ctx) // on a failed refresh, the list it had
		for _, t := range ts {
			if taken[t.Name] {
				base := t.Name
				for k := 2; taken[t.Name]; k++ {
					t.Name = withSuffix(base, k)
				}
			}
			taken[t.Name] = true
			out = append(out, t)
		}
	}
	// The resource tools come with the first server that has resources.
	res := s.hasResourceServer()
	if res {
		out = append(out, s.resourceTools()...)
	}
	return s.stable(out, res), nil
}

func (s *Source) stable(out []tools.Tool, res bool) []tools.Tool {
	s.lastMu.Lock()
	defer s.lastMu.Unlock()
	gen := make([]uint64, len(s.servers)+1)
	for i, c := range s.servers {
		gen[i] = c.gen.Load()
	}
	if res {
		gen[len(s.servers)] = 1
	}
	if s.lastGens != nil && equalGens(gen, s.lastGens) {
		return s.last
	}
	s.last, s.lastGens = out, gen
	return out
}

func equalGens(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Diagnostics names every server that failed to start, with its stderr
// tail.
func (s *Source) Diagnostics() []tools.Diagnostic {
	var out []tools.Diagnostic
	for _, c := range s.servers {
		st := c.status()
		if st.State == StateFailed {
			out = append(out, tools.Diagnostic{Source: "mcp server " + c.cfg.Name, Message: st.Err})
		}
	}
	return out
}

// Close ends every server: the client, then a stdio server's whole process
// group.
func (s *Source) Close() error {
	s.closed.Store(true)
	var wg sync.WaitGroup
	for _, c := range s.servers {
		wg.Add(1)
		go func(c *conn) {
			defer wg.Done()
			// A restart under way finishes first, so that its process is
			// not left behind.
			c.reviveMu.Lock()
			defer c.reviveMu.Unlock()
			c.close()
		}(c)
	}
	wg.Wait()
	return nil
}
