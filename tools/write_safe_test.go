package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// bigText is a 100 KB text file that starts with the line "first".
func bigText() string {
	var b strings.Builder
	b.WriteString("first\n")
	for i := 0; b.Len() < 100*1024; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteString("\n")
	}
	return b.String()
}

// limitedWrite is what TestLimitedWriteChild runs: a tool call on a
// workspace under a file size limit.
type limitedWrite struct {
	Root  string         `json:"root"`
	Limit uint64         `json:"limit"`
	Read  string         `json:"read"` // read first, as a run must before it writes
	Tool  string         `json:"tool"`
	Args  map[string]any `json:"args"`
}

// underFileSizeLimit runs w in a child process whose file size limit is
// w.Limit bytes, so a write past it fails with EFBIG (Go ignores
// SIGXFSZ), and returns the call's result. The limit holds for a whole
// process: set in the test binary itself, it also failed the test
// framework's own log (testlog.txt: file too large).
func underFileSizeLimit(t *testing.T, w limitedWrite) Result {
	t.Helper()
	spec, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	// The spec goes in a file: the content to write is larger than an
	// environment variable may be.
	file := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(file, spec, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLimitedWriteChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LLMRT_LIMITED_WRITE="+file)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the limited child: %v\n%s", err, out)
	}
	i := bytes.LastIndex(out, []byte("\nRESULT "))
	if i < 0 {
		t.Fatalf("the limited child printed no result:\n%s", out)
	}
	var res Result
	if err := json.Unmarshal(bytes.SplitN(out[i+len("\nRESULT "):], []byte("\n"), 2)[0], &res); err != nil {
		t.Fatalf("the limited child's result: %v\n%s", err, out)
	}
	return res
}

// TestLimitedWriteChild is the child process of underFileSizeLimit; run
// on its own it does nothing.
func TestLimitedWriteChild(t *testing.T) {
	file := os.Getenv("LLMRT_LIMITED_WRITE")
	if file == "" {
		return
	}
	spec, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var w limitedWrite
	if err := json.Unmarshal(spec, &w); err != nil {
		t.Fatal(err)
	}
	ws, err := NewWorkspace(w.Root)
	if err != nil {
		t.Fatal(err)
	}
	call(t, builtin(t, ws, Options{}, "read_file"), map[string]any{"path": w.Read})
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: w.Limit, Max: old.Max}); err != nil {
		t.Skipf("cannot set the file size limit: %v", err)
	}
	res := call(t, builtin(t, ws, Options{}, w.Tool), w.Args)
	unix.Setrlimit(unix.RLIMIT_FSIZE, &old)
	b, _ := json.Marshal(res)
	fmt.Printf("\nRESULT %s\n", b)
}

// leftovers lists the files in dir other than want.
func leftovers(t *testing.T, dir string, want ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var extra []string
	for _, e := range entries {
		found := false
		for _, w := range want {
			found = found || e.Name() == w
		}
		if !found {
			extra = append(extra, e.Name())
		}
	}
	return extra
}

// TestWritesKeepTheOriginalOnFailure: a write or an edit that fails
// halfway (here past the file size limit, as on a full disk) leaves the
// original file as it was and no temporary file behind.
func TestWritesKeepTheOriginalOnFailure(t *testing.T) {
	original := bigText()
	bigger := original + original
	for _, tc := range []struct {
		name  string
		limit uint64 // the file size limit, under what the write needs
		tool  string
		args  map[string]any
	}{
		{"overwrite", 50 * 1024, "write_file", map[string]any{"path": "big.txt", "content": bigger}},
		{"append", 150 * 1024, "write_file", map[string]any{"path": "big.txt", "content": original, "mode": "append"}},
		{"edit", 50 * 1024, "edit_file", map[string]any{"path": "big.txt", "old_string": "first\n", "new_string": "the first line, now longer\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, root := newTestWorkspace(t)
			p := writeTestFile(t, root, "big.txt", original)
			res := underFileSizeLimit(t, limitedWrite{Root: root, Limit: tc.limit, Read: "big.txt", Tool: tc.tool, Args: tc.args})
			if !res.IsError {
				t.Errorf("%s under a %d-byte file size limit = %q, want an error", tc.name, tc.limit, res.Content)
			}
			if got := readTestFile(t, p); got != original {
				t.Errorf("%s: the original now holds %d bytes, want its %d bytes unchanged", tc.name, len(got), len(original))
			}
			if extra := leftovers(t, root, "big.txt"); len(extra) > 0 {
				t.Errorf("%s: left %v behind", tc.name, extra)
			}
		})
	}
}

// TestWritesRefuseHardLinks: a file with a second hard link (here to a
// file outside the workspace) is read with a note but never written or
// edited through.
func TestWritesRefuseHardLinks(t *testing.T) {
	ws, root := newTestWorkspace(t)
	outside := writeTestFile(t, t.TempDir(), "secret.txt", "outside\n")
	if err := os.Link(outside, filepath.Join(root, "linked.txt")); err != nil {
		t.Skipf("cannot make a hard link across the temporary directories: %v", err)
	}
	read := call(t, builtin(t, ws, Options{}, "read_file"), map[string]any{"path": "linked.txt"})
	if read.IsError || !strings.Contains(read.Content, "outside") || !strings.Contains(read.Content, "2 hard links") {
		t.Errorf("read_file of a hard-linked file = %q, want its text and a note on its links", read.Content)
	}
	for _, args := range []map[string]any{
		{"path": "linked.txt", "content": "pwned\n"},
		{"path": "linked.txt", "content": "pwned\n", "mode": "append"},
	} {
		if r := call(t, builtin(t, ws, Options{}, "write_file"), args); !r.IsError || !strings.Contains(r.Content, "hard link") {
			t.Errorf("write_file(%v) = %q, want a refusal naming the hard links", args, r.Content)
		}
	}
	edit := map[string]any{"path": "linked.txt", "old_string": "outside", "new_string": "pwned"}
	if r := call(t, builtin(t, ws, Options{}, "edit_file"), edit); !r.IsError || !strings.Contains(r.Content, "hard link") {
		t.Errorf("edit_file = %q, want a refusal naming the hard links", r.Content)
	}
	if got := readTestFile(t, outside); got != "outside\n" {
		t.Errorf("the file outside now holds %q", got)
	}
}

// TestWritesKeepModeAndOwner: replacing a file keeps its permission bits
// and, where the process may set them, its owner and group.
func TestWritesKeepModeAndOwner(t *testing.T) {
	ws, root := newTestWorkspace(t)
	p := writeTestFile(t, root, "run.sh", "#!/bin/sh\necho one\n")
	if err := os.Chmod(p, 0o751); err != nil {
		t.Fatal(err)
	}
	owned := os.Geteuid() == 0
	if owned {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	call(t, builtin(t, ws, Options{}, "read_file"), map[string]any{"path": "run.sh"})
	if r := call(t, builtin(t, ws, Options{}, "write_file"), map[string]any{"path": "run.sh", "content": "#!/bin/sh\necho two\n"}); r.IsError {
		t.Fatalf("write_file: %s", r.Content)
	}
	if r := call(t, builtin(t, ws, Options{}, "edit_file"), map[string]any{"path": "run.sh", "old_string": "two", "new_string": "three"}); r.IsError {
		t.Fatalf("edit_file: %s", r.Content)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o751 {
		t.Errorf("mode after the write: got %v, want -rwxr-x--x", info.Mode().Perm())
	}
	if st := info.Sys().(*syscall.Stat_t); owned && (st.Uid != 65534 || st.Gid != 65534) {
		t.Errorf("owner after the write: got %d:%d, want 65534:65534", st.Uid, st.Gid)
	}
	if got := readTestFile(t, p); got != "#!/bin/sh\necho three\n" {
		t.Errorf("the file holds %q", got)
	}
	if extra := leftovers(t, root, "run.sh"); len(extra) > 0 {
		t.Errorf("left %v behind", extra)
	}
}

// TestWritesThroughASymlinkInside: a symlink to a file inside the
// workspace is written through to its target and stays a symlink.
func TestWritesThroughASymlinkInside(t *testing.T) {
	ws, root := newTestWorkspace(t)
	target := writeTestFile(t, root, "real.txt", "one\n")
	link := filepath.Join(root, "alias.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	call(t, builtin(t, ws, Options{}, "read_file"), map[string]any{"path": "alias.txt"})
	if r := call(t, builtin(t, ws, Options{}, "write_file"), map[string]any{"path": "alias.txt", "content": "two\n"}); r.IsError {
		t.Fatalf("write_file: %s", r.Content)
	}
	if got := readTestFile(t, target); got != "two\n" {
		t.Errorf("the target holds %q, want %q", got, "two\n")
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link should still be a symlink: %v %v", info, err)
	}
}

// TestWritesRespectAReadOnlyFile: a file whose mode forbids writing is
// not replaced, although its directory would allow the rename.
func TestWritesRespectAReadOnlyFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file")
	}
	ws, root := newTestWorkspace(t)
	p := writeTestFile(t, root, "ro.txt", "keep\n")
	if err := os.Chmod(p, 0o444); err != nil {
		t.Fatal(err)
	}
	call(t, builtin(t, ws, Options{}, "read_file"), map[string]any{"path": "ro.txt"})
	if r := call(t, builtin(t, ws, Options{}, "write_file"), map[string]any{"path": "ro.txt", "content": "new\n"}); !r.IsError || !strings.Contains(r.Content, "permission denied") {
		t.Errorf("write_file of a read-only file = %q, want permission denied", r.Content)
	}
	if got := readTestFile(t, p); got != "keep\n" {
		t.Errorf("the read-only file now holds %q", got)
	}
}
