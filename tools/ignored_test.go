package tools

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIgnoredAgreesWithTheWalk: Ignored leaves out exactly what a walk
// from the root leaves out — a file named .git (a worktree's) is kept,
// a .git or node_modules directory and what lies in them are not.
func TestIgnoredAgreesWithTheWalk(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"sub/.git", "node_modules/x/a.js", ".git/config", "keep/node_modules", "build/out.o", "a.log", "src/a.go"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte("x"), 0o644)
	}
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n*.log\n"), 0o644)
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]bool{
		"sub/.git": false, "keep/node_modules": false, "src/a.go": false,
		"node_modules": true, "node_modules/x/a.js": true, ".git/config": true, ".git": true,
		"build": true, "build/out.o": true, "a.log": true,
	} {
		info, err := os.Lstat(filepath.Join(ws.Root(), rel))
		if err != nil {
			t.Fatal(err)
		}
		if got := ws.Ignored(filepath.Join(ws.Root(), rel), info.IsDir()); got != want {
			t.Errorf("Ignored(%s) = %v, want %v", rel, got, want)
		}
	}
}
