package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/sandbox"
)

// protocolVersion is the protocol revision llmrt speaks. Pinning it keeps
// a server from being taken for a newer-protocol one.
const protocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION

// killGrace is how long a server's process group has after SIGTERM.
const killGrace = 2 * time.Second

// Status is a server's state, as `llmrt tools` shows it.
type Status struct {
	Name  string
	State string // "starting", "ready", "failed"
	Err   string
	Tools []string
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

	lastMu   sync.Mutex
	last     []tools.Tool
	lastGens []uint64
}

// New returns a source for the enabled servers in list.
func New(list []Server, dir string) *Source {
	s := &Source{Dir: dir}
	for _, sv := range list {
		if sv.IsEnabled() {
			s.servers = append(s.servers, &conn{cfg: sv, dir: dir, src: s})
		}
	}
	return s
}

// Len returns the number of enabled servers.
func (s *Source) Len() int { return len(s.servers) }

var quietLog sync.Once

// Start starts every server concurrently, each within its start-up timeout.
// It fails only when ctx ends; failed servers are diagnostics.
func (s *Source) Start(ctx context.Context) error {
	// mcp-go reports some problems through the standard logger; they are
	// ours to report, never the terminal's.
	quietLog.Do(func() {
		if log.Writer() == os.Stderr {
			log.SetOutput(io.Discard)
		}
	})
	var wg sync.WaitGroup
	for _, c := range s.servers {
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

// Statuses reports every server's state, in name order.
func (s *Source) Statuses() []Status {
	out := make([]Status, 0, len(s.servers))
	for _, c := range s.servers {
		out = append(out, c.status())
	}
	return out
}

// Tools returns the tools of every ready server. The slice is the same
// while no server's list changed.
func (s *Source) Tools(ctx context.Context) ([]tools.Tool, error) {
	var out []tools.Tool
	for _, c := range s.servers {
		ts, err := c.currentTools(ctx)
		if err != nil {
			continue
		}
		out = append(out, ts...)
	}
	return s.stable(out), nil
}

func (s *Source) stable(out []tools.Tool) []tools.Tool {
	s.lastMu.Lock()
	defer s.lastMu.Unlock()
	gen := make([]uint64, len(s.servers))
	for i, c := range s.servers {
		gen[i] = c.gen.Load()
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
		if st.State == "failed" {
			out = append(out, tools.Diagnostic{Source: "mcp server " + c.cfg.Name, Message: st.Err})
		}
	}
	return out
}

// Close ends every server: the client, then a stdio server's whole process
// group.
func (s *Source) Close() error {
	var wg sync.WaitGroup
	for _, c := range s.servers {
		wg.Add(1)
		go func(c *conn) { defer wg.Done(); c.close() }(c)
	}
	wg.Wait()
	return nil
}

// conn is one server.
type conn struct {
	cfg Server
	dir string
	src *Source

	mu     sync.Mutex
	state  string
	err    string
	client *client.Client
	cancel context.CancelFunc
	cmd    *exec.Cmd
	stderr *tailBuffer
	tools  []tools.Tool
	names  []string
	stale  bool
	gen    atomic.Uint64

	progMu   sync.Mutex
	progress map[string]*progressSink
	nextTok  atomic.Uint64
}

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

func (c *conn) status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.state
	if st == "" {
		st = "starting"
	}
	return Status{Name: c.cfg.Name, State: st, Err: c.err, Tools: append([]string(nil), c.names...)}
}

func (c *conn) fail(err error) {
	msg := err.Error()
	if c.stderr != nil {
		if tail := strings.TrimSpace(c.stderr.String()); tail != "" {
			msg += "; stderr: " + tail
		}
	}
	c.mu.Lock()
	c.state, c.err = "failed", msg
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
	c.cancel = cancel
	c.mu.Unlock()
	opts := []client.ClientOption{client.WithProtocolVersion(protocolVersion)}
	var tr transport.Interface
	switch kind {
	case TransportStdio:
		c.stderr = &tailBuffer{max: 2048}
		if c.cfg.Sandbox && c.src != nil && c.src.Sandbox.Confined() {
			sio, err := c.startSandboxed()
			if err != nil {
				c.fail(fmt.Errorf("start %s in the sandbox: %w", c.describe(), err))
				return
			}
			tr = sio
			break
		}
		tr = transport.NewStdioWithOptions(c.cfg.Command, c.env(), c.cfg.Args,
			transport.WithCommandFunc(c.command),
			transport.WithCommandStderrWriter(c.stderr),
			transport.WithCommandLogger(discardLogger()))
		opts = append(opts, client.WithRootsHandler(rootsHandler{dir: c.dir}))
	case TransportHTTP:
		h, err := transport.NewStreamableHTTP(c.cfg.URL,
			transport.WithHTTPHeaders(c.cfg.Headers),
			transport.WithContinuousListening(),
			transport.WithHTTPLogger(discardLogger()))
		if err != nil {
			c.fail(err)
			return
		}
		tr = h
		opts = append(opts, client.WithRootsHandler(rootsHandler{dir: c.dir}))
	case TransportSSE:
		h, err := transport.NewSSE(c.cfg.URL, transport.WithHeaders(c.cfg.Headers))
		if err != nil {
			c.fail(err)
			return
		}
		tr = h
	}
	cl := client.NewClient(tr, opts...)
	cl.OnNotification(c.notify)
	if err := cl.Start(life); err != nil {
		c.fail(fmt.Errorf("start %s: %w", c.describe(), err))
		c.close()
		return
	}
	c.mu.Lock()
	c.client = cl
	c.mu.Unlock()
	ictx, done := context.WithTimeout(ctx, c.cfg.StartTimeout())
	defer done()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = protocolVersion
	req.Params.ClientInfo = mcp.Implementation{Name: "llmrt", Version: "dev"}
	if kind != TransportSSE {
		req.Params.Capabilities.Roots = &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{}
	}
	if _, err := cl.Initialize(ictx, req); err != nil {
		if errors.Is(ictx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s (raise \"timeout\" in its config)", c.cfg.StartTimeout())
		}
		c.fail(fmt.Errorf("initialize %s: %w", c.describe(), err))
		c.close()
		return
	}
	if err := c.list(ictx); err != nil {
		c.fail(fmt.Errorf("list tools of %s: %w", c.describe(), err))
		c.close()
		return
	}
	c.mu.Lock()
	c.state = "ready"
	c.mu.Unlock()
}

func (c *conn) describe() string {
	if c.cfg.URL != "" {
		return c.cfg.URL
	}
	return strings.TrimSpace(c.cfg.Command + " " + strings.Join(c.cfg.Args, " "))
}

// env is the server's environment: llmrt's, plus its config's env.
func (c *conn) env() []string {
	env := os.Environ()
	keys := make([]string, 0, len(c.cfg.Env))
	for k := range c.cfg.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+c.cfg.Env[k])
	}
	return env
}

// command builds a stdio server's process in its own process group, so
// that Close can stop it and everything it started.
func (c *conn) command(_ context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
	cmd := exec.Command(command, args...)
	cmd.Env = env
	cmd.Dir = c.cfg.Cwd
	if cmd.Dir == "" {
		cmd.Dir = c.dir
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.mu.Lock()
	c.cmd = cmd
	c.mu.Unlock()
	return cmd, nil
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
		req := mcp.ListToolsRequest{}
		req.Params.Cursor = cursor
		res, err := cl.ListToolsByPage(ctx, req)
		if err != nil {
			return err
		}
		all = append(all, res.Tools...)
		if res.NextCursor == "" || page > 1000 {
			break
		}
		cursor = res.NextCursor
	}
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
	c.tools, c.names, c.stale = out, names, false
	c.mu.Unlock()
	c.gen.Add(1)
	return nil
}

func (c *conn) currentTools(ctx context.Context) ([]tools.Tool, error) {
	c.mu.Lock()
	ready, stale := c.state == "ready", c.stale
	ts := c.tools
	c.mu.Unlock()
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

// tool wraps one server tool.
func (c *conn) tool(name string, t mcp.Tool) tools.Tool {
	schema, err := json.Marshal(t.InputSchema)
	if t.RawInputSchema != nil {
		schema, err = t.RawInputSchema, nil
	}
	if err != nil || len(schema) == 0 || string(schema) == "null" {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	schema = normaliseSchema(schema)
	kind := tools.KindExternalAction
	if t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint {
		kind = tools.KindRead
	}
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	remote := t.Name
	return tools.Tool{
		Name:        name,
		Description: desc,
		Schema:      schema,
		Kind:        kind,
		Source:      "mcp:" + c.cfg.Name,
		Execute: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			return c.call(ctx, remote, args)
		},
	}
}

// normaliseSchema makes sure a schema is an object schema with properties,
// which some providers require, keeping everything else as given.
func normaliseSchema(s json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(s, &m) != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	if _, ok := m["type"]; !ok {
		m["type"] = "object"
	}
	b, err := json.Marshal(m)
	if err != nil {
		return s
	}
	return b
}

func (c *conn) call(ctx context.Context, name string, args json.RawMessage) (tools.Result, error) {
	c.mu.Lock()
	cl := c.client
	c.mu.Unlock()
	if cl == nil {
		return tools.Errorf("mcp server %s is not running", c.cfg.Name), nil
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	if len(args) > 0 {
		var a map[string]any
		if err := json.Unmarshal(args, &a); err != nil {
			return tools.Errorf("invalid arguments: %v", err), nil
		}
		req.Params.Arguments = a
	}
	tok := fmt.Sprintf("llmrt-%d", c.nextTok.Add(1))
	req.Params.Meta = &mcp.Meta{ProgressToken: tok}
	c.progMu.Lock()
	if c.progress == nil {
		c.progress = map[string]*progressSink{}
	}
	c.progress[tok] = &progressSink{report: func(p tools.Progress) { tools.ReportProgress(ctx, p) }}
	c.progMu.Unlock()
	defer func() {
		c.progMu.Lock()
		delete(c.progress, tok)
		c.progMu.Unlock()
	}()
	res, err := cl.CallTool(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Errorf("mcp server %s: %v", c.cfg.Name, err), nil
	}
	return convert(res), nil
}

// convert turns a tool result into what the model sees.
func convert(res *mcp.CallToolResult) tools.Result {
	var text []string
	var parts []providers.Part
	for _, ct := range res.Content {
		switch v := ct.(type) {
		case mcp.TextContent:
			text = append(text, v.Text)
		case mcp.ImageContent:
			data, err := base64.StdEncoding.DecodeString(v.Data)
			if err != nil {
				text = append(text, fmt.Sprintf("[image %s: undecodable data]", v.MIMEType))
				continue
			}
			parts = append(parts, providers.Part{Type: providers.PartImage, MediaType: v.MIMEType, Data: data})
			text = append(text, fmt.Sprintf("[image %s, %d bytes]", v.MIMEType, len(data)))
		case mcp.AudioContent:
			text = append(text, fmt.Sprintf("[audio %s, not shown]", v.MIMEType))
		case mcp.ResourceLink:
			text = append(text, fmt.Sprintf("[resource link %s: %s %s]", v.Name, v.URI, v.Description))
		case mcp.EmbeddedResource:
			switch r := v.Resource.(type) {
			case mcp.TextResourceContents:
				text = append(text, fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text))
			case mcp.BlobResourceContents:
				text = append(text, fmt.Sprintf("[resource %s, %s, %d bytes base64]", r.URI, r.MIMEType, len(r.Blob)))
			}
		default:
			b, _ := json.Marshal(ct)
			text = append(text, string(b))
		}
	}
	if len(text) == 0 && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		text = append(text, string(b))
	}
	return tools.Result{Content: strings.Join(text, "\n"), Parts: parts, IsError: res.IsError}
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
	if cl != nil {
		// Close reaps the direct child, killing it if it ignores SIGTERM.
		_ = cl.Close()
	}
	if cancel != nil {
		cancel()
	}
	if pgid > 0 {
		stopGroup(pgid)
	}
}

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if b.buf.Len() > b.max {
		rest := b.buf.Bytes()[b.buf.Len()-b.max:]
		nb := append([]byte(nil), rest...)
		b.buf.Reset()
		b.buf.Write(nb)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// rootsHandler answers roots requests with the working directory.
type rootsHandler struct{ dir string }

func (h rootsHandler) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file://" + h.dir, Name: filepath.Base(h.dir)}}}, nil
}

// stopGroup waits a grace period for a signalled process group to end,
// then kills what is left of it.
func stopGroup(pgid int) {
	deadline := time.Now().Add(killGrace)
	for time.Now().Before(deadline) {
		if !groupLive(pgid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	// Wait briefly for the group to be gone, so that a caller exiting next
	// leaves nothing behind.
	for i := 0; i < 50 && groupLive(pgid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
}

// groupLive reports whether a process group has a member that is not a
// zombie (a zombie whose parent does not reap it is dead all the same).
func groupLive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		rest := string(b)
		if i := strings.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		f := strings.Fields(rest)
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			return true
		}
	}
	return false
}

// startSandboxed starts a stdio server confined by the source's sandbox
// policy and returns a transport over its pipes.
func (c *conn) startSandboxed() (*transport.Stdio, error) {
	cmd, _ := c.command(context.Background(), c.cfg.Command, c.env(), c.cfg.Args)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = c.stderr
	p := c.src.Sandbox
	p.Workspace = c.dir
	cleanup, err := sandbox.Start(cmd, p)
	if err != nil {
		return nil, err
	}
	go func() { _ = cmd.Wait(); cleanup() }()
	return transport.NewIO(stdout, stdin, io.NopCloser(strings.NewReader(""))), nil
}
