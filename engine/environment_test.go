package engine_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// TestDetectEnvironment reads the git state from .git: a branch, a
// detached HEAD, a worktree's .git file, and no repository at all.
func TestDetectEnvironment(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "a", "b")
	os.MkdirAll(sub, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/feature/x\n"), 0o644)
	wt := filepath.Join(root, "wt")
	os.MkdirAll(wt, 0o755)
	os.MkdirAll(filepath.Join(root, "gitdirs", "wt"), 0o755)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: ../gitdirs/wt\n"), 0o644)
	os.WriteFile(filepath.Join(root, "gitdirs", "wt", "HEAD"), []byte("0123456789abcdef0123456789abcdef01234567\n"), 0o644)
	plain := filepath.Join(root, "plain")
	os.MkdirAll(plain, 0o755)

	day := time.Date(2026, 3, 4, 23, 59, 0, 0, time.UTC)
	cases := []struct {
		dir    string
		git    bool
		branch string
	}{{sub, true, "feature/x"}, {wt, true, ""}, {plain, false, ""}}
	for _, tc := range cases {
		e := engine.DetectEnvironment(tc.dir, day)
		if e.Git != tc.git || e.Branch != tc.branch || e.WorkDir != tc.dir || e.Date != "2026-03-04" || e.OS != runtime.GOOS {
			t.Errorf("%s: got %+v, want git %v branch %q", tc.dir, e, tc.git, tc.branch)
		}
	}
}

// TestEnvironmentInSystemPrompt: the environment is one short part of the
// managed system prompt, the same on every call of a run.
func TestEnvironmentInSystemPrompt(t *testing.T) {
	h := newHarness(t, call("read_file", `{"path":"none.txt"}`), say("Looking."), answer("done"))
	env := engine.Environment{Date: "2026-03-04", OS: "linux", Arch: "amd64", Shell: "/bin/sh", WorkDir: h.dir, Git: true, Branch: "main"}
	req := h.request("where am I?")
	req.Environment = &env
	h.complete(req)
	first := h.rec.request(0).Messages[0].Text()
	for _, want := range []string{"## Environment", "- Date: 2026-03-04", "- System: linux/amd64", "- Shell: /bin/sh", "- Working directory: " + h.dir, "- Git: a repository, on branch main"} {
		if !strings.Contains(first, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, first)
		}
	}
	for i := 1; i < h.rec.calls(); i++ {
		if got := h.rec.request(i).Messages[0].Text(); got != first {
			t.Errorf("call %d: the system prompt changed:\n%s\nwas:\n%s", i+1, got, first)
		}
	}
}
