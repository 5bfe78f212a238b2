package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// npmDir returns the directory holding the pinned npm packages .ci/run
// installs (LLMRT_CI_NPM, or .ci/npm of this checkout). Without them the
// test is skipped locally, and fails in CI.
func npmDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("LLMRT_CI_NPM")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "..", ".ci", "npm")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", "node")); err != nil {
		if os.Getenv("CI") != "" || os.Getenv("LLMRT_CI_NPM") != "" {
			t.Fatalf("the pinned npm packages are missing from %s: run .ci/run (npm ci in .ci/npm)", dir)
		}
		t.Skipf("pinned npm MCP servers not installed in %s; run `npm ci` in .ci/npm to run this test", dir)
	}
	return dir
}

func npmServer(dir, name, pkg string, args ...string) Server {
	entry := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	return Server{Name: name, Command: filepath.Join(dir, "node_modules", ".bin", "node"), Args: append([]string{entry}, args...), Timeout: 60}
}

// TestEverythingAndFilesystemOverStdio runs the reference servers from npm.
func TestEverythingAndFilesystemOverStdio(t *testing.T) {
	dir := npmDir(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "note.txt"), []byte("hello from the workspace"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := New([]Server{
		npmServer(dir, "everything", "server-everything", "stdio"),
		npmServer(dir, "fs", "server-filesystem", ws),
	}, ws)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	ts, _ := src.Tools(ctx)
	res, err := byName(t, ts, "everything_get-sum").Execute(ctx, json.RawMessage(`{"a":2,"b":3}`))
	if err != nil || res.IsError || !strings.Contains(res.Content, "5") {
		t.Fatalf("get-sum: %+v %v", res, err)
	}
	res, err = byName(t, ts, "everything_get-tiny-image").Execute(ctx, json.RawMessage(`{}`))
	if err != nil || len(res.Parts) == 0 {
		t.Fatalf("tiny image: %+v %v", res, err)
	}
	res, err = byName(t, ts, "fs_read_text_file").Execute(ctx, json.RawMessage(`{"path":"`+filepath.Join(ws, "note.txt")+`"}`))
	if err != nil || !strings.Contains(res.Content, "hello from the workspace") {
		t.Fatalf("read_text_file: %+v %v", res, err)
	}
	res, _ = byName(t, ts, "fs_read_text_file").Execute(ctx, json.RawMessage(`{"path":"/etc/passwd"}`))
	if !res.IsError {
		t.Fatalf("a read outside the allowed directory should be an isError result: %+v", res)
	}
}
