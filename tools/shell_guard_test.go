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
// put a symlink in the way — is refused (in namespaces of its own the
// files that are there are read-only) or undone when the call returns,
// and the model told; the command's other writes stay.
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
			args, _ := json.Marshal(map[string]string{"command": c.command + "; echo done > ok.txt"})
			res, err := shell.Execute(context.Background(), args)
			if err != nil {
				t.Fatal(err)
			}
			refused := strings.Contains(res.Content, "Read-only file system") || strings.Contains(res.Content, "Device or resource busy")
			undone := strings.Contains(res.Content, c.changed) && strings.Contains(res.Content, "the change was undone")
			if !refused && !undone {
				t.Errorf("the change to %s should be refused, or undone and the model told: %s", c.changed, res.Content)
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

// TestGuardKeepsSymlinkedDirectories: a protected file reached through a
// symlinked directory (a .llmrt kept elsewhere) is as it was after a
// command that left it alone, and the symlink stays; a command that
// replaces the symlink, or the file behind it, has both put back.
func TestGuardKeepsSymlinkedDirectories(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(root, real string)
		changed bool
	}{
		{"untouched", func(root, real string) {}, false},
		{"the file behind the symlink", func(root, real string) {
			os.WriteFile(filepath.Join(real, "config.json"), []byte(`{"sandbox":"off"}`), 0o644)
		}, true},
		{"the symlink replaced by a directory", func(root, real string) {
			os.Remove(filepath.Join(root, ".llmrt"))
			writeTestFile(t, root, ".llmrt/config.json", `{"sandbox":"off"}`)
		}, true},
		{"the symlink led elsewhere", func(root, real string) {
			other := t.TempDir()
			os.WriteFile(filepath.Join(other, "config.json"), []byte(`{"sandbox":"off"}`), 0o644)
			os.Remove(filepath.Join(root, ".llmrt"))
			os.Symlink(other, filepath.Join(root, ".llmrt"))
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, real := t.TempDir(), t.TempDir()
			writeTestFile(t, real, "config.json", `{}`)
			writeTestFile(t, real, "skills/tidy/SKILL.md", "tidy")
			if err := os.Symlink(real, filepath.Join(root, ".llmrt")); err != nil {
				t.Fatal(err)
			}
			g := newGuard(root, []string{".llmrt/config.json", ".mcp.json"})
			tc.change(root, real)
			if changed := g.restore(); (len(changed) > 0) != tc.changed {
				t.Errorf("restore reported %v, want a change: %v", changed, tc.changed)
			}
			if target, err := os.Readlink(filepath.Join(root, ".llmrt")); err != nil || target != real {
				t.Errorf(".llmrt should be the symlink to %s again: %q, %v", real, target, err)
			}
			if b, _ := os.ReadFile(filepath.Join(real, "config.json")); string(b) != `{}` {
				t.Errorf("config.json is %q, want {}", b)
			}
			if b, _ := os.ReadFile(filepath.Join(real, "skills", "tidy", "SKILL.md")); string(b) != "tidy" {
				t.Errorf("the skill behind the symlink is %q", b)
			}
		})
	}
}
