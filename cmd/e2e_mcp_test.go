package cmd_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// mcpServerBinary builds the test MCP server once per test binary.
func mcpServerBinary(t *testing.T) string {
	t.Helper()
	p := filepath.Join(filepath.Dir(binary), "mcptestserver")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	out, err := exec.Command("go", "build", "-o", p, "github.com/llmrt/llmrt/cmd/internal/mcptestserver").CombinedOutput()
	if err != nil {
		t.Fatalf("build mcptestserver: %v\n%s", err, out)
	}
	return p
}

func (sb *sandbox) mcpConfig(servers string) {
	sb.write(".mcp.json", `{"mcpServers":{`+servers+`}}`)
}

// TestMCPToolsReachTheModel: the model calls an MCP server's tools through
// llmrt run; the answer, an isError text and an image reach it, and a
// server whose command does not exist leaves the other working with a
// warning naming it.
func TestMCPToolsReachTheModel(t *testing.T) {
	sb := newSandbox(t)
	srvBin := mcpServerBinary(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q},"ghost":{"command":"/nonexistent/ghost-mcp"}`, srvBin))
	srv := fake(t, fakellm.OpenAI,
		toolCall("calc_get-sum", `{"a":2,"b":3}`),
		toolCall("calc_fail", `{}`),
		toolCall("calc_image", `{}`),
		finalAnswer("five"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "add 2 and 3")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("want 4 model calls, got %d\nstderr: %s", len(reqs), o.stderr)
	}
	if !strings.Contains(string(reqs[0].Body), "calc_get-sum") {
		t.Errorf("the MCP tool is not offered: %s", reqs[0].Body)
	}
	if !strings.Contains(string(reqs[1].Body), "The sum of 2 and 3 is 5.") {
		t.Errorf("the model should get the server's answer: %s", reqs[1].Body)
	}
	if !strings.Contains(string(reqs[2].Body), "the widget is jammed") {
		t.Errorf("the model should get the isError text: %s", reqs[2].Body)
	}
	if !strings.Contains(string(reqs[3].Body), "image/png") {
		t.Errorf("the model should get the image: %s", reqs[3].Body)
	}
	if !strings.Contains(o.stderr, "ghost") || !strings.Contains(o.stderr, "/nonexistent/ghost-mcp") {
		t.Errorf("the failed server should be named in a warning: %s", o.stderr)
	}
}

// TestMCPServersStopWithLlmrt: after a normal exit, SIGINT and SIGTERM, no
// MCP server process survives, behind sh -c and ignoring SIGTERM included.
func TestMCPServersStopWithLlmrt(t *testing.T) {
	srvBin := mcpServerBinary(t)
	for _, how := range []string{"exit", "SIGINT", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			sb := newSandbox(t)
			pidA := filepath.Join(sb.home, "a.pid")
			pidB := filepath.Join(sb.home, "b.pid")
			pidC := filepath.Join(sb.home, "c.pid") // the wrapper's background child
			sb.mcpConfig(fmt.Sprintf(`"wrapped":{"command":"sh","args":["-c",%q],"env":{"MCPTEST_PIDFILE":%q}},`+
				`"stubborn":{"command":%q,"env":{"MCPTEST_IGNORE_TERM":"1","MCPTEST_PIDFILE":%q}}`,
				"sleep 300 & echo $! > "+pidC+"; exec "+srvBin, pidA, srvBin, pidB))
			var srv *fakellm.Server
			if how == "exit" {
				srv = fake(t, fakellm.OpenAI, finalAnswer("done"))
			} else {
				// The model's second call never comes back: the run is
				// interrupted while waiting.
				srv = fake(t, fakellm.OpenAI, toolCall("shell_cmd", `{"command":"sleep 30"}`), finalAnswer("late"))
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := sb.command(ctx, cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "auto", "-p", "go"}, env: map[string]string{"OPENAI_API_KEY": "sk-test"}})
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pids := waitPIDs(t, pidA, pidB, pidC)
			if how != "exit" {
				time.Sleep(500 * time.Millisecond)
				sig := syscall.SIGINT
				if how == "SIGTERM" {
					sig = syscall.SIGTERM
				}
				_ = cmd.Process.Signal(sig)
			}
			_ = cmd.Wait()
			deadline := time.Now().Add(5 * time.Second)
			for _, pid := range pids {
				for alive(pid) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if alive(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("MCP server process %d survived llmrt's %s", pid, how)
				}
			}
		})
	}
}

func waitPIDs(t *testing.T, files ...string) []int {
	t.Helper()
	var pids []int
	deadline := time.Now().Add(20 * time.Second)
	for _, f := range files {
		for {
			b, err := os.ReadFile(f)
			if err == nil && len(b) > 0 {
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				pids = append(pids, pid)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("server did not start (no %s)", f)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return pids
}

// alive reports whether pid is a live process (a zombie is not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
