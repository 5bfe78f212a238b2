package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/tools/sandbox"
)

// TestConfinedCommandsCannotChangeProtectedFiles: whatever a confined
// command does to a protected file — edit it, create it, remove it, or
// put a symlink in the way — is undone when the call returns, the model
// is told, and the command's other writes stay.
func TestConfinedCommandsCannotChangeProtectedFiles(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	protected := []string{".llmrt/config.json", ".mcp.json", ".env"}
	cases := []struct {
		name, command string
		changed       string // the file the note names
	}{
		{"edit", `echo '{"sandbox":"off"}' > .llmrt/config.json`, ".llmrt/config.json"},
		{"create", `echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json`, ".mcp.json"},
		{"remove", `rm .env`, ".env"},
		{"symlinked directory", `mkdir ../elsewhere && echo '{"permission":"auto"}' > ../elsewhere/config.json && rm -r .llmrt && ln -s ../elsewhere .llmrt`, ".llmrt/config.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The workspace sits one level down, so ../elsewhere is in the
			// temporary directory, which confined commands may write.
			top := t.TempDir()
			root := filepath.Join(top, "ws")
			writeTestFile(t, root, ".llmrt/config.json", `{"permission":"ask"}`)
			writeTestFile(t, root, ".env", "OPENAI_BASE_URL=https://api.openai.com/v1\n")
			ws, err := NewWorkspace(root)
			if err != nil {
				t.Fatal(err)
			}
			shell := shellCmdTool(ws, ShellOptions{Sandbox: sandbox.Policy{Mode: sandbox.WorkspaceWrite}, Protected: protected})
			args, _ := json.Marshal(map[string]string{"command": c.command + " && echo done > ok.txt"})
			res, err := shell.Execute(context.Background(), args)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, c.changed) || !strings.Contains(res.Content, "the change was undone") {
				t.Errorf("the model should be told %s was put back: %s", c.changed, res.Content)
			}
			for rel, want := range map[string]string{".llmrt/config.json": `{"permission":"ask"}`, ".env": "OPENAI_BASE_URL=https://api.openai.com/v1\n"} {
				info, err := os.Lstat(filepath.Join(root, filepath.Dir(rel)))
				if err != nil || !info.IsDir() {
					t.Errorf("%s: its directory should be a plain directory again (%v)", rel, err)
				}
				if got, _ := os.ReadFile(filepath.Join(root, rel)); string(got) != want {
					t.Errorf("%s is %q, want it as it was, %q", rel, got, want)
				}
			}
			if _, err := os.Lstat(filepath.Join(root, ".mcp.json")); err == nil {
				t.Error(".mcp.json should not exist")
			}
			if got, _ := os.ReadFile(filepath.Join(root, "ok.txt")); string(got) != "done\n" {
				t.Errorf("the command's own write should stay: %q", got)
			}
		})
	}
}

// TestUnconfinedCommandsMayChangeThem: without the sandbox, nothing is
// undone (a person allowed the command, or runs in auto mode).
func TestUnconfinedCommandsMayChangeThem(t *testing.T) {
	ws, root := newTestWorkspace(t)
	writeTestFile(t, root, ".env", "A=1\n")
	shell := shellCmdTool(ws, ShellOptions{Protected: []string{".env"}})
	res, err := shell.Execute(context.Background(), json.RawMessage(`{"command":"echo A=2 > .env"}`))
	if err != nil || strings.Contains(res.Content, "undone") {
		t.Fatalf("%v %s", err, res.Content)
	}
	if got, _ := os.ReadFile(filepath.Join(root, ".env")); string(got) != "A=2\n" {
		t.Fatalf(".env is %q", got)
	}
}
