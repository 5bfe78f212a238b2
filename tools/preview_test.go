package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestPreviews(t *testing.T) {
	cases := []struct {
		name     string
		tool     string
		existing string // "" means no file
		args     map[string]any
		want     []string // lines the preview must hold
		not      []string
	}{
		{"new file", "write_file", "", map[string]any{"path": "n.txt", "content": "one\ntwo\n"},
			[]string{"--- /dev/null", "+++ b/n.txt", "+one", "+two"}, nil},
		{"overwrite", "write_file", "a\nb\nc\n", map[string]any{"path": "f.txt", "content": "a\nB\nc\n"},
			[]string{"--- a/f.txt", "-b", "+B", " a"}, []string{"-a"}},
		{"append", "write_file", "a\n", map[string]any{"path": "f.txt", "content": "z\n", "mode": "append"},
			[]string{"+z", " a"}, []string{"-a"}},
		{"same content", "write_file", "a\n", map[string]any{"path": "f.txt", "content": "a\n"},
			[]string{"(no change)"}, nil},
		{"edit", "edit_file", "x := 1\ny := 2\n", map[string]any{"path": "f.txt", "old_string": "y := 2", "new_string": "y := 3"},
			[]string{"-y := 2", "+y := 3", " x := 1"}, nil},
		{"edit replace_all", "edit_file", "k\nk\n", map[string]any{"path": "f.txt", "old_string": "k", "new_string": "m", "replace_all": true},
			[]string{"-k", "+m"}, nil},
		{"edit ambiguous", "edit_file", "k\nk\n", map[string]any{"path": "f.txt", "old_string": "k", "new_string": "m"},
			[]string{"occurs 2 times"}, nil},
		{"edit not found", "edit_file", "k\n", map[string]any{"path": "f.txt", "old_string": "q", "new_string": "m"},
			[]string{"not in f.txt"}, nil},
		{"edit missing file", "edit_file", "", map[string]any{"path": "f.txt", "old_string": "q", "new_string": "m"},
			[]string{"does not exist"}, nil},
		{"escape", "write_file", "", map[string]any{"path": "../x.txt", "content": "q"},
			[]string{"outside the workspace"}, []string{"+q"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, root := newTestWorkspace(t)
			if c.existing != "" {
				writeTestFile(t, root, "f.txt", c.existing)
			}
			raw, _ := json.Marshal(c.args)
			got := builtin(t, ws, Options{}, c.tool).Preview(raw)
			for _, w := range c.want {
				if !containsLine(got, w) {
					t.Errorf("preview lacks %q:\n%s", w, got)
				}
			}
			for _, n := range c.not {
				if containsLine(got, n) {
					t.Errorf("preview has %q:\n%s", n, got)
				}
			}
		})
	}
}

// TestPreviewNeverBlocks: a named pipe where a file is expected is
// described, not opened for reading (which would wait for a writer).
func TestPreviewNeverBlocks(t *testing.T) {
	ws, root := newTestWorkspace(t)
	if err := syscall.Mkfifo(filepath.Join(root, "f.txt"), 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	got := builtin(t, ws, Options{}, "write_file").Preview(json.RawMessage(`{"path":"f.txt","content":"x"}`))
	if !strings.Contains(got, "not a regular file") {
		t.Fatalf("preview of a FIFO: %q", got)
	}
}

func TestPreviewIsCut(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	big := strings.Repeat("line\n", 2*previewMaxLines)
	raw, _ := json.Marshal(map[string]any{"path": "big.txt", "content": big})
	got := builtin(t, ws, Options{}, "write_file").Preview(raw)
	if n := strings.Count(got, "\n"); n > previewMaxLines+1 || !strings.Contains(got, "more lines of diff") {
		t.Fatalf("preview of %d lines not cut: %d lines", 2*previewMaxLines, n)
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "big.txt")); err == nil {
		t.Fatal("a preview wrote the file")
	}
}

func containsLine(s, line string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, line) || strings.Contains(l, line) && strings.HasPrefix(line, "(") {
			return true
		}
		if !strings.HasPrefix(line, "+") && !strings.HasPrefix(line, "-") && !strings.HasPrefix(line, " ") && strings.Contains(l, line) {
			return true
		}
	}
	return false
}
