package cmd_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// waitRunning polls until n processes whose command line holds s run.
func waitRunning(t *testing.T, s string, n int) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); len(running(s)) < n; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("got %v running %q, want %d", running(s), s, n)
		}
	}
}

// waitGone polls until no process whose command line holds s runs; it
// kills and reports those still there after five seconds.
func waitGone(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for left := running(s); len(left) > 0; left = running(s) {
		if time.Now().After(deadline) {
			killAll(left)
			t.Errorf("processes left behind: %v", left)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitDrained polls until everything written to the pipe w was read.
func waitDrained(t *testing.T, w io.Writer) {
	t.Helper()
	f, ok := w.(*os.File)
	if !ok {
		t.Fatalf("%T is not a pipe", w)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		// TIOCINQ is FIONREAD: the bytes in the pipe not read yet.
		if n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ); err == nil && n == 0 {
			return
		}
	}
	t.Fatal("llmrt never read its stdin")
}

// waitExit waits for cmd and returns its exit code, failing after limit.
func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		cmd.Process.Kill()
		t.Fatalf("llmrt did not exit within %s", limit)
		return -1
	}
}

// TestEverySignalStopsEverything: each way a terminal or a supervisor
// stops a program ends the run as a cancellation (exit 130, the session
// and the command that resumes it) and leaves nothing it started, the
// processes that detached and dropped the call's marker included.
func TestEverySignalStopsEverything(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			secs := uniqueMark()
			line := "setsid sleep S >/dev/null 2>&1 & env -i setsid sleep S >/dev/null 2>&1 & sleep S"
			srv := fake(t, fakellm.OpenAI, shellTurn(strings.ReplaceAll(line, "S", secs)), finalAnswer("never"))
			cmd := sb.command(context.Background(), cli{
				args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "auto", "-p", "x"},
				env:  map[string]string{"OPENAI_API_KEY": "k"},
			})
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { killAll(running("sleep " + secs)) }()
			waitRunning(t, "sleep "+secs, 3)
			cmd.Process.Signal(sig)
			if code := waitExit(t, cmd, 10*time.Second); code != 130 {
				t.Errorf("exit: got %d, want 130\n%s", code, stderr.String())
			}
			if left := running("sleep " + secs); len(left) > 0 {
				t.Errorf("processes survived llmrt: %v", left)
			}
			if !contains(stderr.String(), "interrupted") || !contains(stderr.String(), "resume with: llmrt run --resume") {
				t.Errorf("stderr should say the run was interrupted and how to resume it:\n%s", stderr.String())
			}
		})
	}
}

// TestBrokenPipeStopsTheRun: when the reader of stream-json output goes
// away mid-command, llmrt stops the run (it is not killed by SIGPIPE with
// its command left running).
func TestBrokenPipeStopsTheRun(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	mark := "sleep " + uniqueMark()
	srv := fake(t, fakellm.OpenAI, shellTurn("setsid "+mark+" >/dev/null 2>&1 & "+mark), finalAnswer("never"))
	cmd := sb.command(context.Background(), cli{
		args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "auto", "-o", "stream-json", "-p", "x"},
		env:  map[string]string{"OPENAI_API_KEY": "k"},
	})
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { killAll(running(mark)) }()
	lines := bufio.NewScanner(out)
	for lines.Scan() && !strings.Contains(lines.Text(), `"type":"tool_start"`) {
	}
	waitRunning(t, mark, 2)
	out.Close() // the reader goes away; the next event (progress) breaks the pipe
	code := waitExit(t, cmd, 20*time.Second)
	if code != 141 {
		t.Errorf("exit: got %d, want 141 (a run stopped by its reader going away)", code)
	}
	if left := running(mark); len(left) > 0 {
		t.Errorf("processes survived llmrt: %v", left)
	}
}

// TestSignalWhileReadingStdin: a signal ends a run still waiting for its
// piped stdin at once. Not parallel, as it times the stop.
func TestSignalWhileReadingStdin(t *testing.T) {
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("never"))
	for _, prompt := range [][]string{{"-p", "x"}, nil} {
		cmd := sb.command(context.Background(), cli{
			args: append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, prompt...),
			env:  map[string]string{"OPENAI_API_KEY": "k"},
		})
		w, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, "some input") // and never close the pipe
		waitDrained(t, w)
		sent := time.Now()
		cmd.Process.Signal(syscall.SIGTERM)
		if code := waitExit(t, cmd, 5*time.Second); code != 130 {
			t.Errorf("prompt %q: exit %d, want 130", prompt, code)
		}
		if took := time.Since(sent); took > time.Second {
			t.Errorf("prompt %q: took %s to stop, want under a second", prompt, took)
		}
		w.Close()
	}
}
