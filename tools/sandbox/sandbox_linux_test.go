//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/tools/sandbox/internal/confine"
)

// The test binary doubles as a network client run inside the sandbox:
// an HTTP GET, or a UDP datagram (as a DNS query is sent).
func TestMain(m *testing.M) {
	if url := os.Getenv("SANDBOX_TEST_FETCH"); url != "" {
		c := http.Client{Timeout: 3 * time.Second}
		resp, err := c.Get(url)
		if err != nil {
			fmt.Println("fetch failed:", err)
			os.Exit(7)
		}
		resp.Body.Close()
		fmt.Println("fetched", resp.Status)
		os.Exit(0)
	}
	for _, network := range []string{"udp", "unix"} {
		if addr := os.Getenv("SANDBOX_TEST_" + strings.ToUpper(network)); addr != "" {
			conn, err := net.Dial(network, addr)
			if err == nil {
				_, err = conn.Write([]byte("ping"))
			}
			if err != nil {
				fmt.Println("send failed:", err)
				os.Exit(7)
			}
			fmt.Println("sent over", network)
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

func needLandlock(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("no Landlock on this kernel: %v", err)
	}
}

// dirs returns a workspace, a directory outside both the workspace and the
// temp directory, and points TMPDIR at a fresh temp directory.
func dirs(t *testing.T) (ws, outside, tmp string) {
	ws, outside = t.TempDir(), t.TempDir()
	tmp = t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return ws, outside, tmp
}

func run(t *testing.T, p Policy, script string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cleanup, err := Start(cmd, p)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer cleanup()
	err = cmd.Wait()
	return out.String(), err
}

// layers are the two ways a command is confined: in namespaces of its own
// (with Landlock and the socket filter as a second layer), and by the
// second layer alone, as where namespaces are refused.
var layers = []struct {
	name string
	ns   bool
}{{"namespaces", true}, {"no namespaces", false}}

// TestWrites: where a confined command may write, tried the plain way and
// the crooked ways (a symlink or a hard link from the workspace to a file
// outside it, a rename out, a path through /proc), in namespaces and
// without; a refused write leaves nothing behind, and llmrt's own process
// stays free.
func TestWrites(t *testing.T) {
	needLandlock(t)
	cases := []struct {
		mode   Mode
		name   string
		script string // run in the workspace $WS; $OUT is outside, $SHM in /dev/shm
		want   bool   // the write lands in $OUT (or in the place named) and the script succeeds
		check  string // the file that must exist exactly when want is true
		// private: in namespaces the write succeeds, in a private
		// directory the host never sees.
		private bool
	}{
		{WorkspaceWrite, "workspace", `echo x > "$WS/f"`, true, "$WS/f", false},
		{WorkspaceWrite, "temp dir", `echo x > "$TMPDIR/f"`, true, "$TMPDIR/f", true},
		{WorkspaceWrite, "/dev/shm", `echo x > "$SHM" && mv "$SHM" "$WS/shm"`, true, "$WS/shm", false},
		{WorkspaceWrite, "outside", `echo x > "$OUT/f"`, false, "$OUT/f", false},
		{WorkspaceWrite, "symlink to outside", `ln -s "$OUT" link && echo x > link/f`, false, "$OUT/f", false},
		{WorkspaceWrite, "hard link to outside", `ln "$OUT/victim" hl; echo x >> hl && grep -q x "$OUT/victim"`, false, "$OUT/victim.x", false},
		{WorkspaceWrite, "rename out", `echo x > f && mv f "$OUT/f"`, false, "$OUT/f", false},
		{WorkspaceWrite, "through /proc", `echo x > /proc/self/root"$OUT/f"`, false, "$OUT/f", false},
		{WorkspaceWrite, "through a new user namespace", `unshare -r sh -c 'echo x > "$OUT/f"'`, false, "$OUT/f", false},
		{WorkspaceWrite, "through a new mount namespace", `unshare -rm sh -c 'umount -l /tmp; echo x > "$OUT/f"'`, false, "$OUT/f", false},
		{WorkspaceWrite, "through a device node", `mknod "$WS/null" c 1 3`, false, "$WS/null", false},
		{WorkspaceWrite, "system file", `echo x >> /etc/hostname`, false, "", false},
		{ReadOnly, "workspace", `echo x > "$WS/f"`, false, "$WS/f", false},
		{ReadOnly, "private temp dir", `echo x > "$TMPDIR/f" && cat "$TMPDIR/f" /etc/hostname >/dev/null`, true, "", false},
		{ReadOnly, "/dev/shm", `echo x > "$SHM"`, false, "$SHM", true},
		{Off, "outside", `echo x > "$OUT/f"`, true, "$OUT/f", false},
	}
	for _, layer := range layers {
		for _, tc := range cases {
			t.Run(layer.name+" "+string(tc.mode)+" "+tc.name, func(t *testing.T) {
				if layer.ns && tc.mode != Off {
					needNamespaces(t)
				}
				ws, out, tmp := dirs(t)
				if err := os.WriteFile(filepath.Join(out, "victim"), []byte("original\n"), 0o666); err != nil {
					t.Fatal(err)
				}
				shm := filepath.Join("/dev/shm", filepath.Base(ws)+filepath.Base(filepath.Dir(ws)))
				t.Cleanup(func() { os.Remove(shm) })
				succeeds, lands := tc.want, tc.want
				if layer.ns && tc.private {
					succeeds, lands = true, false
				}
				script := "cd " + ws + " && " + tc.script
				got, err := run(t, Policy{Mode: tc.mode, Workspace: ws, noNamespace: !layer.ns}, script, "WS="+ws, "OUT="+out, "SHM="+shm)
				if (err == nil) != succeeds {
					t.Errorf("%s: success %v, want %v\n%s", tc.script, err == nil, succeeds, got)
				}
				if tc.check != "" {
					path := strings.NewReplacer("$WS", ws, "$OUT", out, "$TMPDIR", tmp, "$SHM", shm).Replace(tc.check)
					if strings.HasSuffix(path, ".x") {
						b, _ := os.ReadFile(strings.TrimSuffix(path, ".x"))
						if strings.Contains(string(b), "x") != lands {
							t.Errorf("%s: the file outside now holds %q", tc.script, b)
						}
					} else if _, err := os.Stat(path); (err == nil) != lands {
						t.Errorf("%s: %s exists: %v, want %v", tc.script, path, err == nil, lands)
					}
				}
				if err := os.WriteFile(filepath.Join(out, "host.txt"), []byte("x"), 0o644); err != nil {
					t.Errorf("the host process lost write access: %v", err)
				}
			})
		}
	}
}

// TestNetwork: without --sandbox-network a command reaches neither a
// loopback HTTP server nor a UDP socket, whether the network is cut by a
// namespace (root) or by the socket filter (everyone else); with it, both.
func TestNetwork(t *testing.T) {
	needLandlock(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hi") })}
	go srv.Serve(ln)
	defer srv.Close()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	ws, _, _ := dirs(t)
	self, _ := os.Executable()
	for _, tc := range []struct {
		name                 string
		network, noNamespace bool
	}{
		{"namespace", false, false},
		{"filter", false, true},
		{"allowed", true, false},
	} {
		for _, client := range []string{"SANDBOX_TEST_FETCH=http://" + ln.Addr().String() + "/", "SANDBOX_TEST_UDP=" + udp.LocalAddr().String()} {
			p := Policy{Mode: WorkspaceWrite, Workspace: ws, Network: tc.network, noNamespace: tc.noNamespace}
			out, err := run(t, p, self, client)
			if (err == nil) != tc.network {
				t.Errorf("%s, %s: err=%v, want success %v\n%s", tc.name, client, err, tc.network, out)
			}
			if !tc.network && (!strings.Contains(out, "network is unreachable") || Explain(out, p) == "") {
				t.Errorf("%s, %s: said %q, want network is unreachable, which Explain names", tc.name, client, out)
			}
		}
	}
}

// TestFilterKeepsUnixSockets: the socket filter leaves Unix sockets (a
// shell's pipes, local daemons) working.
func TestFilterKeepsUnixSockets(t *testing.T) {
	needLandlock(t)
	ws, _, _ := dirs(t)
	sock := filepath.Join(ws, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			io.Copy(io.Discard, c) // until the client hangs up
			c.Close()
		}
	}()
	self, _ := os.Executable()
	out, err := run(t, Policy{Mode: WorkspaceWrite, Workspace: ws, noNamespace: true}, self, "SANDBOX_TEST_UNIX="+sock)
	if err != nil || !strings.Contains(out, "sent over unix") {
		t.Errorf("a Unix socket under the filter: %v\n%s", err, out)
	}
}

// Many sandboxed starts from many goroutines leave the host's threads
// unrestricted: the restriction dies with its thread.
func TestHostThreadsStayFree(t *testing.T) {
	needLandlock(t)
	ws, outside, _ := dirs(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if _, err := run(t, Policy{Mode: WorkspaceWrite, Workspace: ws}, "true"); err != nil {
				t.Errorf("start %d: %v", i, err)
			}
			if err := os.WriteFile(filepath.Join(outside, fmt.Sprint(i)), nil, 0o644); err != nil {
				t.Errorf("host write after start %d: %v", i, err)
			}
		})
	}
	wg.Wait()
}

// BenchmarkStart measures starting /bin/true unconfined, confined in
// namespaces, and confined without them (Landlock and the socket filter
// or a network namespace), also with a file to hide (through the helper,
// as root and in a user namespace as every other user).
func BenchmarkStart(b *testing.B) {
	ws := b.TempDir()
	env := filepath.Join(ws, ".env")
	os.WriteFile(env, []byte("K=v\n"), 0o600)
	for _, tc := range []struct {
		name string
		p    Policy
	}{
		{"off", Policy{Mode: Off}},
		{"namespaces", Policy{Mode: WorkspaceWrite}},
		{"namespaces, hidden", Policy{Mode: WorkspaceWrite, Hidden: []string{env}}},
		{"no namespaces", Policy{Mode: WorkspaceWrite, noNamespace: true}},
		{"no namespaces, hidden", Policy{Mode: WorkspaceWrite, Hidden: []string{env}, noNamespace: true}},
		{"no namespaces, hidden in a user namespace", Policy{Mode: WorkspaceWrite, Hidden: []string{env}, noNamespace: true, userNamespace: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.p.Mode != Off && Available() != nil {
				b.Skip("no Landlock")
			}
			p := tc.p
			p.Workspace = ws
			for b.Loop() {
				cmd := exec.Command("/bin/true")
				cleanup, err := Start(cmd, p)
				if err != nil {
					b.Fatal(err)
				}
				if err := cmd.Wait(); err != nil {
					b.Fatal(err)
				}
				cleanup()
			}
		})
	}
}

// TestCommandsLeaveTheTerminal: a confined command runs in a session of
// its own (led by the command, or by the helper that is the init of its
// PID namespace), with no controlling terminal to read or to push
// keystrokes into, and holds no capability beyond confine.KeptCaps
// (CAP_SYS_ADMIN, CAP_MKNOD, ...); started by root, not even in its
// bounding set. (Another user's bounding set stays full, which is
// harmless: with no_new_privs no exec can raise its capabilities.)
func TestCommandsLeaveTheTerminal(t *testing.T) {
	needLandlock(t)
	for _, layer := range layers {
		ws, _, _ := dirs(t)
		out, err := run(t, Policy{Mode: WorkspaceWrite, Workspace: ws, noNamespace: !layer.ns}, `read -r stat < /proc/self/stat; set -- $stat; echo "pid=$$ session=$6 tty=$7"; grep -E '^Cap(Bnd|Eff):' /proc/self/status`)
		if err != nil {
			t.Fatalf("%s: %v\n%s", layer.name, err, out)
		}
		var pid, session, tty int
		leader := func() bool { return session == pid || layer.ns && session == 1 }
		if _, err := fmt.Sscanf(out, "pid=%d session=%d tty=%d", &pid, &session, &tty); err != nil || !leader() || tty != 0 {
			t.Errorf("%s: got %q, want a session of its own with no terminal", layer.name, out)
		}
		for _, line := range strings.Split(out, "\n")[1:] {
			name, hex, ok := strings.Cut(line, ":")
			if !ok || name == "CapBnd" && os.Geteuid() != 0 {
				continue
			}
			var caps uint64
			fmt.Sscanf(strings.TrimSpace(hex), "%x", &caps)
			if extra := caps &^ confine.KeptCaps; extra != 0 {
				t.Errorf("%s: %s = %#x holds %#x beyond the kept capabilities", layer.name, name, caps, extra)
			}
		}
	}
}

// BenchmarkNamespaceCost measures what namespaces add to a confined
// command: each op starts /bin/true and waits for it once in namespaces
// and once without (as before them: Landlock, the socket filter or a
// network namespace, and the .env hidden in a mount namespace, in a user
// namespace for every user but root), taking turns so that a busy
// machine weighs on both alike. It reports each one's median, fastest
// and slowest start in milliseconds, and the difference of the medians.
func BenchmarkNamespaceCost(b *testing.B) {
	if err := Available(); err != nil {
		b.Skip(err)
	}
	if err := NamespacesRefused(); err != nil {
		b.Skip(err)
	}
	ws := b.TempDir()
	env := filepath.Join(ws, ".env")
	os.WriteFile(env, []byte("K=v\n"), 0o600)
	with := Policy{Mode: WorkspaceWrite, Workspace: ws, Hidden: []string{env}}
	without := with
	without.noNamespace, without.userNamespace = true, os.Geteuid() != 0
	policies := []Policy{with, without}
	took := make([][]time.Duration, len(policies))
	for b.Loop() {
		for i, p := range policies {
			start := time.Now()
			cmd := exec.Command("/bin/true")
			cleanup, err := Start(cmd, p)
			if err != nil {
				b.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				b.Fatal(err)
			}
			cleanup()
			took[i] = append(took[i], time.Since(start))
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	for i, name := range []string{"ns", "nons"} {
		d := took[i]
		slices.Sort(d)
		b.ReportMetric(ms(d[len(d)/2]), name+"-median-ms")
		b.ReportMetric(ms(d[0]), name+"-min-ms")
		b.ReportMetric(ms(d[len(d)-1]), name+"-max-ms")
	}
	b.ReportMetric(ms(took[0][len(took[0])/2]-took[1][len(took[1])/2]), "added-median-ms")
}
