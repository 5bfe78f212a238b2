package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Roots is a server's "roots" setting: a list of directories, or false
// (no Paths) to announce none.
type Roots struct {
	Paths []string
}

// UnmarshalJSON reads a list of directories or false.
func (r *Roots) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("false")) {
		r.Paths = nil
		return nil
	}
	if err := json.Unmarshal(b, &r.Paths); err != nil {
		return fmt.Errorf(`"roots" must be a list of directories, e.g. ["~/notes"], or false to announce none`)
	}
	return nil
}

// MarshalJSON writes the list, or false for none.
func (r Roots) MarshalJSON() ([]byte, error) {
	if len(r.Paths) == 0 {
		return []byte("false"), nil
	}
	return json.Marshal(r.Paths)
}

// expandHome turns a leading ~ into the home directory.
func expandHome(paths []string) []string {
	home, err := os.UserHomeDir()
	out := make([]string, len(paths))
	for i, p := range paths {
		if err == nil && (p == "~" || strings.HasPrefix(p, "~/")) {
			p = filepath.Join(home, p[1:])
		}
		out[i] = p
	}
	return out
}

// announcedRoots returns the directories the server is told are its
// roots; nil means none, and then the roots capability is not declared at
// all. A configured list wins, and false means none. Otherwise a stdio
// server whose arguments name an existing directory gets none: it serves
// the directories it was given (server-filesystem ~/notes), which roots
// would replace; every other server gets the workspace.
func (s Server) announcedRoots(workspace string) []string {
	if s.Roots != nil {
		if len(s.Roots.Paths) == 0 {
			return nil
		}
		out := make([]string, len(s.Roots.Paths))
		for i, p := range s.Roots.Paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(workspace, p)
			}
			out[i] = filepath.Clean(p)
		}
		return out
	}
	if t, _ := s.Transport(); t == TransportStdio {
		cwd := s.Cwd
		if cwd == "" {
			cwd = workspace
		}
		for _, a := range s.Args {
			if a == "" || strings.HasPrefix(a, "-") {
				continue
			}
			if !filepath.IsAbs(a) {
				a = filepath.Join(cwd, a)
			}
			if st, err := os.Stat(a); err == nil && st.IsDir() {
				return nil
			}
		}
	}
	return []string{workspace}
}

// rootsHandler answers roots requests with the directories announced, in
// the order configured, and tells asked of each request.
type rootsHandler struct {
	dirs  []string
	asked func()
}

func (h rootsHandler) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	if h.asked != nil {
		defer h.asked()
	}
	roots := make([]mcp.Root, len(h.dirs))
	for i, d := range h.dirs {
		u := url.URL{Scheme: "file", Path: d}
		roots[i] = mcp.Root{URI: u.String(), Name: filepath.Base(d)}
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}

// rootsWindow is how long after initialisation a server is given to ask
// for its roots before its first call goes, and rootsSettle how long it
// gets to apply the answer. A server asks after initialisation, on its
// own time, and applies the roots while it takes calls: without the
// wait, a first call made at once would find its directories not set yet.
const (
	rootsWindow = 300 * time.Millisecond
	rootsSettle = 250 * time.Millisecond
)

// rootsGate holds a server's first call until it has asked for its roots
// and applied them, or rootsWindow has passed without it asking.
type rootsGate struct {
	asked   chan struct{}
	once    sync.Once
	readyAt time.Time
	passed  atomic.Bool
}

func newRootsGate() *rootsGate { return &rootsGate{asked: make(chan struct{})} }

func (g *rootsGate) ask() {
	g.once.Do(func() { close(g.asked) })
}

// wait returns when a first call may go.
func (g *rootsGate) wait(ctx context.Context) {
	if g == nil || g.passed.Load() {
		return
	}
	defer g.passed.Store(true)
	left := time.Until(g.readyAt.Add(rootsWindow))
	if left <= 0 {
		select {
		case <-g.asked:
		default:
			return
		}
	}
	timer := time.NewTimer(max(left, 0))
	defer timer.Stop()
	select {
	case <-g.asked:
		settle := time.NewTimer(rootsSettle)
		defer settle.Stop()
		select {
		case <-settle.C:
		case <-ctx.Done():
		}
	case <-timer.C:
	case <-ctx.Done():
	}
}
