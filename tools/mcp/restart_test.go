package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/tools"
)

// addCrashTools gives the stdio test server "crash", which says its
// token on stderr and exits with status 3, and "pid", which answers the
// server's process id.
func addCrashTools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("crash"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintf(os.Stderr, "panic: the disk is full (token %s)\n", os.Getenv("TEST_TOKEN"))
		os.Exit(3)
		return nil, nil
	})
	s.AddTool(mcp.NewTool("pid"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(strconv.Itoa(os.Getpid())), nil
	})
}

// statusLog records what OnStatus is told.
type statusLog struct {
	mu   sync.Mutex
	seen []Status
}

func (l *statusLog) add(st Status) { l.mu.Lock(); l.seen = append(l.seen, st); l.mu.Unlock() }

func (l *statusLog) count(state string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, st := range l.seen {
		if st.State == state {
			n++
		}
	}
	return n
}

func startStdio(t *testing.T) (*Source, *statusLog) {
	t.Helper()
	exe, _ := os.Executable()
	src := New([]Server{{Name: "t", Command: exe, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1", "TEST_TOKEN": "tok-5ecret-value"}}}, t.TempDir())
	log := &statusLog{}
	src.OnStatus = log.add
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	t.Cleanup(func() { src.Close() })
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	return src, log
}

func call(t *testing.T, src *Source, name string) tools.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, _ := src.Tools(ctx)
	res, err := byName(t, list, name).Execute(ctx, json.RawMessage(`{"a":2,"b":3}`))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// TestCrashedServerComesBack: a stdio server that exits during a call
// gives an error result with its exit status and stderr tail, its token
// redacted; the next call starts it again, said once; its tools stay
// offered meanwhile.
func TestCrashedServerComesBack(t *testing.T) {
	src, log := startStdio(t)
	res := call(t, src, "mcp__t__crash")
	if !res.IsError || !strings.Contains(res.Content, "exit status 3") || !strings.Contains(res.Content, "the disk is full") {
		t.Fatalf("crash: got %+v, want an error with the exit status and the stderr tail", res)
	}
	if strings.Contains(res.Content, "tok-5ecret-value") {
		t.Errorf("crash: the server's env value leaked: %q", res.Content)
	}
	if st := src.Statuses()[0]; st.State != StateExited || !strings.Contains(st.Err, "exit status 3") || len(st.Tools) == 0 {
		t.Errorf("status after the crash: got %+v, want exited with the status and its tools", st)
	}
	if res := call(t, src, "mcp__t__get-sum"); res.IsError || !strings.Contains(res.Content, "5") {
		t.Fatalf("call after the crash: got %+v, want the sum", res)
	}
	if n := log.count(StateRestarting); n != 1 {
		t.Errorf("restart notices: got %d, want 1", n)
	}
	if st := src.Statuses()[0]; st.State != StateReady || st.Restarts != 1 {
		t.Errorf("status after the restart: got %+v, want ready after 1 restart", st)
	}
}

// TestKilledServerAnswersNextCall: a server killed between calls is
// started again by the next call, which gets its answer.
func TestKilledServerAnswersNextCall(t *testing.T) {
	src, _ := startStdio(t)
	pid, _ := strconv.Atoi(call(t, src, "mcp__t__pid").Content)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for processLive(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	res := call(t, src, "mcp__t__pid")
	if res.IsError || res.Content == strconv.Itoa(pid) {
		t.Fatalf("after kill -9: got %+v, want a new process's answer", res)
	}
}

// TestRestartsAreBounded: a server that keeps crashing is restarted at
// most MaxRestarts times; then a call says it is given up and how to
// bring it back.
func TestRestartsAreBounded(t *testing.T) {
	src, log := startStdio(t)
	for i := 0; i <= MaxRestarts; i++ {
		if res := call(t, src, "mcp__t__crash"); !res.IsError || !strings.Contains(res.Content, "exit status 3") {
			t.Fatalf("crash %d: got %+v", i+1, res)
		}
	}
	res := call(t, src, "mcp__t__get-sum")
	if !res.IsError || !strings.Contains(res.Content, "not restarted") || !strings.Contains(res.Content, "reconnect") {
		t.Fatalf("after %d restarts: got %+v, want a refusal that says how to reconnect", MaxRestarts, res)
	}
	if n := log.count(StateRestarting); n != MaxRestarts {
		t.Errorf("restart notices: got %d, want %d", n, MaxRestarts)
	}
	// Reconnect starts it again whatever the count.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := src.Reconnect(ctx, "t"); err != nil {
		t.Fatalf("Reconnect: %v", err)
	}
	if res := call(t, src, "mcp__t__get-sum"); res.IsError {
		t.Fatalf("after Reconnect: got %+v", res)
	}
}

// forgetful fronts a streamable HTTP server and, once told to forget,
// answers 404 to every session it had seen, as a restarted server does.
type forgetful struct {
	next http.Handler
	mu   sync.Mutex
	seen map[string]bool
	dead map[string]bool
}

func (f *forgetful) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get("Mcp-Session-Id")
	f.mu.Lock()
	dead := f.dead[id]
	if id != "" {
		f.seen[id] = true
	}
	f.mu.Unlock()
	if dead {
		http.Error(w, "Session not found", http.StatusNotFound)
		return
	}
	f.next.ServeHTTP(w, r)
}

func (f *forgetful) forget() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id := range f.seen {
		f.dead[id] = true
	}
}

// TestHTTPSessionReinitialised: a server that lost the session (404) is
// initialised again and the call goes through, said once.
func TestHTTPSessionReinitialised(t *testing.T) {
	f := &forgetful{next: server.NewStreamableHTTPServer(testServer(50)), seen: map[string]bool{}, dead: map[string]bool{}}
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	src := New([]Server{{Name: "t", URL: ts.URL + "/mcp"}}, t.TempDir())
	log := &statusLog{}
	src.OnStatus = log.add
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	if res := call(t, src, "mcp__t__get-sum"); res.IsError {
		t.Fatalf("first call: %+v", res)
	}
	f.forget()
	if res := call(t, src, "mcp__t__get-sum"); res.IsError || !strings.Contains(res.Content, "5") {
		t.Fatalf("call after the session was lost: got %+v, want the sum", res)
	}
	if n := log.count(StateRestarting); n != 1 {
		t.Errorf("re-initialise notices: got %d, want 1", n)
	}
}

// TestEnableDisable: Disable hides a server's tools and stops it; Enable
// starts it again.
func TestEnableDisable(t *testing.T) {
	src, _ := startStdio(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := src.Disable("t"); err != nil {
		t.Fatal(err)
	}
	if list, _ := src.Tools(ctx); len(list) != 0 {
		t.Errorf("tools of a disabled server: got %d, want none", len(list))
	}
	if st := src.Statuses()[0]; st.State != StateDisabled {
		t.Errorf("state: got %s, want %s", st.State, StateDisabled)
	}
	if err := src.Enable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if res := call(t, src, "mcp__t__get-sum"); res.IsError {
		t.Fatalf("after Enable: %+v", res)
	}
	if err := src.Enable(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Enable(nope): got %v, want an error naming it", err)
	}
}

// TestNoRestartAfterClose: a call that comes after Close starts nothing.
func TestNoRestartAfterClose(t *testing.T) {
	src, log := startStdio(t)
	pid, _ := strconv.Atoi(call(t, src, "mcp__t__pid").Content)
	src.Close()
	if res := call(t, src, "mcp__t__pid"); !res.IsError {
		t.Fatalf("call after Close: got %+v, want an error", res)
	}
	if n := log.count(StateRestarting); n != 0 || processLive(pid) {
		t.Errorf("after Close: %d restarts, first server alive %v; want none", n, processLive(pid))
	}
}

// TestStartFailureRedacted: a server that fails to start is reported
// with its stderr tail, the values of its env taken out.
func TestStartFailureRedacted(t *testing.T) {
	src := New([]Server{{Name: "bad", Command: "sh", Args: []string{"-c", `echo "cannot log in with $API_TOKEN" >&2; exit 4`},
		Env: map[string]string{"API_TOKEN": "tok-start-5ecret"}}}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	d := src.Diagnostics()
	if len(d) != 1 || !strings.Contains(d[0].Message, "cannot log in with") || strings.Contains(d[0].Message, "tok-start-5ecret") {
		t.Errorf("diagnostics: got %+v, want the stderr tail with the token taken out", d)
	}
}
