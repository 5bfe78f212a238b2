package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteFileModes(t *testing.T) {
	cases := []struct {
		name     string
		existing *string // nil: no file before the call
		read     bool    // read_file the file before writing
		args     map[string]any
		isError  bool
		wantMsg  string
		wantFile string // file content afterwards
	}{
		{"create new", nil, false, map[string]any{"path": "a/b/new.txt", "content": "hi\n", "mode": "create"}, false, "Created a/b/new.txt", "hi\n"},
		{"create refuses existing", ptr("old\n"), true, map[string]any{"path": "f.txt", "content": "new\n", "mode": "create"}, true, "already exists", "old\n"},
		{"overwrite read file", ptr("old\n"), true, map[string]any{"path": "f.txt", "content": "new\n", "mode": "overwrite"}, false, "Wrote f.txt", "new\n"},
		{"overwrite is the default", ptr("old\n"), true, map[string]any{"path": "f.txt", "content": "new\n"}, false, "Wrote", "new\n"},
		{"overwrite unread refused", ptr("old\n"), false, map[string]any{"path": "f.txt", "content": "new\n", "mode": "overwrite"}, true, "has not been read", "old\n"},
		{"overwrite missing creates", nil, false, map[string]any{"path": "n.txt", "content": "x", "mode": "overwrite"}, false, "Created n.txt", "x"},
		{"append", ptr("one\n"), true, map[string]any{"path": "f.txt", "content": "two\n", "mode": "append"}, false, "Appended to f.txt", "one\ntwo\n"},
		{"append unread allowed", ptr("one\n"), false, map[string]any{"path": "f.txt", "content": "two\n", "mode": "append"}, false, "Appended", "one\ntwo\n"},
		{"append creates", nil, false, map[string]any{"path": "log/x.log", "content": "l\n", "mode": "append"}, false, "Created", "l\n"},
		{"directory refused", nil, false, map[string]any{"path": ".", "content": "x"}, true, "is a directory", ""},
		{"dotdot escape", nil, false, map[string]any{"path": "../escape.txt", "content": "x"}, true, "outside the workspace", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, root := newTestWorkspace(t)
			p, _ := c.args["path"].(string)
			if c.existing != nil {
				writeTestFile(t, root, p, *c.existing)
			}
			if c.read {
				if r := call(t, builtin(t, ws, Options{}, "read_file"), map[string]any{"path": p}); r.IsError {
					t.Fatalf("read_file: %s", r.Content)
				}
			}
			res := call(t, builtin(t, ws, Options{}, "write_file"), c.args)
			if res.IsError != c.isError || !strings.Contains(res.Content, c.wantMsg) {
				t.Fatalf("write_file(%v) = %q (IsError %v), want %q (IsError %v)", c.args, res.Content, res.IsError, c.wantMsg, c.isError)
			}
			if c.wantFile != "" {
				if got := readTestFile(t, filepath.Join(root, p)); got != c.wantFile {
					t.Errorf("after write_file(%v) the file holds %q, want %q", c.args, got, c.wantFile)
				}
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestWriteFileStale(t *testing.T) {
	ws, root := newTestWorkspace(t)
	p := writeTestFile(t, root, "f.txt", "v1\n")
	read := builtin(t, ws, Options{}, "read_file")
	write := builtin(t, ws, Options{}, "write_file")
	call(t, read, map[string]any{"path": "f.txt"})

	// Someone else changes the file: a different size.
	if err := os.WriteFile(p, []byte("changed elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"overwrite", "append"} {
		res := call(t, write, map[string]any{"path": "f.txt", "content": "mine\n", "mode": mode})
		if !res.IsError || !strings.Contains(res.Content, "changed on disk") {
			t.Fatalf("write_file(mode=%s) after an outside change = %q, want a stale refusal", mode, res.Content)
		}
	}
	if got := readTestFile(t, p); got != "changed elsewhere\n" {
		t.Fatalf("refused write changed the file to %q", got)
	}
	// Re-reading makes the write allowed, and the run may keep writing.
	call(t, read, map[string]any{"path": "f.txt"})
	for i, content := range []string{"mine 1\n", "mine two\n"} {
		if res := call(t, write, map[string]any{"path": "f.txt", "content": content}); res.IsError {
			t.Fatalf("write %d after re-read refused: %s", i, res.Content)
		}
	}

	// Same size, different modification time is also a change.
	if err := os.WriteFile(p, []byte("MINE TWO\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(p, future, future); err != nil {
		t.Fatal(err)
	}
	if res := call(t, write, map[string]any{"path": "f.txt", "content": "x"}); !res.IsError {
		t.Fatalf("write after a same-size outside change succeeded: %s", res.Content)
	}
}

func TestWriteFileSymlinkEscape(t *testing.T) {
	ws, root := newTestWorkspace(t)
	outside := t.TempDir()
	target := writeTestFile(t, outside, "victim.txt", "safe\n")
	if err := os.Symlink(target, filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "new.txt"), filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	write := builtin(t, ws, Options{}, "write_file")
	for _, p := range []string{"link.txt", "out/victim.txt", "out/sub/new.txt", "dangling", filepath.Join(outside, "abs.txt")} {
		res := call(t, write, map[string]any{"path": p, "content": "pwned\n", "mode": "append"})
		if !res.IsError || !strings.Contains(res.Content, "refused") {
			t.Errorf("write_file(%s) = %q, want a refusal", p, res.Content)
		}
	}
	if got := readTestFile(t, target); got != "safe\n" {
		t.Errorf("outside file now holds %q", got)
	}
	for _, p := range []string{"new.txt", "abs.txt", "sub"} {
		if _, err := os.Lstat(filepath.Join(outside, p)); err == nil {
			t.Errorf("%s was created outside the workspace", p)
		}
	}
}

func TestCreateDirectory(t *testing.T) {
	cases := []struct {
		name    string
		args    map[string]any
		isError bool
		want    string
	}{
		{"nested by default", map[string]any{"path": "a/b/c"}, false, "Created directory a/b/c"},
		{"existing is fine", map[string]any{"path": "exists"}, false, "already exists"},
		{"not recursive, parent missing", map[string]any{"path": "x/y", "recursive": false}, true, "does not exist"},
		{"not recursive, parent there", map[string]any{"path": "exists/z", "recursive": false}, false, "Created directory exists/z"},
		{"file in the way", map[string]any{"path": "file.txt"}, true, "is a file"},
		{"escape", map[string]any{"path": "../../tmp/evil"}, true, "outside the workspace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, root := newTestWorkspace(t)
			if err := os.Mkdir(filepath.Join(root, "exists"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeTestFile(t, root, "file.txt", "x")
			res := call(t, builtin(t, ws, Options{}, "create_directory"), c.args)
			if res.IsError != c.isError || !strings.Contains(res.Content, c.want) {
				t.Fatalf("create_directory(%v) = %q (IsError %v), want %q (IsError %v)", c.args, res.Content, res.IsError, c.want, c.isError)
			}
			if !c.isError {
				if info, err := os.Stat(filepath.Join(root, c.args["path"].(string))); err != nil || !info.IsDir() {
					t.Errorf("create_directory(%v): directory missing afterwards (%v)", c.args, err)
				}
			}
		})
	}
}
