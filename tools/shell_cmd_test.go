package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func runShellTest(t *testing.T, ctx context.Context, opts Options, args map[string]any) (shellResult, Result, error) {
	t.Helper()
	ws, root := newTestWorkspace(t)
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := callErr(ctx, builtin(t, ws, opts, "shell_cmd"), args)
	var sr shellResult
	if !res.IsError || strings.HasPrefix(res.Content, "{") {
		if jerr := json.Unmarshal([]byte(res.Content), &sr); jerr != nil {
			t.Fatalf("shell_cmd(%v): result is not JSON (%v): %.300s", args, jerr, res.Content)
		}
	}
	return sr, res, err
}

func TestShellCmd(t *testing.T) {
	cases := []struct {
		name     string
		args     map[string]any
		isError  bool
		exitCode int
		want     string // output (or error text) must contain it
		exact    bool
	}{
		{"stdout and stderr", map[string]any{"command": "echo out; echo err >&2; exit 3"}, false, 3, "out\nerr\n", true},
		{"shell syntax", map[string]any{"command": "for i in 1 2 3; do printf $i; done | tr 1 x"}, false, 0, "x23", true},
		{"exec form is literal", map[string]any{"command": "echo", "args": []string{"$HOME", "*", "a b"}}, false, 0, "$HOME * a b\n", true},
		{"exec form no args", map[string]any{"command": "pwd", "args": []string{}}, false, 0, "", false},
		{"directory", map[string]any{"command": "pwd", "directory": "sub"}, false, 0, "/sub\n", false},
		{"stdin is empty", map[string]any{"command": "cat; read x; echo \"got:$x\""}, false, 0, "got:\n", true},
		{"no pager", map[string]any{"command": "echo $PAGER $GIT_TERMINAL_PROMPT"}, false, 0, "cat 0\n", true},
		{"missing program", map[string]any{"command": "no-such-program-xyz", "args": []string{}}, true, 0, "cannot run", false},
		{"missing via shell", map[string]any{"command": "no-such-program-xyz"}, false, 127, "not found", false},
		{"directory escape", map[string]any{"command": "pwd", "directory": "../"}, true, 0, "outside the workspace", false},
		{"directory missing", map[string]any{"command": "pwd", "directory": "nope"}, true, 0, "does not exist", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sr, res, err := runShellTest(t, context.Background(), Options{}, c.args)
			if err != nil {
				t.Fatalf("shell_cmd(%v): Go error %v", c.args, err)
			}
			if res.IsError != c.isError {
				t.Fatalf("shell_cmd(%v): IsError = %v, want %v: %s", c.args, res.IsError, c.isError, res.Content)
			}
			if c.isError {
				if !strings.Contains(res.Content, c.want) {
					t.Errorf("shell_cmd(%v) = %q, want it to contain %q", c.args, res.Content, c.want)
				}
				return
			}
			if sr.ExitCode != c.exitCode || sr.TimedOut {
				t.Errorf("shell_cmd(%v): exit %d timed_out %v, want exit %d", c.args, sr.ExitCode, sr.TimedOut, c.exitCode)
			}
			if (c.exact && sr.Output != c.want) || !strings.Contains(sr.Output, c.want) {
				t.Errorf("shell_cmd(%v): output %q, want %q", c.args, sr.Output, c.want)
			}
		})
	}
}

func TestShellCmdTimeout(t *testing.T) {
	sr, res, err := runShellTest(t, context.Background(), Options{}, map[string]any{"command": "sleep 30", "timeout_ms": 1000})
	if err != nil || !res.IsError {
		t.Fatalf("timeout: err %v, IsError %v, want a timed-out error result", err, res.IsError)
	}
	if !sr.TimedOut || sr.DurationMS >= 30_000 || !strings.Contains(sr.Note, "timeout_ms") {
		t.Errorf("sleep 30 with timeout_ms 1000: timed_out %v after %d ms, note %q; want timed_out true, killed early, a hint", sr.TimedOut, sr.DurationMS, sr.Note)
	}
}

// TestShellCmdKillsGroup runs a shell and a child that both ignore SIGTERM
// and checks that nothing of the group survives the grace period.
func TestShellCmdKillsGroup(t *testing.T) {
	opts := Options{Shell: ShellOptions{GraceKill: 300 * time.Millisecond}}
	sr, _, err := runShellTest(t, context.Background(), opts, map[string]any{
		"command": `echo $$; trap "" TERM; sleep 60; sleep 60`, "timeout_ms": 300})
	if err != nil {
		t.Fatal(err)
	}
	pgid := leadingPID(t, sr.Output)
	if !sr.TimedOut || sr.Signal != "killed" {
		t.Errorf("TERM-ignoring command: timed_out %v signal %q, want true and killed", sr.TimedOut, sr.Signal)
	}
	if live, _ := liveMembers(pgid); len(live) > 0 {
		t.Errorf("process group %d still has live processes %v after shell_cmd returned", pgid, live)
	}
}

func TestShellCmdCancel(t *testing.T) {
	// The call is cancelled once the command has started its sleeps, not
	// at a fixed time that a loaded machine may reach before the shell runs.
	started := filepath.Join(t.TempDir(), "started")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer cancel()
		for range 3000 {
			if _, err := os.Stat(started); err == nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	sr, res, err := runShellTest(t, ctx, Options{Shell: ShellOptions{GraceKill: 300 * time.Millisecond}},
		map[string]any{"command": "echo $$; sleep 30 & : > " + started + "; sleep 30"})
	if !errors.Is(err, context.Canceled) || !res.IsError {
		t.Fatalf("cancelled shell_cmd: err %v IsError %v, want the context error and an error result", err, res.IsError)
	}
	pgid := leadingPID(t, sr.Output)
	if live, _ := liveMembers(pgid); len(live) > 0 {
		t.Errorf("process group %d still has live processes %v after cancellation", pgid, live)
	}
}

func TestShellCmdHugeOutput(t *testing.T) {
	const n = 50_000_000
	sr, _, err := runShellTest(t, context.Background(), Options{}, map[string]any{
		"command": "echo START; head -c " + strconv.Itoa(n) + " /dev/zero | tr '\\0' x; echo; echo END"})
	if err != nil {
		t.Fatal(err)
	}
	if !sr.Truncated || sr.OutputBytes != int64(n+len("START\n\nEND\n")) {
		t.Errorf("50 MB output: truncated %v, output_bytes %d, want true and %d", sr.Truncated, sr.OutputBytes, n+11)
	}
	if len(sr.Output) > defaultShellOutput+300 {
		t.Errorf("50 MB output kept %d bytes, want at most about %d", len(sr.Output), defaultShellOutput)
	}
	if !strings.HasPrefix(sr.Output, "START\nxxx") || !strings.HasSuffix(sr.Output, "xxx\nEND\n") || !strings.Contains(sr.Output, "bytes of output dropped") {
		t.Errorf("50 MB output should keep head, tail and a drop marker; got %.80q … %q", sr.Output, tail(sr.Output, 80))
	}
}

// TestShellCmdResultFits checks that output which grows when JSON-escaped
// (quotes, control characters, colour codes) still yields a whole JSON
// result under the engine's 32 KiB cap.
func TestShellCmdResultFits(t *testing.T) {
	cases := []string{
		`head -c 100000 /dev/zero | tr '\0' '"'`,
		`head -c 100000 /dev/zero | tr '\0' '\\'`,
		`head -c 100000 /dev/urandom`,
		`i=0; while [ $i -lt 3000 ]; do printf '\033[1;31m<e>&\033[0m\r\n'; i=$((i+1)); done`,
	}
	for _, c := range cases {
		_, res, err := runShellTest(t, context.Background(), Options{}, map[string]any{"command": c})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Content) > 32*1024 || !json.Valid([]byte(res.Content)) {
			t.Errorf("shell_cmd(%s): %d bytes, valid JSON %v; want a valid JSON result under 32 KiB", c, len(res.Content), json.Valid([]byte(res.Content)))
		}
	}
}

func TestCleanOutput(t *testing.T) {
	cases := map[string]string{
		"\x1b[1;31merror\x1b[0m: bad\n":        "error: bad\n",
		"10%\r50%\r100%\n":                     "10%\n50%\n100%\n",
		"a\r\nb\r\n":                           "a\nb\n",
		"bell\x07 nul\x00 tab\t":               "bell nul tab\t",
		"\x1b]8;;http://x\x07link\x1b]8;;\x07": "link",
		"<nil> & done":                         "<nil> & done",
	}
	for in, want := range cases {
		if got := cleanOutput(in); got != want {
			t.Errorf("cleanOutput(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShellCmdBackgroundJob(t *testing.T) {
	// A background job holding the output pipe must not hang the call.
	sr, _, err := runShellTest(t, context.Background(), Options{Shell: ShellOptions{GraceKill: 200 * time.Millisecond}}, map[string]any{
		"command": "echo $$; sleep 30 &"})
	if err != nil {
		t.Fatal(err)
	}
	if sr.DurationMS >= 30_000 || !strings.Contains(sr.Note, "background process") {
		t.Errorf("background job holding output: %d ms, note %q; want an early return with a note", sr.DurationMS, sr.Note)
	}
	if live, _ := liveMembers(leadingPID(t, sr.Output)); len(live) > 0 {
		t.Errorf("background job %v still running", live)
	}
}

// TestShellCmdLeavesNoProcess: whatever a command starts in the background,
// in its process group or out of it, with the call's marker or without it,
// is gone once the call returns. Like llmrt, the test process is the
// subreaper of what it starts, so processes that detach are adopted here.
func TestShellCmdLeavesNoProcess(t *testing.T) {
	if err := EnableSubreaper(); err != nil {
		t.Logf("no subreaper (%v): leftovers without the marker go to init", err)
	}
	cases := map[string]string{
		"background":             "sleep %s &",
		"redirected":             "sleep %s >/dev/null 2>&1 &",
		"nohup":                  "nohup sleep %s >/dev/null 2>&1 &",
		"setsid":                 "setsid sleep %s >/dev/null 2>&1 &",
		"setsid fork":            "setsid -f sleep %s >/dev/null 2>&1",
		"subshell":               "(sleep %s >/dev/null 2>&1 &)",
		"double fork":            "sh -c 'sleep %s >/dev/null 2>&1 &' &",
		"disown":                 "sleep %s >/dev/null 2>&1 & disown",
		"ignores SIGTERM":        "trap '' TERM; setsid sh -c 'trap \"\" TERM; sleep %s' >/dev/null 2>&1 &",
		"env -i setsid":          "env -i setsid sleep %s >/dev/null 2>&1 & sleep 0.2",
		"marker unset":           "unset LLMRT_CALL; setsid sleep %s >/dev/null 2>&1 & sleep 0.2",
		"job control":            "env -i bash -c 'set -m; sleep %s >/dev/null 2>&1 &'",
		"env -i subtree":         "env -i setsid sh -c 'sleep %s & wait' >/dev/null 2>&1 & sleep 0.2",
		"double fork, no marker": "(env -i setsid sleep %s >/dev/null 2>&1 &); sleep 0.2",
		"exec form":              "",
	}
	n := 0
	for name, line := range cases {
		n++
		secs := strconv.Itoa(4000 + n) // a duration no other test uses
		t.Run(name, func(t *testing.T) {
			args := map[string]any{"command": strings.ReplaceAll(line, "%s", secs)}
			if line == "" {
				args = map[string]any{"command": "setsid", "args": []string{"-f", "sleep", secs}}
			}
			sr, res, err := runShellTest(t, context.Background(), Options{Shell: ShellOptions{GraceKill: 300 * time.Millisecond}}, args)
			if err != nil || res.IsError {
				t.Fatalf("shell_cmd: %v %s", err, res.Content)
			}
			if left := processesRunning("sleep " + secs); len(left) > 0 {
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
				t.Fatalf("%q left %v running", args["command"], left)
			}
			if !strings.Contains(sr.Note, "background process") {
				t.Errorf("the model should be told its background process was stopped, note %q", sr.Note)
			}
		})
	}
}

// processesRunning lists the live processes whose command line contains s.
func processesRunning(s string) []int {
	var pids []int
	procs, _ := processTable()
	for _, p := range procs {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
		if !p.zombie && strings.Contains(strings.ReplaceAll(string(cmdline), "\x00", " "), s) {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

func TestHeadTail(t *testing.T) {
	cases := []struct {
		max    int
		writes []string
		want   string
		cut    bool
	}{
		{9, []string{"abc"}, "abc", false},
		{9, []string{"abcdefghi"}, "abcdefghi", false},
		{9, []string{"abc", "defghijkl"}, "abc\n[… 3 bytes", true},
		{9, []string{"abcdefghijklmnopqrstuvwxyz"}, "abc\n[… 17 bytes", true},
		{9, []string{"ab", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"}, "abc\n[… 4 bytes", true},
	}
	for _, c := range cases {
		h := newHeadTail(c.max)
		for _, w := range c.writes {
			h.Write([]byte(w))
		}
		got, cut := h.String()
		all := strings.Join(c.writes, "")
		if cut != c.cut || !strings.HasPrefix(got, c.want) || (cut && !strings.HasSuffix(got, all[len(all)-6:])) {
			t.Errorf("headTail(%d) after %q = %q (cut %v), want prefix %q, tail %q, cut %v", c.max, c.writes, got, cut, c.want, all[max(0, len(all)-6):], c.cut)
		}
	}
}

func leadingPID(t *testing.T, out string) int {
	t.Helper()
	line, _, _ := strings.Cut(out, "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("output %q does not start with a pid", out)
	}
	return pid
}

// BenchmarkShellCmd measures one shell_cmd call of `true`, including the
// search for processes the call left behind.
func BenchmarkShellCmd(b *testing.B) {
	ws, _ := NewWorkspace(b.TempDir())
	tl := Builtins(ws, Options{})
	var shell Tool
	for _, t := range tl {
		if t.Name == "shell_cmd" {
			shell = t
		}
	}
	args := json.RawMessage(`{"command":"true"}`)
	b.Run("call", func(b *testing.B) {
		for b.Loop() {
			if res, err := shell.Execute(context.Background(), args); err != nil || res.IsError {
				b.Fatal(err, res.Content)
			}
		}
	})
	b.Run("leftover search only", func(b *testing.B) {
		for b.Loop() {
			w := watchCall("no-such-marker")
			w.started(1 << 30)
			w.stop(time.Second)
			w.done()
		}
	})
}
