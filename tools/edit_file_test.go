package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goSource = "package main\n\nfunc main() {\n\tfmt.Println(\"hi\")\n\tfmt.Println(\"hi\")\n}\n\nfunc helper() int {\n\treturn 1\n}\n"

func TestEditFile(t *testing.T) {
	cases := []struct {
		name     string
		file     string
		args     map[string]any
		isError  bool
		want     []string
		wantFile string // "" means unchanged
	}{
		{"unique replace", goSource, map[string]any{"path": "f.go", "old_string": "return 1", "new_string": "return 2"}, false,
			[]string{"replaced 1 occurrence (first at line 9)", "     9\t\treturn 2"}, strings.Replace(goSource, "return 1", "return 2", 1)},
		{"non-unique refused", goSource, map[string]any{"path": "f.go", "old_string": "fmt.Println(\"hi\")", "new_string": "x"}, true,
			[]string{"occurs 2 times", "lines 4, 5", "replace_all"}, ""},
		{"replace_all", goSource, map[string]any{"path": "f.go", "old_string": "fmt.Println(\"hi\")", "new_string": "log.Print(1)", "replace_all": true}, false,
			[]string{"all 2 occurrences"}, strings.ReplaceAll(goSource, "fmt.Println(\"hi\")", "log.Print(1)")},
		{"delete", goSource, map[string]any{"path": "f.go", "old_string": "\n\nfunc helper() int {\n\treturn 1\n}", "new_string": ""}, false,
			nil, "package main\n\nfunc main() {\n\tfmt.Println(\"hi\")\n\tfmt.Println(\"hi\")\n}\n"},
		{"not found", goSource, map[string]any{"path": "f.go", "old_string": "return 42", "new_string": "x"}, true,
			[]string{"not found", "Read the file again"}, ""},
		{"whitespace hint", goSource, map[string]any{"path": "f.go", "old_string": "func helper() int {\n    return 1\n}", "new_string": "x"}, true,
			[]string{"differs only in whitespace starts at line 8", "     9\t\treturn 1", "spaces vs tabs"}, ""},
		{"line number prefixes hint", goSource, map[string]any{"path": "f.go", "old_string": "     9\t\treturn 1", "new_string": "x"}, true,
			[]string{"line-number prefixes"}, ""},
		{"identical strings", goSource, map[string]any{"path": "f.go", "old_string": "return 1", "new_string": "return 1"}, true,
			[]string{"identical"}, ""},
		{"crlf file", "a\r\nb\r\nc\r\n", map[string]any{"path": "f.go", "old_string": "a\nb", "new_string": "A\nB"}, false,
			nil, "A\r\nB\r\nc\r\n"},
		{"missing file", "", map[string]any{"path": "nope.go", "old_string": "a", "new_string": "b"}, true,
			[]string{"use write_file"}, ""},
		{"binary refused", "\x00\x01\x02abc", map[string]any{"path": "f.go", "old_string": "abc", "new_string": "x"}, true,
			[]string{"binary"}, ""},
		{"escape refused", goSource, map[string]any{"path": "../f.go", "old_string": "a", "new_string": "b"}, true,
			[]string{"outside the workspace"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, root := newTestWorkspace(t)
			p := writeTestFile(t, root, "f.go", c.file)
			res := call(t, builtin(t, ws, Options{}, "edit_file"), c.args)
			if res.IsError != c.isError {
				t.Fatalf("edit_file(%q): IsError = %v, want %v; content: %s", c.args, res.IsError, c.isError, res.Content)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Content, w) {
					t.Errorf("edit_file(%q): result lacks %q; got:\n%s", c.args, w, res.Content)
				}
			}
			want := c.wantFile
			if want == "" {
				want = c.file
			}
			if got := readTestFile(t, p); got != want {
				t.Errorf("edit_file(%q): file is now %q, want %q", c.args, got, want)
			}
		})
	}
}

func TestEditFileStaleAndChained(t *testing.T) {
	ws, root := newTestWorkspace(t)
	p := writeTestFile(t, root, "f.txt", "one\ntwo\n")
	read := builtin(t, ws, Options{}, "read_file")
	edit := builtin(t, ws, Options{}, "edit_file")
	call(t, read, map[string]any{"path": "f.txt"})
	// Consecutive edits by the run itself are not stale.
	for _, e := range [][2]string{{"one", "uno"}, {"two", "dos"}} {
		if r := call(t, edit, map[string]any{"path": "f.txt", "old_string": e[0], "new_string": e[1]}); r.IsError {
			t.Fatalf("edit %v refused: %s", e, r.Content)
		}
	}
	if err := os.WriteFile(p, []byte("uno\ndos\ntres\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := call(t, edit, map[string]any{"path": "f.txt", "old_string": "uno", "new_string": "one"})
	if !r.IsError || !strings.Contains(r.Content, "changed on disk") {
		t.Fatalf("edit after an outside change = %q, want a stale refusal", r.Content)
	}
	call(t, read, map[string]any{"path": "f.txt"})
	if r := call(t, edit, map[string]any{"path": "f.txt", "old_string": "uno", "new_string": "one"}); r.IsError {
		t.Fatalf("edit after re-read refused: %s", r.Content)
	}
	if got := readTestFile(t, p); got != "one\ndos\ntres\n" {
		t.Errorf("file = %q", got)
	}
}

func TestEditFileSymlinkEscape(t *testing.T) {
	ws, root := newTestWorkspace(t)
	outside := t.TempDir()
	target := writeTestFile(t, outside, "v.txt", "keep\n")
	if err := os.Symlink(target, filepath.Join(root, "v.txt")); err != nil {
		t.Fatal(err)
	}
	r := call(t, builtin(t, ws, Options{}, "edit_file"), map[string]any{"path": "v.txt", "old_string": "keep", "new_string": "lost"})
	if !r.IsError || !strings.Contains(r.Content, "symlink") {
		t.Fatalf("edit through an outside symlink = %q, want a refusal", r.Content)
	}
	if got := readTestFile(t, target); got != "keep\n" {
		t.Errorf("outside file changed to %q", got)
	}
}
