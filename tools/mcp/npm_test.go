package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/tools"
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
	return Server{Name: name, Command: filepath.Join(dir, "node_modules", ".bin", "node"), Args: append([]string{npmEntry(dir, pkg)}, args...), Timeout: 60}
}

func npmEntry(dir, pkg string) string {
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
}

// everythingHTTP starts the everything server over streamable HTTP, bound
// to 127.0.0.1 on a free port by testdata/loopback.mjs, and returns its
// URL. The server's process group is killed when the test ends.
func everythingHTTP(t *testing.T, dir string) string {
	t.Helper()
	preload, _ := filepath.Abs(filepath.Join("testdata", "loopback.mjs"))
	cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "node"), "--import", preload, npmEntry(dir, "server-everything"), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	addr := make(chan []string, 1)
	go func() { // ends when the server's stderr closes
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "llmrt-listening" {
				addr <- f[1:]
			}
		}
	}()
	select {
	case a := <-addr:
		if a[0] != "127.0.0.1" {
			t.Fatalf("the everything server listens on %s, want 127.0.0.1 only", a[0])
		}
		return "http://127.0.0.1:" + a[1] + "/mcp"
	case <-time.After(60 * time.Second):
		t.Fatal("the everything server did not start listening within 60 s")
	}
	return ""
}

// TestEverythingServer runs the reference everything server from npm over
// stdio and over streamable HTTP on 127.0.0.1: a call's answer, an image,
// roots, an elicitation put to the person, and progress.
func TestEverythingServer(t *testing.T) {
	dir := npmDir(t)
	ws := t.TempDir()
	for _, transport := range []string{"stdio", "streamable-http"} {
		t.Run(transport, func(t *testing.T) {
			sv := npmServer(dir, "everything", "server-everything", "stdio")
			if transport == "streamable-http" {
				sv = Server{Name: "everything", URL: everythingHTTP(t, dir), Timeout: 60}
			}
			src := New([]Server{sv}, ws)
			var asked []tools.AskInput
			src.SetAsk(func(_ context.Context, in tools.AskInput) (tools.Answer, error) {
				asked = append(asked, in)
				// The defaults, and a name typed where one is required.
				a := tools.Answer{Selected: map[string][]string{}, Other: map[string]string{}}
				for _, q := range in.Questions {
					if q.Options[0].ID == optDecline {
						a.Other[q.ID] = "Ada Lovelace"
						continue
					}
					a.Selected[q.ID] = []string{q.Options[0].ID}
				}
				return a, nil
			})
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			_ = src.Start(ctx)
			defer src.Close()
			if d := src.Diagnostics(); len(d) > 0 {
				t.Fatalf("diagnostics: %+v", d)
			}
			list, _ := src.Tools(ctx)
			call := func(name, args string) tools.Result {
				t.Helper()
				res, err := byName(t, list, name).Execute(ctx, json.RawMessage(args))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return res
			}
			if res := call("mcp__everything__get-sum", `{"a":2,"b":3}`); res.IsError || !strings.Contains(res.Content, "5") {
				t.Errorf("get-sum {a:2, b:3}: got %+v, want the sum 5", res)
			}
			if res := call("mcp__everything__get-tiny-image", `{}`); len(res.Parts) == 0 || res.Parts[0].MediaType != "image/png" {
				t.Errorf("get-tiny-image: got %+v, want a PNG part", res)
			}
			if res := call("mcp__everything__get-roots-list", `{}`); !strings.Contains(res.Content, ws) {
				t.Errorf("get-roots-list: got %q, want the working directory %s", res.Content, ws)
			}
			res := call("mcp__everything__trigger-elicitation-request", `{}`)
			if !strings.Contains(res.Content, "- Name: Ada Lovelace\n") || !strings.Contains(res.Content, "- Favorite Integer: 42\n") || len(asked) != 1 {
				t.Errorf("elicitation: got %q after %d forms, want the typed name and the default integer after one", res.Content, len(asked))
			}
			var mu sync.Mutex
			var steps []tools.Progress
			pctx := tools.WithProgress(ctx, func(p tools.Progress) { mu.Lock(); steps = append(steps, p); mu.Unlock() })
			if _, err := byName(t, list, "mcp__everything__trigger-long-running-operation").Execute(pctx, json.RawMessage(`{"duration":0.3,"steps":3}`)); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				mu.Lock()
				n := len(steps)
				mu.Unlock()
				if n > 0 || time.Now().After(deadline) {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(steps) == 0 || steps[len(steps)-1].Total != 3 {
				t.Errorf("long-running operation: progress %+v, want steps of 3", steps)
			}
		})
	}
}

// TestFilesystemServerOverStdio runs the reference filesystem server: a
// file inside its allowed directory is read, one outside is an isError
// result that keeps the server's text.
func TestFilesystemServerOverStdio(t *testing.T) {
	dir := npmDir(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "note.txt"), []byte("hello from the workspace"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := New([]Server{npmServer(dir, "fs", "server-filesystem", ws)}, ws)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	defer src.Close()
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	list, _ := src.Tools(ctx)
	read := byName(t, list, "mcp__fs__read_text_file")
	res, err := read.Execute(ctx, json.RawMessage(`{"path":"`+filepath.Join(ws, "note.txt")+`"}`))
	if err != nil || !strings.Contains(res.Content, "hello from the workspace") {
		t.Fatalf("read_text_file: got %+v, %v; want the file's text", res, err)
	}
	res, _ = read.Execute(ctx, json.RawMessage(`{"path":"/etc/passwd"}`))
	if !res.IsError || !strings.Contains(res.Content, "denied") {
		t.Fatalf("read outside the allowed directory: got %+v, want an isError result with the server's text", res)
	}
}
