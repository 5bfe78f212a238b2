package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// newTestWorkspace returns a workspace over a fresh temporary directory and
// that directory's real path.
func newTestWorkspace(t *testing.T) (*Workspace, string) {
	t.Helper()
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatalf("NewWorkspace: %v", err)
	}
	return ws, ws.Root()
}

// writeTestFile creates root/rel with content, making parents.
func writeTestFile(t *testing.T, root, rel, content string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// builtin returns the built-in tool called name.
func builtin(t *testing.T, ws *Workspace, opts Options, name string) Tool {
	t.Helper()
	for _, tl := range Builtins(ws, opts) {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no built-in tool %q", name)
	return Tool{}
}

// call runs a tool with args marshalled to JSON, failing on a Go error.
func call(t *testing.T, tl Tool, args any) Result {
	t.Helper()
	res, err := callErr(context.Background(), tl, args)
	if err != nil {
		t.Fatalf("%s(%v): unexpected Go error: %v", tl.Name, args, err)
	}
	return res
}

func callErr(ctx context.Context, tl Tool, args any) (Result, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return Result{}, err
	}
	return tl.Execute(ctx, raw)
}

func readTestFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
