//go:build linux

package tools

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/internal/hopper"
)

// TestShellCmdStopsAHopper: a command that leaves behind a process which
// forks, lets its parent exit and does it again every 200 µs, in a
// session of its own, does not outlive the call, even unconfined (no PID
// namespace ends it): by the time a pid is read it has moved on, but its
// process group stays.
func TestShellCmdStopsAHopper(t *testing.T) {
	if err := EnableSubreaper(); err != nil {
		t.Skipf("no subreaper: %v", err)
	}
	hop := hopper.Build(t, t.TempDir())
	count := filepath.Join(t.TempDir(), "hops")
	t.Cleanup(func() { hopper.Stop(count) })
	sr, res, err := runShellTest(t, context.Background(), Options{Shell: ShellOptions{GraceKill: 300 * time.Millisecond}},
		map[string]any{"command": hop + " " + count + " & sleep 0.3; cat " + count})
	if err != nil || res.IsError {
		t.Fatalf("shell_cmd: %v %s", err, res.Content)
	}
	if strings.TrimSpace(sr.Output) == "" {
		t.Fatalf("the hopper did not run: %+v", sr)
	}
	if hopper.Growing(count) {
		t.Errorf("the hopper outlived the call (note %q)", sr.Note)
	}
}

// TestShellCmdReturnsWhenTheCommandDoes: an unconfined command that leaves
// a process holding its output open returns once it exits, its leftover
// stopped then, with all it printed: the call does not wait out the
// grace for the pipe to close (here a minute, which the test would see).
func TestShellCmdReturnsWhenTheCommandDoes(t *testing.T) {
	type outcome struct {
		sr  shellResult
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		sr, res, err := runShellTest(t, context.Background(), Options{Shell: ShellOptions{GraceKill: time.Minute}},
			map[string]any{"command": "sleep 4105 & head -c 100000 /dev/zero | tr '\\0' x; echo; echo END"})
		done <- outcome{sr, res, err}
	}()
	select {
	case o := <-done:
		if o.err != nil || o.res.IsError {
			t.Fatalf("shell_cmd: %v %s", o.err, o.res.Content)
		}
		if o.sr.OutputBytes != int64(100_000+len("\nEND\n")) || !strings.HasSuffix(o.sr.Output, "END\n") {
			t.Errorf("output: %d bytes ending %q, want all 100005 bytes, ending with END", o.sr.OutputBytes, o.sr.Output[max(0, len(o.sr.Output)-20):])
		}
		if !strings.Contains(o.sr.Note, "background processes") {
			t.Errorf("note %q should say the leftover was stopped", o.sr.Note)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call waited for the leftover holding its output (the grace is a minute)")
	}
	if left := processesRunning("sleep 4105"); len(left) > 0 {
		t.Errorf("the leftover still runs: %v", left)
	}
}
