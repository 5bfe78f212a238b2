//go:build linux

package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestShellCmdSparesOtherChildren: the processes this process started on
// its own before a call (an MCP server, say) are not the call's leftovers,
// even though they are children of the same process as the ones the call
// left and this process adopted.
func TestShellCmdSparesOtherChildren(t *testing.T) {
	if err := EnableSubreaper(); err != nil {
		t.Skipf("no subreaper: %v", err)
	}
	server := exec.Command("sleep", "4101")
	server.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		server.Process.Kill()
		server.Wait()
	}()
	sr, res, err := runShellTest(t, context.Background(), Options{Shell: ShellOptions{GraceKill: 300 * time.Millisecond}},
		map[string]any{"command": "env -i setsid sleep 4102 >/dev/null 2>&1 & sleep 0.2"})
	if err != nil || res.IsError {
		t.Fatalf("shell_cmd: %v %s", err, res.Content)
	}
	if left := processesRunning("sleep 4102"); len(left) > 0 {
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Errorf("the call's leftover is still running: %v (note %q)", left, sr.Note)
	}
	if err := server.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the child started before the call was stopped: %v", err)
	}
	if got := processesRunning("sleep 4101"); len(got) != 1 {
		t.Errorf("got %v running the earlier child, want exactly its process", got)
	}
}

// TestShellCmdSparesForegroundChildren: a child this process starts in its
// own process group while a call runs (the chat's editor) is not taken for
// a process the call left behind.
func TestShellCmdSparesForegroundChildren(t *testing.T) {
	if err := EnableSubreaper(); err != nil {
		t.Skipf("no subreaper: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := runShellTest(t, context.Background(), Options{}, map[string]any{"command": "sleep 0.5"})
		done <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); callsRunning.Load() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the call never started")
		}
	}
	editor := exec.Command("sleep", "4103") // in this process's group, as an editor is
	if err := editor.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		editor.Process.Kill()
		editor.Wait()
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := editor.Process.Signal(syscall.Signal(0)); err != nil || len(processesRunning("sleep 4103")) != 1 {
		t.Errorf("the child started in the foreground during the call was stopped: %v", err)
	}
}

// TestChildless: a process that started nothing is childless, so StopAll
// skips reading the process table; one with a child running, or a child
// that ended but was not waited for, is not.
func TestChildless(t *testing.T) {
	if os.Getenv("LLMRT_TEST_CHILDLESS") == "1" {
		if !childless() {
			os.Exit(3)
		}
		os.Exit(0)
	}
	fresh := exec.Command(os.Args[0], "-test.run", "^TestChildless$")
	fresh.Env = append(os.Environ(), "LLMRT_TEST_CHILDLESS=1")
	if out, err := fresh.CombinedOutput(); err != nil {
		t.Fatalf("a process that started nothing should be childless: %v\n%s", err, out)
	}

	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	if childless() {
		t.Error("childless with a child running")
	}
	_ = child.Process.Kill()
	// Killed but not yet waited for, it is a zombie and still a child.
	for deadline := time.Now().Add(5 * time.Second); !zombie(child.Process.Pid); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the killed child did not become a zombie within 5 s")
		}
	}
	if childless() {
		t.Error("childless with a child not waited for")
	}
	// Asking did not reap it: Wait still gets its end.
	var exit *exec.ExitError
	if err := child.Wait(); !errors.As(err, &exit) {
		t.Errorf("Wait after childless = %v, want the child's exit status", err)
	}

	// A child forked by another thread of the process counts too.
	started := make(chan *exec.Cmd)
	go func() {
		runtime.LockOSThread() // this goroutine's thread ends with it
		c := exec.Command("sleep", "30")
		if err := c.Start(); err != nil {
			t.Error(err)
			c = nil
		}
		started <- c
	}()
	other := <-started
	if other == nil {
		return
	}
	if childless() {
		t.Error("childless with a child forked by another thread running")
	}
	_ = other.Process.Kill()
	_ = other.Wait()
}

// zombie reports whether process pid has ended and waits to be waited for.
func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, after, ok := bytes.Cut(b, []byte(") "))
	return ok && len(after) > 0 && after[0] == 'Z'
}
