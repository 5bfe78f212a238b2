//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/tools/sandbox/internal/confine"
)

// TestPlan: the mounts of a view, in their order, for workspaces inside a
// private directory and out of it, kept files, nested private
// directories, llmrt's directories, protected paths that are there, gone
// or lead elsewhere, and read-only mode.
func TestPlan(t *testing.T) {
	root := t.TempDir()
	p := func(rel string) string { return filepath.Join(root, rel) }
	for _, d := range []string{"tmp/ws/.llmrt", "tmp/ws/.git/hooks", "tmp/run-user", "tmp/bin", "run", "home/.config/llmrt", "home/proj", "extra"} {
		if err := os.MkdirAll(p(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	show := func(ms []confine.Mount) string {
		names := map[confine.MountOp]string{confine.Private: "private", confine.Save: "save", confine.ReadOnly: "ro", confine.Tmpfs: "tmpfs",
			confine.Attach: "attach", confine.Bind: "bind", confine.Hide: "hide", confine.Dev: "dev", confine.Proc: "proc"}
		var b []string
		for _, m := range ms {
			s := names[m.Op]
			if m.Path != "" {
				s += " " + strings.TrimPrefix(m.Path, root)
			}
			if m.Op == confine.Attach {
				s += fmt.Sprintf("#%d", m.Slot)
			}
			if m.RO && m.Op != confine.Bind {
				s += " ro"
			}
			b = append(b, s)
		}
		return strings.Join(b, "; ")
	}
	cases := []struct {
		name         string
		in           viewInput
		want         string
		wantWritable []string
	}{{
		name: "a workspace in /tmp",
		in: viewInput{workspace: p("tmp/ws"), private: []string{p("tmp"), p("run"), p("missing"), p("tmp/run-user")},
			emptied:   []string{p("home/.config/llmrt"), p("home/.local/state/llmrt")},
			protected: []string{p("tmp/ws/.llmrt"), p("tmp/ws/.git/hooks"), p("tmp/outside-llmrt")}, hidden: []string{p("tmp/ws/.env")},
			keep: []string{p("tmp/bin/llmrt"), "/bin/sh"}},
		want: "private; save /tmp/ws; save /tmp/bin/llmrt; ro /; tmpfs /tmp; tmpfs /run; tmpfs /tmp/run-user; attach /tmp/ws#0; " +
			"tmpfs /home/.config/llmrt ro; attach /tmp/bin/llmrt#1 ro; dev; proc; bind /tmp/ws/.llmrt; bind /tmp/ws/.git/hooks; hide /tmp/ws/.env",
		wantWritable: []string{p("tmp"), p("run"), p("tmp/run-user"), p("tmp/ws"), "/dev/shm"},
	}, {
		name: "a workspace elsewhere, read-only, with a writable path",
		in: viewInput{workspace: p("home/proj"), readOnly: true, writable: []string{p("extra")}, private: []string{p("tmp")},
			protected: []string{p("home/proj/.llmrt")}, keep: []string{p("home/proj/tool")}},
		want:         "private; save /home/proj; save /extra; ro /; tmpfs /tmp; attach /extra#1; attach /home/proj#0 ro; dev; proc",
		wantWritable: []string{p("tmp"), p("extra"), "/dev/shm"},
	}, {
		name:         "a protected path behind a symlink into a private directory",
		in:           viewInput{workspace: p("home/proj"), private: []string{p("tmp")}, protected: []string{p("tmp/elsewhere/.llmrt")}},
		want:         "private; save /home/proj; ro /; tmpfs /tmp; attach /home/proj#0; dev; proc",
		wantWritable: []string{p("tmp"), p("home/proj"), "/dev/shm"},
	}, {
		name:         "the workspace inside llmrt's directory keeps it",
		in:           viewInput{workspace: p("home/.config/llmrt"), emptied: []string{p("home/.config/llmrt")}},
		want:         "private; save /home/.config/llmrt; ro /; attach /home/.config/llmrt#0; dev; proc",
		wantWritable: []string{p("home/.config/llmrt"), "/dev/shm"},
	}}
	for _, tc := range cases {
		mounts, writable, err := plan(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := show(mounts); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
		}
		if !slices.Equal(writable, tc.wantWritable) {
			t.Errorf("%s: writable %v, want %v", tc.name, writable, tc.wantWritable)
		}
	}
	if _, _, err := plan(viewInput{workspace: "/"}); !errors.Is(err, errNoView) {
		t.Errorf("the root as the workspace: got %v, want errNoView", err)
	}
}

// needNamespaces skips a test where this system refuses the namespaces.
func needNamespaces(t *testing.T) {
	t.Helper()
	needLandlock(t)
	abi, _ := confine.LandlockABI()
	if _, ok := namespaceFlags(Policy{Mode: WorkspaceWrite, Workspace: t.TempDir()}, abi, "/bin/true"); !ok {
		t.Skipf("this system refuses the namespaces: %v", nsSupport.err)
	}
}

// TestView: what a command in namespaces sees: no file, socket or terminal
// of the host's in /tmp, /run or /dev, its own processes only, llmrt's
// files in the workspace read-only and its own directories empty, and the
// directory it was started in; llmrt's view stays as it was.
func TestView(t *testing.T) {
	needNamespaces(t)
	ws, out, _ := dirs(t)
	for f, content := range map[string]string{".llmrt/config.json": "{}", ".mcp.json": "{}", ".git/hooks/pre-commit": "true\n", "sub/keep": "k"} {
		os.MkdirAll(filepath.Dir(filepath.Join(ws, f)), 0o755)
		os.WriteFile(filepath.Join(ws, f), []byte(content), 0o644)
	}
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "llmrt"), 0o755)
	os.WriteFile(filepath.Join(config, "llmrt", "config.json"), []byte(`{"secret": 1}`), 0o600)
	t.Setenv("XDG_CONFIG_HOME", config)
	os.WriteFile(filepath.Join(out, "host-file"), nil, 0o644)
	sock := filepath.Join(out, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	abstract, err := net.Listen("unix", "@llmrt-view-test-"+strconv.Itoa(os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	defer abstract.Close()
	self, _ := os.Executable()
	script := `echo "pwd=$(pwd)"; echo "dev=$(ls /dev | tr '\n' ' ')"; echo "pts=$(ls /dev/pts | tr '\n' ' ')"; ` +
		`echo "pids=$(ls /proc | grep -c '^[0-9]')"; echo "init=$(tr '\0' ' ' < /proc/1/cmdline | cut -c1-18)"; ` +
		`test -e "$OUT/host-file" && echo HOST-FILE; echo "config=$(ls -A "$XDG_CONFIG_HOME/llmrt")"; ` +
		`SANDBOX_TEST_UNIX="$OUT/sock" "$SELF"; SANDBOX_TEST_UNIX="@llmrt-view-test-$LLMRT_PID" "$SELF"; ` +
		`cd "$WS"; for f in .llmrt/config.json .mcp.json .git/hooks/pre-commit .git/hooks/post-checkout .llmrt/new; do echo x >> "$f" && echo "WROTE $f"; done; ` +
		`mv .llmrt moved && echo MOVED; echo ok > sub/new && echo "WORKSPACE"`
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = filepath.Join(ws, "sub")
	cmd.Env = append(os.Environ(), "WS="+ws, "OUT="+out, "SELF="+self, "LLMRT_PID="+strconv.Itoa(os.Getpid()))
	b, err := runCmd(t, cmd, Policy{Mode: WorkspaceWrite, Workspace: ws})
	got := string(b)
	for _, want := range []string{"pwd=" + filepath.Join(ws, "sub") + "\n", "dev=fd null ptmx pts random shm stderr stdin stdout tty urandom zero \n",
		"pts=ptmx \n", "init=" + confine.HelperName, "config=\n", "WORKSPACE\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the command should see %q (%v):\n%s", want, err, got)
		}
	}
	var pids int
	if _, err := fmt.Sscanf(got[strings.Index(got, "pids=")+5:], "%d", &pids); err != nil || pids > 20 {
		t.Errorf("the command should see its own few processes, not the host's:\n%s", got)
	}
	for _, leak := range []string{"HOST-FILE", "sent over", "WROTE", "MOVED"} {
		if strings.Contains(got, leak) {
			t.Errorf("the command could: %s\n%s", leak, got)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".mcp.json")); string(b) != "{}" {
		t.Errorf(".mcp.json changed: %q", b)
	}
	if _, err := os.Stat(sock); err != nil {
		t.Errorf("the host lost its socket: %v", err)
	}
}

// runCmd starts cmd under p and returns what it printed.
func runCmd(t *testing.T, cmd *exec.Cmd, p Policy) ([]byte, error) {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	cleanup, err := Start(cmd, p)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer cleanup()
	err = cmd.Wait()
	return []byte(out.String()), err
}

// TestEverythingEndsWithTheCommand: what a command in namespaces leaves
// running, in its group or a session of its own, ends when it does, before
// Wait returns; the command's exit status is its own (a signal's as a
// shell reports it).
func TestEverythingEndsWithTheCommand(t *testing.T) {
	needNamespaces(t)
	ws, _, _ := dirs(t)
	mark := fmt.Sprintf("%d.%d", 4000+os.Getpid()%1000, time.Now().UnixNano()%1_000_000)
	for _, tc := range []struct {
		script string
		code   int
	}{
		{"sleep " + mark + " & setsid sleep " + mark + " & nohup sleep " + mark + " >/dev/null 2>&1 & exit 3", 3},
		{"sleep " + mark + " & kill -9 $$", 128 + int(syscall.SIGKILL)},
	} {
		_, err := run(t, Policy{Mode: WorkspaceWrite, Workspace: ws}, tc.script)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
			t.Errorf("%s: got %v, want exit status %d", tc.script, err, tc.code)
		}
		if left := sleepers(mark); len(left) > 0 {
			t.Errorf("%s: still running after the command: %v", tc.script, left)
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// sleepers lists the live processes whose command line holds mark.
func sleepers(mark string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if strings.Contains(string(cmdline), mark) && !strings.Contains(string(stat), ") Z") {
			pids = append(pids, pid)
		}
	}
	return pids
}
