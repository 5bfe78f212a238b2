package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ignoreTree builds a workspace exercising .gitignore rules: root rules,
// an anchored rule, a nested .gitignore with a negation, and the
// directories that are always skipped. Every file mentions "needle".
func ignoreTree(t *testing.T) (*Workspace, string) {
	t.Helper()
	ws, root := newTestWorkspace(t)
	files := map[string]string{
		".gitignore":            "*.log\nbuild/\n/secret.txt\n",
		"app.go":                "package app\n// needle here\n",
		"debug.log":             "needle in a log\n",
		"build/out.go":          "needle built\n",
		"secret.txt":            "needle secret\n",
		"sub/secret.txt":        "needle not anchored\n",
		"sub/.gitignore":        "*.tmp\n!keep.log\n",
		"sub/keep.log":          "needle kept\n",
		"sub/other.log":         "needle other\n",
		"sub/x.tmp":             "needle tmp\n",
		"other/x.tmp":           "needle tmp elsewhere\n",
		"node_modules/p/i.js":   "needle module\n",
		".git/config":           "needle git\n",
		".hidden/h.go":          "needle hidden\n",
		"bin.dat":               "needle\x00\x01binary",
		"deep/a/b/c/d/deep.txt": "needle deep\n",
	}
	for p, c := range files {
		writeTestFile(t, root, p, c)
	}
	return ws, root
}

var (
	visibleFiles = []string{"app.go", "bin.dat", "deep/a/b/c/d/deep.txt", "other/x.tmp", "sub/keep.log", "sub/secret.txt"}
	ignoredFiles = []string{"debug.log", "build/out.go", "secret.txt", "sub/other.log", "sub/x.tmp", "node_modules/p/i.js", ".git/config", ".hidden/h.go"}
)

func TestListFilesIgnore(t *testing.T) {
	ws, _ := ignoreTree(t)
	res := call(t, builtin(t, ws, Options{}, "list_files"), map[string]any{"recursive": true})
	if res.IsError {
		t.Fatal(res.Content)
	}
	lines := strings.Split(res.Content, "\n")
	has := func(p string) bool {
		for _, l := range lines {
			if l == p {
				return true
			}
		}
		return false
	}
	for _, p := range visibleFiles {
		if !has(p) {
			t.Errorf("list_files(recursive) lacks %s; got:\n%s", p, res.Content)
		}
	}
	for _, p := range ignoredFiles {
		if has(p) {
			t.Errorf("list_files(recursive) lists ignored %s", p)
		}
	}
	if !has("sub/") || !has("deep/a/") {
		t.Errorf("directories should end in /; got:\n%s", res.Content)
	}
}

func TestListFilesOptions(t *testing.T) {
	ws, root := ignoreTree(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args    map[string]any
		isError bool
		want    []string
		notWant []string
	}{
		{map[string]any{}, false, []string{"app.go\n", "sub/\n"}, []string{"sub/keep.log"}},
		{map[string]any{"recursive": true, "max_depth": 2}, false, []string{"deep/a/\n"}, []string{"deep/a/b/"}},
		{map[string]any{"recursive": true, "pattern": "*.log"}, false, []string{"sub/keep.log"}, []string{"app.go"}},
		{map[string]any{"recursive": true, "include_hidden": true}, false, []string{".hidden/h.go", ".gitignore"}, []string{".git/config"}},
		{map[string]any{"recursive": true, "max_entries": 2}, false, []string{"[showing 2 of"}, nil},
		{map[string]any{"path": "sub"}, false, []string{"sub/keep.log", "sub/secret.txt"}, []string{"sub/x.tmp"}},
		{map[string]any{"path": "../"}, true, []string{"outside the workspace"}, nil},
		{map[string]any{"path": "out"}, true, []string{"symlink"}, nil},
		{map[string]any{"path": "app.go"}, true, []string{"is a file"}, nil},
	}
	tl := builtin(t, ws, Options{}, "list_files")
	for _, c := range cases {
		res := call(t, tl, c.args)
		if res.IsError != c.isError {
			t.Errorf("list_files(%v): IsError = %v, want %v: %s", c.args, res.IsError, c.isError, res.Content)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(res.Content, w) {
				t.Errorf("list_files(%v) lacks %q; got:\n%s", c.args, w, res.Content)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(res.Content, w) {
				t.Errorf("list_files(%v) has %q, want it absent; got:\n%s", c.args, w, res.Content)
			}
		}
	}
}

func TestPathExists(t *testing.T) {
	ws, root := newTestWorkspace(t)
	outside := t.TempDir()
	writeTestFile(t, root, "f.txt", "12345")
	writeTestFile(t, outside, "o.txt", "x")
	if err := os.Symlink(filepath.Join(outside, "o.txt"), filepath.Join(root, "out.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f.txt", filepath.Join(root, "in.txt")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path    string
		isError bool
		want    string
	}{
		{"f.txt", false, `{"path":"f.txt","exists":true,"type":"file","size":5}`},
		{".", false, `"type":"directory"`},
		{"missing", false, `"exists":false`},
		{"in.txt", false, `"type":"symlink"`},
		{"out.txt", false, `"type":"symlink"`},
		{"../x", true, "outside the workspace"},
		{filepath.Join(outside, "o.txt"), true, "outside the workspace"},
	}
	tl := builtin(t, ws, Options{}, "path_exists")
	for _, c := range cases {
		res := call(t, tl, map[string]any{"path": c.path})
		if res.IsError != c.isError || !strings.Contains(res.Content, c.want) {
			t.Errorf("path_exists(%s) = %s (IsError %v), want %s (IsError %v)", c.path, res.Content, res.IsError, c.want, c.isError)
		}
	}
}
