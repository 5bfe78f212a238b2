package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	ws, root := newTestWorkspace(t)
	outside := t.TempDir()
	writeTestFile(t, outside, "secret.txt", "top secret\n")
	writeTestFile(t, root, "small.txt", "alpha\nbeta\ngamma\n")
	writeTestFile(t, root, "ten_k.txt", numberedLines(10_000))
	writeTestFile(t, root, "huge.txt", strings.Repeat(strings.Repeat("x", 100)+"\n", 200_000))
	writeTestFile(t, root, "long.txt", strings.Repeat("y", 10_000)+"\nshort\n")
	writeTestFile(t, root, "empty.txt", "")
	writeTestFile(t, root, "bin.dat", "\x7fELF\x00\x01\x02binary")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    map[string]any
		isError bool
		want    []string
		notWant []string
	}{
		{"whole file", map[string]any{"path": "small.txt"}, false, []string{"     1\talpha", "     3\tgamma", "[lines 1-3 of 3]"}, nil},
		{"offset and limit in 10k lines", map[string]any{"path": "ten_k.txt", "offset": 5000, "limit": 10}, false,
			[]string{"  5000\tline 5000", "  5009\tline 5009", "[lines 5000-5009 of 10000; truncated: call read_file with offset=5010"}, []string{"line 5010\n"}},
		{"last lines of 10k", map[string]any{"path": "ten_k.txt", "offset": 9999}, false, []string{"line 10000", "[lines 9999-10000 of 10000]"}, nil},
		{"huge file capped", map[string]any{"path": "huge.txt"}, false, []string{"of 200000; truncated: call read_file with offset="}, nil},
		{"huge file offset", map[string]any{"path": "huge.txt", "offset": 199_999}, false, []string{"199999\t", "[lines 199999-200000 of 200000]"}, nil},
		{"long line cut", map[string]any{"path": "long.txt"}, false, []string{"[line cut at 2000 bytes]", "     2\tshort"}, nil},
		{"empty file", map[string]any{"path": "empty.txt"}, false, []string{"is empty"}, nil},
		{"offset past end", map[string]any{"path": "small.txt", "offset": 10}, true, []string{"past the end", "3 lines"}, nil},
		{"binary refused", map[string]any{"path": "bin.dat"}, true, []string{"binary file"}, nil},
		{"dotdot escape", map[string]any{"path": "../x.txt"}, true, []string{"outside the workspace"}, nil},
		{"absolute escape", map[string]any{"path": filepath.Join(outside, "secret.txt")}, true, []string{"outside the workspace"}, []string{"top secret"}},
		{"symlink escape", map[string]any{"path": "link.txt"}, true, []string{"symlink"}, []string{"top secret"}},
		{"symlinked dir escape", map[string]any{"path": "linkdir/secret.txt"}, true, []string{"symlink"}, []string{"top secret"}},
		{"missing", map[string]any{"path": "nope.txt"}, true, []string{"no such file"}, nil},
		{"directory", map[string]any{"path": "."}, true, []string{"is a directory"}, nil},
	}
	tl := builtin(t, ws, Options{}, "read_file")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, tl, c.args)
			if res.IsError != c.isError {
				t.Fatalf("read_file(%v): IsError = %v, want %v; content:\n%.500s", c.args, res.IsError, c.isError, res.Content)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Content, w) {
					t.Errorf("read_file(%v): content lacks %q; got:\n%.800s", c.args, w, tail(res.Content, 800))
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(res.Content, w) {
					t.Errorf("read_file(%v): content has %q, want it absent", c.args, w)
				}
			}
			if len(res.Content) > 32*1024 {
				t.Errorf("read_file(%v): %d bytes, want at most 32 KiB", c.args, len(res.Content))
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
