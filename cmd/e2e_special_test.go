package cmd_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestSpecialProjectFiles: a named pipe where llmrt reads a project file
// at start-up is refused with a message naming it; nothing hangs.
func TestSpecialProjectFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		code int
	}{
		{"AGENTS.md", 0}, {"CLAUDE.md", 0}, {".mcp.json", 0}, {".env", 2}, {".llmrt/config.json", 2}, {".claude/settings.json", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			p := filepath.Join(sb.work, tc.name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			srv := fake(t, fakellm.OpenAI, finalAnswer("done"))
			o := openaiRun(sb, srv, "-p", "hi")
			o.want(t, tc.code)
			if !contains(o.stderr, p) || !contains(o.stderr, "not a regular file") {
				t.Errorf("stderr should name %s and say why it was not read:\n%s", p, o.stderr)
			}
		})
	}
}
