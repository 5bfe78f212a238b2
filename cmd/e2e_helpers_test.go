package cmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// The executables the end-to-end tests run, built once by TestMain into
// one directory: llmrt itself and the MCP server the MCP tests configure.
var (
	binary    string
	mcpServer string
)

func TestMain(m *testing.M) { os.Exit(e2eMain(m)) }

func e2eMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "llmrt-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Other users (the sandbox tests run llmrt as nobody when they are
	// root) reach the executables and their race logs.
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binary, mcpServer = filepath.Join(dir, "llmrt"), filepath.Join(dir, "mcptestserver")
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "github.com/llmrt/llmrt", "github.com/llmrt/llmrt/cmd/internal/mcptestserver")...)
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build llmrt:", err)
		return 1
	}
	waitingParallelism()
	return m.Run()
}

// waitingParallelism lets more tests run at once than -parallel's default
// of GOMAXPROCS, unless -parallel was given: an end-to-end test spends its
// time waiting for the processes it started, not computing.
func waitingParallelism() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}

// cli describes one invocation of the binary.
type cli struct {
	args  []string
	env   map[string]string
	stdin io.Reader
	dir   string
}

// outcome is what an invocation did.
type outcome struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

// sandbox is an isolated home (sessions, config) and workspace. Each test
// makes its own, so tests that run in parallel share no files.
type sandbox struct {
	t    *testing.T
	home string
	work string
	// races is where a binary built with -race writes its reports
	// (GORACE log_path); "" without the race detector.
	races string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	sb := &sandbox{t: t, home: t.TempDir(), work: t.TempDir()}
	if raceEnabled {
		sb.races = raceLogs(t)
	}
	return sb
}

// raceLogs makes a directory for the race reports of t's processes and
// fails t, showing them, if any is there when t ends: a race in llmrt
// fails the test that ran into it, whatever its exit code said.
func raceLogs(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp(filepath.Dir(binary), "race")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // llmrt may run as nobody
		t.Fatal(err)
	}
	t.Cleanup(func() {
		reports, _ := filepath.Glob(filepath.Join(dir, "report.*"))
		for _, r := range reports {
			b, _ := os.ReadFile(r)
			t.Errorf("llmrt (pid %s) reported a data race:\n%s", strings.TrimPrefix(filepath.Ext(r), "."), b)
		}
		os.RemoveAll(dir)
	})
	return dir
}

// env is a minimal environment: no provider keys leak in from the host.
func (sb *sandbox) env(extra map[string]string) []string {
	env := []string{
		"HOME=" + sb.home,
		"XDG_STATE_HOME=" + filepath.Join(sb.home, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(sb.home, "config"),
		"PATH=" + os.Getenv("PATH"),
		"OLLAMA_HOST=http://127.0.0.1:1",
	}
	if sb.races != "" {
		env = append(env, "GORACE=log_path="+filepath.Join(sb.races, "report"))
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

func (sb *sandbox) command(ctx context.Context, c cli) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, c.args...)
	cmd.Env = sb.env(c.env)
	cmd.Dir = sb.work
	if c.dir != "" {
		cmd.Dir = c.dir
	}
	if c.stdin != nil {
		cmd.Stdin = c.stdin
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A test that fails halfway leaves nothing running: llmrt leads its
	// own process group, which goes when the test ends (a group already
	// gone is no error).
	sb.t.Cleanup(func() {
		if cmd.Process != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	return cmd
}

// run executes the binary and waits, failing the test after a minute.
func (sb *sandbox) run(c cli) outcome {
	sb.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := sb.command(ctx, c)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		o.code = ee.ExitCode()
	} else if err != nil {
		sb.t.Fatalf("run llmrt %v: %v", c.args, err)
	}
	return o
}

func (sb *sandbox) write(name, content string) string {
	sb.t.Helper()
	p := filepath.Join(sb.work, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		sb.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		sb.t.Fatal(err)
	}
	return p
}

// sessions returns the session files of the sandbox.
func (sb *sandbox) sessions() []string {
	files, _ := filepath.Glob(filepath.Join(sb.home, "state", "llmrt", "sessions", "*.jsonl"))
	return files
}

// fake starts a fake model server for the test.
func fake(t *testing.T, protocol string, turns ...scripted.Turn) *fakellm.Server {
	t.Helper()
	s := fakellm.Start(protocol, turns...)
	t.Cleanup(s.Close)
	return s
}

// Script helpers, as in the engine tests.

func toolCall(name, args string) scripted.Turn {
	raw, _ := json.Marshal(args)
	return scripted.Turn{ToolCalls: []scripted.Call{{Name: name, Arguments: raw}}}
}

func finalAnswer(s string) scripted.Turn {
	b, _ := json.Marshal(map[string]string{"answer": s})
	return toolCall("final_answer", string(b))
}

func text(s string) scripted.Turn { return scripted.Turn{Text: s} }

// want fails the test when o's exit code differs, showing both streams.
func (o outcome) want(t *testing.T, code int) {
	t.Helper()
	if o.code != code {
		t.Fatalf("exit code: got %d, want %d\nstdout: %s\nstderr: %s", o.code, code, o.stdout, o.stderr)
	}
}

// bodyOf decodes a request body as JSON.
func bodyOf(t *testing.T, r fakellm.Request) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return m
}

func contains(haystack, needle string) bool { return strings.Contains(haystack, needle) }

// marks numbers the markers handed out in this process.
var marks atomic.Int64

// uniqueMark returns a fixed-width number no other test uses, in this
// process or in another running the suite at the same time (it holds the
// pid). As a duration for sleep(1) it marks one test's processes, so that
// running and pgrep -f find that test's sleepers and no one else's; it
// also names each test's tmux server.
func uniqueMark() string {
	return fmt.Sprintf("9%07d%04d", os.Getpid()%10_000_000, marks.Add(1)%10_000)
}
