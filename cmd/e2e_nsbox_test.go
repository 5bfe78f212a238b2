package cmd_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/internal/hopper"
	ossandbox "github.com/llmrt/llmrt/tools/sandbox"
)

// The tests of this file attack the sandbox the way a model that controls
// the commands would (issue 22): through a Unix socket of the host, another
// terminal, a process that hops from pid to pid, and llmrt's own files.
// The markers a command prints are split in its text ("A"-"B" prints A-B),
// so that finding one in a request means the command did it, not that the
// request repeats the command.

// toolResults is the part of a request body from its first tool result
// on: what the commands printed, without the tool list and the commands.
func toolResults(body string) string {
	if i := strings.Index(body, `"role":"tool"`); i >= 0 {
		return body[i:]
	}
	return body
}

// needNamespaces skips a test of what only namespaces give confined
// commands where the system refuses them: there llmrt falls back to
// Landlock and seccomp, which leave the host's sockets, terminals and
// hopping processes within reach (it says so once).
func needNamespaces(t *testing.T) {
	t.Helper()
	if err := ossandbox.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands: %v", err)
	}
	if err := ossandbox.NamespacesRefused(); err != nil {
		t.Skipf("confined commands cannot run in namespaces here, so llmrt falls back to Landlock and seccomp only: %v", err)
	}
}

// TestNsboxHostSocketsAndTerminals: a confined command reaches neither a
// tmux server of the host (its socket in a directory outside the
// workspace) — not with send-keys to its pane's shell, not with run-shell
// — nor the terminal of that pane (/dev/pts/N).
func TestNsboxHostSocketsAndTerminals(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	sb := newSandbox(t)
	outside := t.TempDir()
	sock := filepath.Join(outside, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tmux("-f", "/dev/null", "new-session", "-d", "-s", "host", "-x", "80", "-y", "20", "sh")
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	pane := tmux("display-message", "-p", "-t", "host", "#{pane_tty}")
	keys, shell := filepath.Join(outside, "by-send-keys"), filepath.Join(outside, "by-run-shell")
	srv := fake(t, fakellm.OpenAI,
		shellTurn(fmt.Sprintf("tmux -S %s send-keys -t host 'touch %s' Enter", sock, keys)),
		shellTurn(fmt.Sprintf("tmux -S %s run-shell 'touch %s'", sock, shell)),
		shellTurn(fmt.Sprintf(`echo PANE"-"WRITTEN > %s && echo TERMINAL"-"OPEN`, pane)),
		finalAnswer("done"))
	sandboxRun(t, sb, srv, "--permission", "auto", "-p", "try").want(t, 0)
	// send-keys makes the pane's shell run the line a moment later.
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(keys); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, f := range []string{keys, shell} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("the confined command reached the host's tmux server: %s was made", filepath.Base(f))
		}
	}
	if scr := tmux("capture-pane", "-p", "-t", "host"); strings.Contains(scr, "PANE-WRITTEN") {
		t.Errorf("the confined command wrote to the host's terminal %s:\n%s", pane, scr)
	}
	if body := toolResults(lastRequestText(t, srv)); strings.Contains(body, "TERMINAL-OPEN") {
		t.Errorf("the confined command opened %s: %s", pane, body)
	}
}

// hopperIn puts a copy of the hopper in dir, the workspace: a confined
// command sees the host's temporary directory, where the hopper is built,
// private and empty.
func hopperIn(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(hopperBuilt(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "hopper")
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// hopperBuilt builds the hopper once, into the directory of the binaries
// under test.
func hopperBuilt(t *testing.T) string {
	t.Helper()
	return hopper.Build(t, filepath.Dir(binary))
}

// hopping reports whether the hopper writing file still runs: a process
// with file on its command line, or a count that still grows.
func hopping(file string) bool {
	before, _ := os.ReadFile(file)
	for range 10 {
		if len(running(file)) > 0 {
			return true
		}
		time.Sleep(30 * time.Millisecond)
	}
	after, _ := os.ReadFile(file)
	return string(before) != string(after)
}

// stopHopper kills what is left of the hopper writing file, through its
// session's process group, which stays whatever pid it hops to; a hopper
// that outlived llmrt would otherwise take the machine's processors.
func stopHopper(file string) {
	b, _ := os.ReadFile(file)
	var sid int
	if f := strings.Fields(string(b)); len(f) > 0 {
		sid, _ = strconv.Atoi(strings.TrimLeft(f[0], "0"))
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if sid > 1 {
			syscall.Kill(-sid, syscall.SIGKILL)
		}
		pids := running(file)
		if len(pids) == 0 {
			return
		}
		killAll(pids)
	}
}

// TestNsboxHopperEndsWithTheCall: a process that forks every 200 µs,
// lets its parent exit and leaves the call's process group survives
// neither the call that started it in the background nor llmrt killed
// while it runs in the foreground.
func TestNsboxHopperEndsWithTheCall(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	hopperBuilt(t)
	for name, cred := range users(t) {
		t.Run(name+", the call returns", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			openTo(t, cred, sb.home, sb.work)
			hop := hopperIn(t, sb.work)
			count := filepath.Join(sb.work, "hops-"+uniqueMark())
			t.Cleanup(func() { stopHopper(count) })
			srv := fake(t, fakellm.OpenAI,
				shellTurn(fmt.Sprintf("%s %s & sleep 0.5; cat %s", hop, count, count)),
				finalAnswer("done"))
			runAs(t, sb, cred, srv, "--permission", "auto", "-p", "hop").want(t, 0)
			if b, _ := os.ReadFile(count); len(b) == 0 {
				t.Fatalf("the hopper did not run: %s", toolResults(lastRequestText(t, srv)))
			}
			if hopping(count) {
				t.Error("the hopper outlived the call and llmrt")
			}
		})
		t.Run(name+", llmrt is killed", func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			openTo(t, cred, sb.home, sb.work)
			hop := hopperIn(t, sb.work)
			count := filepath.Join(sb.work, "hops-"+uniqueMark())
			t.Cleanup(func() { stopHopper(count) })
			srv := fake(t, fakellm.OpenAI, shellTurn(fmt.Sprintf("%s %s; sleep 60", hop, count)), finalAnswer("done"))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := sb.command(ctx, cli{
				args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "--permission", "auto", "-p", "hop"},
				env:  map[string]string{"OPENAI_API_KEY": "sk-test", "TMPDIR": sb.home},
			})
			cmd.SysProcAttr.Credential = cred
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			hopper.Wait(t, count)
			cmd.Process.Kill() // llmrt alone, not its group
			cmd.Wait()
			time.Sleep(300 * time.Millisecond)
			if hopping(count) {
				t.Error("the hopper outlived llmrt, killed while the call ran")
			}
		})
	}
}

// TestNsboxKeepsLlmrtsFiles: a confined command can change none of the
// files that configure llmrt or run code later (.llmrt/config.json,
// .mcp.json, .git/hooks), not even for the length of the call, nor move
// .llmrt away, nor read the .env.
func TestNsboxKeepsLlmrtsFiles(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	for name, cred := range users(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			const config, mcp, hook, secret = `{"sandbox": "workspace-write"}`, `{"mcpServers": {}}`, "#!/bin/sh\nexit 0\n", "dotenv-secret-value-42"
			sb.write(".llmrt/config.json", config)
			sb.write(".mcp.json", mcp)
			sb.write(".git/hooks/pre-commit", hook)
			sb.write(".env", "SOME_SECRET="+secret+"\n")
			openTo(t, cred, sb.home, sb.work, filepath.Join(sb.work, ".llmrt"), filepath.Join(sb.work, ".git", "hooks"))
			for _, f := range []string{".llmrt/config.json", ".mcp.json", ".git/hooks/pre-commit", ".env"} {
				os.Chmod(filepath.Join(sb.work, f), 0o666) // the file mode lets every user write it
			}
			srv := fake(t, fakellm.OpenAI,
				shellTurn(`echo '{"sandbox": "off"}' > .llmrt/config.json && echo CONFIG"-"WRITTEN; `+
					`echo '{"mcpServers": {"x": {"command": "sh"}}}' > .mcp.json && echo MCP"-"WRITTEN; `+
					`echo 'touch pwned' >> .git/hooks/pre-commit && echo HOOK"-"WRITTEN; `+
					`echo 'touch pwned' > .git/hooks/post-checkout && echo HOOK"-"ADDED; `+
					`mv .llmrt .llmrt-old && echo LLMRT"-"MOVED; cat .env; true`),
				finalAnswer("done"))
			runAs(t, sb, cred, srv, "--permission", "auto", "-p", "loosen it").want(t, 0)
			body := toolResults(lastRequestText(t, srv))
			for _, done := range []string{"CONFIG-WRITTEN", "MCP-WRITTEN", "HOOK-WRITTEN", "HOOK-ADDED", "LLMRT-MOVED", secret} {
				if strings.Contains(body, done) {
					t.Errorf("the confined command could: %s\n%s", done, body)
				}
			}
			for f, want := range map[string]string{".llmrt/config.json": config, ".mcp.json": mcp, ".git/hooks/pre-commit": hook} {
				if got, err := os.ReadFile(filepath.Join(sb.work, f)); err != nil || string(got) != want {
					t.Errorf("%s: got %q (%v), want it unchanged", f, got, err)
				}
			}
			for _, f := range []string{".git/hooks/post-checkout", ".llmrt-old"} {
				if _, err := os.Lstat(filepath.Join(sb.work, f)); err == nil {
					t.Errorf("%s was made", f)
				}
			}
		})
	}
}

// TestNsboxKeepsASymlinkedLlmrt: a .llmrt that is a symlink to a directory
// elsewhere stays one after confined commands, its skills kept, and a
// command cannot write through it.
func TestNsboxKeepsASymlinkedLlmrt(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	sb := newSandbox(t)
	real := filepath.Join(t.TempDir(), "llmrt-dir")
	skill := filepath.Join(real, "skills", "tidy", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(real, "config.json"), []byte(`{}`), 0o644)
	os.WriteFile(skill, []byte("---\nname: tidy\ndescription: tidies\n---\nTidy up.\n"), 0o644)
	if err := os.Symlink(real, filepath.Join(sb.work, ".llmrt")); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI,
		shellTurn("echo hi"),
		shellTurn(`echo x > .llmrt/skills/tidy/SKILL.md && echo SKILL"-"WRITTEN; true`),
		finalAnswer("done"))
	sandboxRun(t, sb, srv, "--permission", "auto", "-p", "try").want(t, 0)
	if info, err := os.Lstat(filepath.Join(sb.work, ".llmrt")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlinked .llmrt was replaced: %v, %v", info.Mode(), err)
	}
	if b, err := os.ReadFile(skill); err != nil || !strings.Contains(string(b), "Tidy up.") {
		t.Errorf("the skill behind the symlink is lost or changed: %q, %v", b, err)
	}
	if body := toolResults(lastRequestText(t, srv)); strings.Contains(body, "SKILL-WRITTEN") {
		t.Errorf("a confined command wrote through the symlinked .llmrt: %s", body)
	}
}
