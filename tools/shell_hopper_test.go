//go:build linux

package tools

import (
	"context"
	"os"
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
	hop := hopper.Build(t, os.TempDir())
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
