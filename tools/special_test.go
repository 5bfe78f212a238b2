package tools

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileToolsRefuseSpecialFiles: no file tool blocks on, or reads from,
// a named pipe, a socket or a device in the workspace; each says what the
// file is.
func TestFileToolsRefuseSpecialFiles(t *testing.T) {
	ws, root := newTestWorkspace(t)
	writeTestFile(t, root, "ok.txt", "hello\n")
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A named pipe called .gitignore must not stall a walk either.
	if err := syscall.Mkfifo(filepath.Join(root, ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	sock, err := net.Listen("unix", filepath.Join(root, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	files := map[string]string{"pipe": "named pipe", "sock": "socket"}
	// A device node in the workspace needs root to make; a symlink to one
	// outside is refused by the workspace confinement anyway.
	if err := syscall.Mknod(filepath.Join(root, "zero"), syscall.S_IFCHR|0o666, 1<<8|5); err == nil {
		files["zero"] = "character device"
	} else {
		t.Logf("no device node (%v): the device case is not tested", err)
	}
	type tc struct {
		tool string
		args map[string]any
		want string // in the result; "" means no particular text
	}
	var cases []tc
	for file, kind := range files {
		cases = append(cases,
			tc{"read_file", map[string]any{"path": file}, kind},
			tc{"edit_file", map[string]any{"path": file, "old_string": "a", "new_string": "b"}, kind},
			tc{"write_file", map[string]any{"path": file, "content": "x"}, kind},
			tc{"write_file", map[string]any{"path": file, "content": "x", "mode": "append"}, kind},
			tc{"search_files", map[string]any{"path": file, "content": "x"}, kind},
			tc{"list_files", map[string]any{"path": file}, kind},
		)
	}
	cases = append(cases,
		tc{"list_files", map[string]any{"path": "."}, ""},
		tc{"search_files", map[string]any{"content": "hello", "include_hidden": true}, ""},
		tc{"path_exists", map[string]any{"path": "pipe"}, ""},
		tc{"create_directory", map[string]any{"path": "pipe"}, "not a directory"},
	)
	for _, c := range cases {
		done := make(chan Result, 1)
		go func() {
			res, _ := callErr(context.Background(), builtin(t, ws, Options{}, c.tool), c.args)
			done <- res
		}()
		select {
		case res := <-done:
			switch {
			case c.want != "" && (!res.IsError || !strings.Contains(res.Content, c.want)):
				t.Errorf("%s(%v) = %q, want a refusal naming %q", c.tool, c.args, res.Content, c.want)
			case c.want == "" && c.tool == "search_files" && !strings.Contains(res.Content, "ok.txt"):
				t.Errorf("search over the workspace should still find ok.txt: %q", res.Content)
			case c.tool == "path_exists" && !strings.Contains(res.Content, `"type":"named pipe"`):
				t.Errorf("path_exists should say what the file is: %q", res.Content)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s(%v) blocked", c.tool, c.args)
		}
	}
}

// TestOpenAfterSwapStaysInside: a file replaced by a symlink to the outside
// between resolving and opening is not opened, for reading or writing, and
// parent directories are not created through such a link either.
func TestOpenAfterSwapStaysInside(t *testing.T) {
	ws, root := newTestWorkspace(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	writeTestFile(t, outside, "secret.txt", "top secret\n")
	p := writeTestFile(t, root, "a.txt", "inside\n")
	abs, err := ws.ResolveWrite("a.txt")
	if err != nil {
		t.Fatal(err)
	}
	// The swap a racing process would make after the check.
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, p); err != nil {
		t.Fatal(err)
	}
	if f, err := ws.OpenFile(abs, os.O_RDONLY, 0); err == nil {
		f.Close()
		t.Error("reading through a swapped-in symlink to the outside should fail")
	}
	if f, err := ws.OpenFile(abs, os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
		f.Close()
		t.Error("writing through a swapped-in symlink to the outside should fail")
	}
	if b, _ := os.ReadFile(secret); string(b) != "top secret\n" {
		t.Errorf("the outside file changed: %q", b)
	}
	dir, err := ws.ResolveWrite("sub")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := ws.MkdirAll(filepath.Join(dir, "x"), 0o755); err == nil {
		t.Error("MkdirAll through a swapped-in symlink should fail")
	}
	if err := ws.Mkdir(filepath.Join(dir, "x"), 0o755); err == nil {
		t.Error("Mkdir through a swapped-in symlink should fail")
	}
	if _, err := os.Stat(filepath.Join(outside, "x")); err == nil {
		t.Error("a directory was made outside the workspace")
	}
}

// TestOpenAfterSwapToSpecialFile: a named pipe or a device swapped in for a
// file after the tool's check neither blocks the write nor is read or
// written: what was opened is checked.
func TestOpenAfterSwapToSpecialFile(t *testing.T) {
	ws, root := newTestWorkspace(t)
	pipe := filepath.Join(root, "pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	// The tool saw no file there (prev nil); a pipe appeared since.
	go func() { done <- writeAndNote(ws, pipe, nil, replaceOverwrite, "x", true) }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("writing to a named pipe should fail")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("writing to a named pipe blocked")
	}
	if info, err := os.Lstat(pipe); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe should be left as it was: %v %v", info, err)
	}
	zero := filepath.Join(root, "zero")
	if err := syscall.Mknod(zero, syscall.S_IFCHR|0o666, 1<<8|5); err != nil {
		t.Skipf("no device node (%v)", err)
	}
	read := make(chan error, 1)
	go func() {
		_, err := readAllFrom(ws, zero) // without the check: endless
		read <- err
	}()
	select {
	case err := <-read:
		if err == nil || !strings.Contains(err.Error(), "character device") {
			t.Errorf("reading a device: got %v, want a refusal naming it", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("reading a device did not stop")
	}
}
