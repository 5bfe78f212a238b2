package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
	ossandbox "github.com/llmrt/llmrt/tools/sandbox"
)

// sandboxRun runs llmrt against srv with a temp directory of its own, so
// the only writable places under workspace-write are the workspace and
// that directory.
func sandboxRun(t *testing.T, sb *sandbox, srv *fakellm.Server, extra ...string) outcome {
	t.Helper()
	tmp := filepath.Join(sb.home, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, extra...)
	return sb.run(cli{args: args, env: map[string]string{"OPENAI_API_KEY": "sk-test", "TMPDIR": tmp}})
}

func shellTurn(command string) scripted.Turn {
	b, _ := json.Marshal(map[string]string{"command": command})
	return toolCall("shell_cmd", string(b))
}

// toolResults returns the tool message contents of the last request srv
// received.
func lastRequestText(t *testing.T, srv *fakellm.Server) string {
	t.Helper()
	reqs := srv.Requests()
	return string(reqs[len(reqs)-1].Body)
}

func TestSandboxFromOutside(t *testing.T) {
	if err := ossandbox.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands: %v", err)
	}
	t.Run("workspace-write confines writes and the network", func(t *testing.T) {
		sb := newSandbox(t)
		outside := t.TempDir()
		inner := fake(t, fakellm.Ollama, finalAnswer("reached"))
		srv := fake(t, fakellm.OpenAI,
			shellTurn("echo ok > ok.txt"),
			shellTurn("echo no > "+filepath.Join(outside, "escape.txt")),
			shellTurn(binary+" run --provider ollama --base-url "+inner.URL+" --model m --permission auto -p hi --no-session"),
			finalAnswer("done"))
		o := sandboxRun(t, sb, srv, "--permission", "auto", "--sandbox", "workspace-write", "-o", "json", "-p", "try")
		o.want(t, 0)
		if b, err := os.ReadFile(filepath.Join(sb.work, "ok.txt")); err != nil || string(b) != "ok\n" {
			t.Errorf("workspace write: %q, %v", b, err)
		}
		if _, err := os.Stat(filepath.Join(outside, "escape.txt")); err == nil {
			t.Error("a file was written outside the workspace")
		}
		reqs := srv.Requests()
		if body := string(reqs[2].Body); !strings.Contains(body, "This may be the sandbox") || !strings.Contains(body, "--sandbox off") {
			t.Errorf("the model should hear that the sandbox refused the write: %s", body)
		}
		if body := lastRequestText(t, srv); !strings.Contains(body, "network is unreachable") || !strings.Contains(body, "--sandbox-network") {
			t.Errorf("the model should hear that the network is off: %s", body)
		}
		if n := len(inner.Requests()); n != 0 {
			t.Errorf("the loopback server got %d requests from inside the sandbox", n)
		}
		var res struct{ Sandbox string }
		if err := json.Unmarshal([]byte(o.stdout), &res); err != nil || res.Sandbox != "workspace-write" {
			t.Errorf("json output sandbox = %q (%v), want workspace-write", res.Sandbox, err)
		}
		sess, _ := os.ReadFile(sb.sessions()[0])
		if !strings.Contains(string(sess), `"sandbox":"workspace-write"`) {
			t.Errorf("the session does not record the sandbox mode: %.300s", sess)
		}
	})
	t.Run("--sandbox-network lets commands connect", func(t *testing.T) {
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
		sb := newSandbox(t)
		outside := t.TempDir()
		srv := fake(t, fakellm.OpenAI, shellTurn("echo yes > "+filepath.Join(outside, "f.txt")), finalAnswer("done"))
		sandboxRun(t, sb, srv, "--permission", "auto", "--sandbox", "off", "-p", "try").want(t, 0)
		if _, err := os.Stat(filepath.Join(outside, "f.txt")); err != nil {
			t.Errorf("--sandbox off refused the write: %v", err)
		}
	})
	t.Run("read-only refuses workspace writes", func(t *testing.T) {
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, shellTurn("echo no > ro.txt"), finalAnswer("done"))
		sandboxRun(t, sb, srv, "--permission", "auto", "--sandbox", "read-only", "-p", "try").want(t, 0)
		if _, err := os.Stat(filepath.Join(sb.work, "ro.txt")); err == nil {
			t.Error("read-only mode wrote into the workspace")
		}
	})
	t.Run("sandboxed_commands auto runs confined commands without asking", func(t *testing.T) {
		sb := newSandbox(t)
		sb.write(".llmrt/config.json", `{"sandboxed_commands": "auto"}`)
		srv := fake(t, fakellm.OpenAI, shellTurn("echo auto > auto.txt"), finalAnswer("done"))
		sandboxRun(t, sb, srv, "--permission", "ask", "-p", "try").want(t, 0)
		if _, err := os.Stat(filepath.Join(sb.work, "auto.txt")); err != nil {
			t.Errorf("the confined command did not run without approval: %v", err)
		}
		// With the sandbox off the same config must not let it through.
		sb2 := newSandbox(t)
		sb2.write(".llmrt/config.json", `{"sandboxed_commands": "auto"}`)
		srv2 := fake(t, fakellm.OpenAI, shellTurn("echo auto > auto.txt"), finalAnswer("done"))
		sandboxRun(t, sb2, srv2, "--permission", "ask", "--sandbox", "off", "-p", "try").want(t, 0)
		if _, err := os.Stat(filepath.Join(sb2.work, "auto.txt")); err == nil {
			t.Error("an unconfined command ran without approval")
		}
	})
	t.Run("llmrt tools shows the mode", func(t *testing.T) {
		sb := newSandbox(t)
		o := sb.run(cli{args: []string{"tools", "--sandbox", "read-only"}})
		o.want(t, 0)
		if !strings.Contains(o.stdout, "sandbox read-only") {
			t.Errorf("llmrt tools does not show the sandbox mode:\n%s", o.stdout)
		}
	})
}
