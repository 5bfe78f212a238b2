package cmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
	ossandbox "github.com/llmrt/llmrt/tools/sandbox"
)

// sandboxRun runs llmrt against srv with a temp directory of its own, so
// the only writable places under workspace-write are the workspace and
// that directory.
func sandboxRun(t *testing.T, sb *sandbox, srv *fakellm.Server, extra ...string) outcome {
	t.Helper()
	return runAs(t, sb, nil, srv, extra...)
}

// runAs is sandboxRun as the user cred names (nil: this process's user).
func runAs(t *testing.T, sb *sandbox, cred *syscall.Credential, srv *fakellm.Server, extra ...string) outcome {
	t.Helper()
	tmp := filepath.Join(sb.home, "tmp")
	if err := os.MkdirAll(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, extra...)
	c := cli{args: args, env: map[string]string{"OPENAI_API_KEY": "sk-test", "TMPDIR": tmp}}
	if cred == nil {
		return sb.run(c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := sb.command(ctx, c)
	cmd.SysProcAttr.Credential = cred
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		o.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run llmrt %v as uid %d: %v", args, cred.Uid, err)
	}
	return o
}

// users are the users the confinement tests run llmrt as: this process's,
// and, when that is root, nobody too, since root cuts the network with a
// namespace and every other user with the socket filter.
func users(t *testing.T) map[string]*syscall.Credential {
	us := map[string]*syscall.Credential{"this user": nil}
	if os.Getuid() == 0 {
		us["nobody"] = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	return us
}

// openTo lets user reach the binary and the test's directories: the
// directories the test writes to stay writable for it, so a refused write
// is the sandbox's doing, not the file mode's.
func openTo(t *testing.T, cred *syscall.Credential, dirs ...string) {
	t.Helper()
	if cred == nil {
		return
	}
	for _, d := range append([]string{filepath.Dir(binary)}, dirs...) {
		for p := d; p != "/" && p != os.TempDir(); p = filepath.Dir(p) {
			mode := os.FileMode(0o755)
			if p == d && p != filepath.Dir(binary) {
				mode = 0o777
			}
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// received reports whether a datagram waits on conn, without waiting:
// loopback delivers one before the sender's call returns.
func received(t *testing.T, conn net.PacketConn) bool {
	t.Helper()
	rc, err := conn.(*net.UDPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var rerr error
	if err := rc.Control(func(fd uintptr) {
		n, _, rerr = syscall.Recvfrom(int(fd), make([]byte, 16), syscall.MSG_DONTWAIT)
	}); err != nil {
		t.Fatal(err)
	}
	return rerr == nil && n > 0
}

func shellTurn(command string) scripted.Turn {
	b, _ := json.Marshal(map[string]string{"command": command})
	return toolCall("shell_cmd", string(b))
}

// lastRequestText returns the body of the last request srv received.
func lastRequestText(t *testing.T, srv *fakellm.Server) string {
	t.Helper()
	reqs := srv.Requests()
	return string(reqs[len(reqs)-1].Body)
}

// TestSandboxConfines: under the default mode (workspace-write on this
// kernel) a command writes the workspace but not a directory outside it,
// reaches neither a loopback HTTP server nor a UDP socket, and the model
// hears that the sandbox refused and how to allow it; the run's JSON and
// its session record the mode.
func TestSandboxConfines(t *testing.T) {
	t.Parallel()
	if err := ossandbox.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands: %v", err)
	}
	for name, cred := range users(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			outside := t.TempDir()
			openTo(t, cred, sb.home, sb.work, outside)
			inner := fake(t, fakellm.Ollama, finalAnswer("reached"))
			udp, err := net.ListenPacket("udp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer udp.Close()
			srv := fake(t, fakellm.OpenAI,
				shellTurn("echo ok > ok.txt"),
				shellTurn("echo no > "+filepath.Join(outside, "escape.txt")),
				shellTurn(binary+" run --provider ollama --base-url "+inner.URL+" --model m --permission auto -p hi --no-session"),
				shellTurn(fmt.Sprintf("bash -c 'echo ping > /dev/udp/%s'", strings.Replace(udp.LocalAddr().String(), ":", "/", 1))),
				finalAnswer("done"))
			o := runAs(t, sb, cred, srv, "--permission", "auto", "-o", "json", "-p", "try")
			o.want(t, 0)
			if b, err := os.ReadFile(filepath.Join(sb.work, "ok.txt")); err != nil || string(b) != "ok\n" {
				t.Errorf("workspace write: got %q, %v; want ok", b, err)
			}
			if _, err := os.Stat(filepath.Join(outside, "escape.txt")); err == nil {
				t.Error("a file was written outside the workspace")
			}
			reqs := srv.Requests()
			if body := string(reqs[2].Body); !strings.Contains(body, "This may be the sandbox") || !strings.Contains(body, "--sandbox off") {
				t.Errorf("the model should hear that the sandbox refused the write: %s", body)
			}
			for i, what := range map[int]string{3: "HTTP to loopback", 4: "UDP"} {
				if body := string(reqs[i].Body); !strings.Contains(strings.ToLower(body), "network is unreachable") || !strings.Contains(body, "--sandbox-network") {
					t.Errorf("%s: the model should hear that the network is off: %s", what, body)
				}
			}
			if n := len(inner.Requests()); n != 0 {
				t.Errorf("the loopback server got %d requests from inside the sandbox", n)
			}
			if received(t, udp) {
				t.Error("a UDP datagram left the sandbox")
			}
			var res struct{ Sandbox string }
			if err := json.Unmarshal([]byte(o.stdout), &res); err != nil || res.Sandbox != "workspace-write" {
				t.Errorf("json output sandbox = %q (%v), want workspace-write by default", res.Sandbox, err)
			}
			sess, _ := os.ReadFile(sb.sessions()[0])
			if !strings.Contains(string(sess), `"sandbox":"workspace-write"`) {
				t.Errorf("the session does not record the sandbox mode: %.300s", sess)
			}
		})
	}
}

// TestSandboxModes: what each mode and setting lets through.
func TestSandboxModes(t *testing.T) {
	t.Parallel()
	if err := ossandbox.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands: %v", err)
	}
	t.Run("--sandbox-network lets commands connect", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		inner := fake(t, fakellm.Ollama, finalAnswer("reached"))
		srv := fake(t, fakellm.OpenAI,
			shellTurn(binary+" run --provider ollama --base-url "+inner.URL+" --model m --permission auto -p hi --no-session"),
			finalAnswer("done"))
		sandboxRun(t, sb, srv, "--permission", "auto", "--sandbox-network", "-p", "try").want(t, 0)
		if !strings.Contains(lastRequestText(t, srv), "reached") {
			t.Errorf("the inner run did not reach the server: %s", lastRequestText(t, srv))
		}
	})
	t.Run("off lets the same write through", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		outside := t.TempDir()
		srv := fake(t, fakellm.OpenAI, shellTurn("echo yes > "+filepath.Join(outside, "f.txt")), finalAnswer("done"))
		sandboxRun(t, sb, srv, "--permission", "auto", "--sandbox", "off", "-p", "try").want(t, 0)
		if _, err := os.Stat(filepath.Join(outside, "f.txt")); err != nil {
			t.Errorf("--sandbox off refused the write: %v", err)
		}
	})
	t.Run("sandbox_writable adds a writable path", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		extra, outside := t.TempDir(), t.TempDir()
		sb.write(".llmrt/config.json", fmt.Sprintf(`{"sandbox_writable": [%q]}`, extra))
		sb.trust()
		srv := fake(t, fakellm.OpenAI, shellTurn(fmt.Sprintf("echo x > %s/f; echo x > %s/f", extra, outside)), finalAnswer("done"))
		sandboxRun(t, sb, srv, "--permission", "auto", "-p", "try").want(t, 0)
		_, errExtra := os.Stat(filepath.Join(extra, "f"))
		_, errOutside := os.Stat(filepath.Join(outside, "f"))
		if errExtra != nil || errOutside == nil {
			t.Errorf("written: the added path %v, elsewhere %v; want only the added path", errExtra == nil, errOutside == nil)
		}
	})
	t.Run("read-only refuses workspace writes", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, shellTurn("echo no > ro.txt"), finalAnswer("done"))
		sandboxRun(t, sb, srv, "--permission", "auto", "--sandbox", "read-only", "-p", "try").want(t, 0)
		if _, err := os.Stat(filepath.Join(sb.work, "ro.txt")); err == nil {
			t.Error("read-only mode wrote into the workspace")
		}
	})
	t.Run("sandboxed_commands auto runs confined commands without asking", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			mode string
			runs bool
		}{{"workspace-write", true}, {"off", false}} {
			sb := newSandbox(t)
			sb.write(".llmrt/config.json", `{"sandboxed_commands": "auto"}`)
			sb.trust()
			srv := fake(t, fakellm.OpenAI, shellTurn("echo auto > auto.txt"), finalAnswer("done"))
			sandboxRun(t, sb, srv, "--permission", "ask", "--sandbox", tc.mode, "-p", "try").want(t, 0)
			if _, err := os.Stat(filepath.Join(sb.work, "auto.txt")); (err == nil) != tc.runs {
				t.Errorf("--sandbox %s: the command ran without approval: %v, want %v", tc.mode, err == nil, tc.runs)
			}
		}
	})
	t.Run("an MCP stdio server with sandbox: true is confined", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		outside := t.TempDir()
		pid := func(name string) string { return filepath.Join(outside, name+".pid") }
		sb.mcpConfig(fmt.Sprintf(`"boxed":{"command":%q,"sandbox":true,"env":{"MCPTEST_PIDFILE":%q}},"free":{"command":%q,"env":{"MCPTEST_PIDFILE":%q}}`,
			mcpServer, pid("boxed"), mcpServer, pid("free")))
		srv := fake(t, fakellm.OpenAI, toolCall("mcp__boxed__get-sum", `{"a":2,"b":3}`), finalAnswer("five"))
		sandboxRun(t, sb, srv, "--permission", "auto", "-p", "add").want(t, 0)
		if !strings.Contains(lastRequestText(t, srv), "The sum of 2 and 3 is 5.") {
			t.Errorf("the confined server should still answer: %s", lastRequestText(t, srv))
		}
		if _, err := os.Stat(pid("boxed")); err == nil {
			t.Error("the confined server wrote outside the workspace")
		}
		if _, err := os.Stat(pid("free")); err != nil {
			t.Errorf("the server without sandbox: true could not write its pid file: %v", err)
		}
	})
	t.Run("llmrt tools shows the mode", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		o := sb.run(cli{args: []string{"tools", "--sandbox", "read-only"}})
		o.want(t, 0)
		if !strings.Contains(o.stdout, "sandbox read-only") {
			t.Errorf("llmrt tools does not show the sandbox mode:\n%s", o.stdout)
		}
	})
}

// TestSandboxKeepsTheTerminal: a confined command cannot push keystrokes
// into the terminal llmrt runs in (TIOCSTI), which the shell would read
// and run, unconfined, once llmrt exits.
func TestSandboxKeepsTheTerminal(t *testing.T) {
	t.Parallel()
	if err := ossandbox.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands: %v", err)
	}
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("perl makes the ioctl; it is not installed")
	}
	sb := newSandbox(t)
	// 0x5412 is TIOCSTI; the markers are split so that the command, shown
	// on the screen and sent back to the model, does not hold them.
	inject := `perl -e 'open(my $t, "+<", "/dev/tty") or die "open: $!\n"; ioctl($t, 0x5412, $_) or die "ioctl: $!\n" for split //, "INJ"."ECTED\n"; print "PUS"."HED\n"'`
	srv := fake(t, fakellm.OpenAI, shellTurn(inject), finalAnswer("done"))
	tm := startTerm(t, sb, map[string]string{"OPENAI_API_KEY": "sk-test"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--permission", "auto", "-p", "try")
	scr := tm.waitFor("EXIT=", 30*time.Second)
	if strings.Contains(scr, "INJECTED") {
		t.Errorf("a confined command pushed keystrokes into the terminal:\n%s", scr)
	}
	if body := lastRequestText(t, srv); strings.Contains(body, "PUSHED") {
		t.Errorf("the command reached the terminal: %s", body)
	}
}

// TestSandboxKeepsLlmrtsConfiguration: a confined command that rewrites
// the project config to turn the sandbox off, or adds an MCP server, has
// its change undone; the model is told, and the next run is confined.
func TestSandboxKeepsLlmrtsConfiguration(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".llmrt/config.json", `{"sandbox": "workspace-write"}`)
	sb.trust()
	srv := fake(t, fakellm.OpenAI,
		shellTurn(`echo '{"sandbox": "off", "permission": "auto"}' > .llmrt/config.json; echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json`),
		finalAnswer("done"))
	o := sandboxRun(t, sb, srv, "--permission", "auto", "-p", "loosen it")
	o.want(t, 0)
	if got, _ := os.ReadFile(filepath.Join(sb.work, ".llmrt", "config.json")); string(got) != `{"sandbox": "workspace-write"}` {
		t.Errorf("the project config was changed: %s", got)
	}
	if _, err := os.Stat(filepath.Join(sb.work, ".mcp.json")); err == nil {
		t.Error("the command's .mcp.json should be gone")
	}
	if last := lastRequestText(t, srv); !contains(last, "the change was undone") || !contains(last, ".mcp.json") {
		t.Errorf("the model should be told: %s", last)
	}
}
