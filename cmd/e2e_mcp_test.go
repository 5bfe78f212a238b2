package cmd_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// mcpConfig writes the project's .mcp.json and trusts the folder, as the
// user who wrote it would.
func (sb *sandbox) mcpConfig(servers string) {
	sb.write(".mcp.json", `{"mcpServers":{`+servers+`}}`)
	sb.trust()
}

// TestMCPToolsReachTheModel: the model calls an MCP server's tools through
// llmrt run; the answer, an isError text and an image reach it, and a
// server whose command does not exist leaves the other working with a
// warning naming it.
func TestMCPToolsReachTheModel(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q},"ghost":{"command":"/nonexistent/ghost-mcp"}`, mcpServer))
	srv := fake(t, fakellm.OpenAI,
		toolCall("mcp__calc__get-sum", `{"a":2,"b":3}`),
		toolCall("mcp__calc__fail", `{}`),
		toolCall("mcp__calc__image", `{}`),
		finalAnswer("five"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "add 2 and 3")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("want 4 model calls, got %d\nstderr: %s", len(reqs), o.stderr)
	}
	if !strings.Contains(string(reqs[0].Body), "mcp__calc__get-sum") {
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
// process llmrt started for its MCP servers survives: a server behind
// sh -c with a background child, one that ignores SIGTERM, and (with the
// npm packages .ci/run installs) the everything server behind npx.
func TestMCPServersStopWithLlmrt(t *testing.T) {
	t.Parallel()
	npmDir := ciNPM(t)
	for _, how := range []string{"exit", "SIGINT", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			pidB := filepath.Join(sb.home, "b.pid")
			pidC := filepath.Join(sb.home, "c.pid") // the wrapper's background child
			servers := fmt.Sprintf(`"wrapped":{"command":"sh","args":["-c",%q]},`+
				`"stubborn":{"command":%q,"env":{"MCPTEST_IGNORE_TERM":"1","MCPTEST_PIDFILE":%q}}`,
				"sleep 300 & echo $! > "+pidC+"; exec "+mcpServer, mcpServer, pidB)
			if npmDir != "" {
				servers += fmt.Sprintf(`,"npx":{"command":"npx","args":["--no-install","mcp-server-everything","stdio"],"cwd":%q,"timeout":60}`, npmDir)
			}
			sb.mcpConfig(servers)
			// The run is under way when its processes are counted and it is
			// stopped: its first model call is held until then, or runs a
			// long command.
			var srv *fakellm.Server
			release := func() {}
			if how == "exit" {
				srv = fake(t, fakellm.OpenAI, finalAnswer("done"))
				release = srv.Hold(1)
			} else {
				srv = fake(t, fakellm.OpenAI, toolCall("shell_cmd", `{"command":"sleep 30"}`), finalAnswer("late"))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := sb.command(ctx, cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "auto", "-p", "go"}, env: map[string]string{"OPENAI_API_KEY": "sk-test"}})
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitPIDs(t, pidB, pidC)
			deadline := time.Now().Add(90 * time.Second)
			for len(srv.Requests()) == 0 { // servers are started before the first call
				if time.Now().After(deadline) {
					t.Fatal("no model call: the servers did not start")
				}
				time.Sleep(20 * time.Millisecond)
			}
			procs := descendants(cmd.Process.Pid)
			for _, want := range []string{pidB, pidC} {
				if b, _ := os.ReadFile(want); !hasPID(procs, string(b)) {
					t.Fatalf("pid %s (%s) is not among llmrt's processes %v", b, filepath.Base(want), procs)
				}
			}
			if npmDir != "" && !hasCmdline(procs, "mcp-server-everything") {
				t.Fatalf("no everything server behind npx among llmrt's processes %v", procs)
			}
			switch how {
			case "exit":
				release()
			case "SIGINT":
				_ = cmd.Process.Signal(syscall.SIGINT)
			case "SIGTERM":
				_ = cmd.Process.Signal(syscall.SIGTERM)
			}
			_ = cmd.Wait()
			deadline = time.Now().Add(5 * time.Second)
			for pid, args := range procs {
				for alive(pid) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if alive(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("process %d (%s) survived llmrt's %s", pid, args, how)
				}
			}
		})
	}
}

// ciNPM returns the directory of the npm packages .ci/run installs, or ""
// when they are not installed here (never in CI, where that fails).
func ciNPM(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("LLMRT_CI_NPM")
	if dir == "" {
		dir, _ = filepath.Abs(filepath.Join("..", ".ci", "npm"))
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", "mcp-server-everything")); err != nil {
		if os.Getenv("CI") != "" || os.Getenv("LLMRT_CI_NPM") != "" {
			t.Fatalf("the pinned npm packages are missing from %s: run .ci/run", dir)
		}
		return ""
	}
	return dir
}

// descendants returns every live process below pid, with its command line.
func descendants(pid int) map[int]string {
	parent := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil || !alive(p) {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	out := map[int]string{}
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
				out[p] = strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
				break
			}
		}
	}
	return out
}

func hasPID(procs map[int]string, pid string) bool {
	p, err := strconv.Atoi(strings.TrimSpace(pid))
	_, ok := procs[p]
	return err == nil && ok
}

func hasCmdline(procs map[int]string, s string) bool {
	for _, args := range procs {
		if strings.Contains(args, s) {
			return true
		}
	}
	return false
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
