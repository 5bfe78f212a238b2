package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/mcp/internal/rpc"
	"github.com/llmrt/llmrt/tools/mcp/oauth"
	"github.com/llmrt/llmrt/tools/sandbox"
)

// conn is one server.
type conn struct {
	cfg Server
	dir string
	src *Source

	mu     sync.Mutex
	state  string
	err    string
	client *session
	cancel context.CancelFunc
	cmd    *exec.Cmd
	stderr *tailBuffer
	tools  []tools.Tool
	names  []string
	stale  bool
	// listChanged says the server announces changes to its tool list:
	// the list is read again after each of its calls, since the
	// notification that follows a call may arrive after its result.
	listChanged bool
	gen         atomic.Uint64

	// oauth authorizes an HTTP or SSE server's requests (auth.go).
	oauth *oauth.Transport

	progMu   sync.Mutex
	progress map[string]*progressSink
	nextTok  atomic.Uint64

	// reviveMu makes one call at a time restart the server or note its
	// exit (lifecycle.go); the fields below are guarded by mu.
	reviveMu sync.Mutex
	pid      int // a stdio server's process, 0 when none runs
	roots    *rootsGate
	restarts int
	exitedAt time.Time
}

func (c *conn) status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.state
	if st == "" {
		st = StateStarting
	}
	kind, _ := c.cfg.Transport()
	return Status{Name: c.cfg.Name, State: st, Err: c.err, Tools: append([]string(nil), c.names...),
		Transport: kind, Origin: c.cfg.Origin, Restarts: c.restarts}
}

func (c *conn) fail(err error) {
	msg := err.Error()
	if c.stderr != nil {
		if tail := strings.TrimSpace(c.stderr.String()); tail != "" {
			msg += "; stderr: " + tail
		}
	}
	c.mu.Lock()
	c.state, c.err = StateFailed, c.redact(msg)
	c.mu.Unlock()
}

func (c *conn) start(ctx context.Context) {
	if err := c.cfg.Validate(); err != nil {
		c.fail(err)
		return
	}
	kind, _ := c.cfg.Transport()
	// The client's context owns the server for its whole life; start-up
	// is bounded separately.
	life, cancel := context.WithCancel(context.Background())
	c.mu.Lock()
	c.cancel, c.roots = cancel, nil
	c.mu.Unlock()
	var tr rpc.Transport
	var httpTr *rpc.HTTP
	switch kind {
	case TransportStdio:
		c.stderr = &tailBuffer{max: 2048}
		var err error
		if c.cfg.Sandbox && c.src != nil && c.src.Sandbox.Confined() {
			if tr, err = c.startSandboxed(); err != nil {
				c.fail(fmt.Errorf("start %s in the sandbox: %w", c.describe(), err))
				return
			}
		} else if tr, err = c.startProcess(); err != nil {
			c.fail(fmt.Errorf("start %s: %w", c.describe(), err))
			return
		}
	case TransportHTTP:
		// Server notifications (list_changed, progress) and requests
		// (roots, elicitation) also come on the standing GET stream.
		httpTr = rpc.NewHTTP(rpc.HTTPOptions{URL: c.cfg.URL, Headers: c.headers(), Client: c.httpClient(), Listen: true})
		tr = httpTr
	case TransportSSE:
		// The stream opened by Start lives as long as the server, so the
		// start-up timeout bounds the wait for its endpoint instead.
		tr = rpc.NewSSE(rpc.HTTPOptions{URL: c.cfg.URL, Headers: c.headers(), Client: c.httpClient()}, c.cfg.StartTimeout())
	}
	var p peer
	if kind != TransportSSE {
		// Over SSE none of the capabilities that bring server requests is
		// declared, as before llmrt had its own client: a server behind
		// that older transport is not asked to rely on them.
		p.elicit = &elicitor{c}
		if roots := c.cfg.announcedRoots(c.dir); roots != nil {
			// A server told of no roots is not told it could ask for them.
			gate := newRootsGate()
			c.mu.Lock()
			c.roots = gate
			c.mu.Unlock()
			p.roots = &rootsHandler{dirs: roots, asked: gate.ask}
		}
	}
	cl := &session{http: httpTr}
	cl.rpc = rpc.NewClient(tr, rpc.Options{Handle: p.handle, Notify: c.notify})
	if err := cl.rpc.Start(life); err != nil {
		var login *oauth.LoginRequiredError
		if errors.As(err, &login) {
			err = login
		}
		_ = cl.Close()
		c.fail(fmt.Errorf("start %s: %w", c.describe(), err))
		c.close()
		return
	}
	c.mu.Lock()
	c.client = cl
	c.mu.Unlock()
	ictx, done := context.WithTimeout(ctx, c.cfg.StartTimeout())
	defer done()
	init, err := cl.initialize(ictx, p)
	if err != nil {
		var login *oauth.LoginRequiredError
		if errors.As(err, &login) {
			// The way on, without the layers of the request that met it.
			c.fail(login)
			c.close()
			return
		}
		if errors.Is(ictx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s (raise \"timeout\" in its config)", c.cfg.StartTimeout())
		}
		c.fail(fmt.Errorf("initialize %s: %w", c.describe(), err))
		c.close()
		return
	}
	// A server that declares no tools (one with only resources or
	// prompts) may answer tools/list with an error: it has none then.
	if err := c.list(ictx); err != nil && init.Capabilities.Tools != nil {
		c.fail(fmt.Errorf("list tools of %s: %w", c.describe(), err))
		c.close()
		return
	}
	c.mu.Lock()
	if c.roots != nil {
		c.roots.readyAt = time.Now()
	}
	c.state = StateReady
	c.listChanged = init.Capabilities.Tools != nil && init.Capabilities.Tools.ListChanged
	if c.cmd != nil && c.cmd.Process != nil {
		c.pid = c.cmd.Process.Pid
	}
	c.mu.Unlock()
}

func (c *conn) describe() string {
	if c.cfg.URL != "" {
		return c.cfg.URL
	}
	return strings.TrimSpace(c.cfg.Command + " " + strings.Join(c.cfg.Args, " "))
}

// env is the server's environment: a small part of llmrt's and its
// config's env (serverEnv).
func (c *conn) env() []string { return serverEnv(os.Environ(), c.cfg) }

// command builds a stdio server's process in its own process group, so
// that Close can stop it and everything it started.
func (c *conn) command() *exec.Cmd {
	cmd := exec.Command(c.cfg.Command, c.cfg.Args...)
	cmd.Env = c.env()
	cmd.Dir = c.cfg.Cwd
	if cmd.Dir == "" {
		cmd.Dir = c.dir
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Given here, stderr is copied by exec, so that once the process is
	// waited for its tail is complete; a child holding it open cannot
	// hold up the wait for long.
	cmd.Stderr = c.stderr
	cmd.WaitDelay = time.Second
	c.mu.Lock()
	c.cmd = cmd
	c.mu.Unlock()
	return cmd
}

// list fetches every page of the server's tools.
func (c *conn) list(ctx context.Context) error {
	c.mu.Lock()
	cl := c.client
	c.mu.Unlock()
	if cl == nil {
		return errors.New("not connected")
	}
	var all []mcp.Tool
	var cursor mcp.Cursor
	for page := 0; ; page++ {
		res, err := cl.listTools(ctx, cursor)
		if err != nil {
			return err
		}
		all = append(all, res.Tools...)
		if res.NextCursor == "" || page > 1000 {
			break
		}
		cursor = res.NextCursor
	}
	all = c.cfg.offered(all)
	raw := make([]string, len(all))
	for i, t := range all {
		raw[i] = t.Name
	}
	names := uniqueNames(c.cfg.Name, raw)
	out := make([]tools.Tool, len(all))
	for i, t := range all {
		out[i] = c.tool(names[i], t)
	}
	c.mu.Lock()
	same := sameTools(c.tools, out)
	if !same {
		c.tools, c.names = out, names
	}
	c.stale = false
	c.mu.Unlock()
	if !same {
		// Only a changed list is a new one: the run's tool surface, and the
		// request prefix the provider caches, stay as they were otherwise.
		c.gen.Add(1)
	}
	return nil
}

func (c *conn) currentTools(ctx context.Context) ([]tools.Tool, error) {
	c.mu.Lock()
	// An exited server's tools stay offered: the next call starts it.
	ready, stale := c.state == StateReady, c.stale
	ts := c.tools
	exited := c.state == StateExited
	c.mu.Unlock()
	if exited {
		return ts, nil
	}
	if !ready {
		return nil, nil
	}
	if stale {
		lctx, done := context.WithTimeout(ctx, c.cfg.StartTimeout())
		defer done()
		if err := c.list(lctx); err != nil {
			return ts, err
		}
		c.mu.Lock()
		ts = c.tools
		c.mu.Unlock()
	}
	return ts, nil
}

// close ends the client and a stdio server's process group.
func (c *conn) close() {
	c.mu.Lock()
	cl, cancel, cmd := c.client, c.cancel, c.cmd
	c.client, c.cmd = nil, nil
	c.mu.Unlock()
	var pgid int
	if cmd != nil && cmd.Process != nil {
		pgid = cmd.Process.Pid
	}
	if pgid > 0 {
		// The group first, so that a wrapper (npx, sh -c) cannot leave its
		// children behind.
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
	}
	closed := make(chan struct{})
	go func() {
		// Close reaps the direct child. It would wait 5 s for one that
		// ignores SIGTERM; stopGroup kills the group sooner, which ends
		// that wait.
		defer close(closed)
		if cl != nil {
			_ = cl.Close()
		}
	}()
	if pgid > 0 {
		stopGroup(pgid)
	}
	<-closed
	if cancel != nil {
		cancel()
	}
}

// startProcess starts a stdio server and returns a transport over its
// pipes. The process is not waited for until the transport closes: until
// then its exit status can be read from its zombie (lifecycle.go).
func (c *conn) startProcess() (rpc.Transport, error) {
	cmd := c.command()
	stdin, stdout, started, err := pipes(cmd)
	if err != nil {
		return nil, err
	}
	err = cmd.Start()
	started()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	return rpc.NewStream(stdout, stdin, func() error { return waitProcess(cmd) }), nil
}

// startSandboxed starts a stdio server confined by the source's sandbox
// policy and returns a transport over its pipes.
func (c *conn) startSandboxed() (rpc.Transport, error) {
	cmd := c.command()
	stdin, stdout, started, err := pipes(cmd)
	if err != nil {
		return nil, err
	}
	p := c.src.Sandbox
	p.Workspace = c.dir
	cleanup, err := sandbox.Start(cmd, p)
	started()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); cleanup(); close(exited) }()
	return rpc.NewStream(stdout, stdin, func() error {
		select {
		case <-exited:
		case <-time.After(closeWait):
			_ = cmd.Process.Kill()
			<-exited
		}
		return nil
	}), nil
}

// pipes gives cmd its stdin and stdout. Its stdin is written through an
// *os.File so that a write to a server that stopped reading can be cut
// short when the call's context ends. The child's end is closed here once
// the process has started (afterStart).
func pipes(cmd *exec.Cmd) (stdin io.WriteCloser, stdout io.ReadCloser, afterStart func(), err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	cmd.Stdin = r
	stdout, err = cmd.StdoutPipe()
	if err != nil {
		r.Close()
		w.Close()
		return nil, nil, nil, err
	}
	return w, stdout, func() { r.Close() }, nil
}

// sameTools reports whether two listings offer the same tools: names,
// descriptions, schemas and kinds.
func sameTools(a, b []tools.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || a[i].Kind != b[i].Kind ||
			!bytes.Equal(a[i].Schema, b[i].Schema) {
			return false
		}
	}
	return true
}
