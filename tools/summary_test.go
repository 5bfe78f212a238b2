package tools

import (
	"strings"
	"testing"
)

// TestResultSummaries: each workspace tool sums its result up in a few
// words for the one line a screen gives a call, in the same terms as its
// content.
func TestResultSummaries(t *testing.T) {
	ws, root := newTestWorkspace(t)
	writeTestFile(t, root, "a.txt", "one\ntwo\nthree\n")
	writeTestFile(t, root, "b.txt", "two\n")
	writeTestFile(t, root, "empty.txt", "")
	writeTestFile(t, root, "sub/c.go", "package c\n")
	writeTestFile(t, root, "long.txt", strings.Repeat("x\n", 50))
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_file", map[string]any{"path": "a.txt"}, "3 lines"},
		{"read_file", map[string]any{"path": "long.txt", "offset": 10, "limit": 5}, "lines 10-14 of 50"},
		{"read_file", map[string]any{"path": "empty.txt"}, "empty"},
		{"search_files", map[string]any{"content": "two"}, "2 matches in 2 files"},
		{"search_files", map[string]any{"content": "three"}, "1 match in 1 file"},
		{"search_files", map[string]any{"content": "nowhere"}, "no matches"},
		{"search_files", map[string]any{"pattern": "*.go"}, "1 file"},
		{"list_files", map[string]any{"path": "sub"}, "1 entry"},
		{"list_files", map[string]any{"path": "."}, "5 entries"},
		{"write_file", map[string]any{"path": "new.txt", "content": "a\nb\n"}, "new file, 2 lines"},
		{"edit_file", map[string]any{"path": "a.txt", "old_string": "two\n", "new_string": "2\n2.5\n"}, "+2 −1"},
	} {
		if tc.tool == "edit_file" {
			call(t, builtin(t, ws, Options{}, "read_file"), map[string]any{"path": tc.args["path"]})
		}
		res := call(t, builtin(t, ws, Options{}, tc.tool), tc.args)
		if res.IsError {
			t.Errorf("%s(%v): %s", tc.tool, tc.args, res.Content)
			continue
		}
		if res.Summary != tc.want {
			t.Errorf("%s(%v) summary = %q, want %q (content %q)", tc.tool, tc.args, res.Summary, tc.want, res.Content)
		}
	}
}
