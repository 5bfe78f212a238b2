package instructions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/tools"
)

func write(t *testing.T, p, content string) string {
	t.Helper()
	return writeB(t, p, content)
}

func writeB(t testing.TB, p, content string) string {
	t.Helper()
	mkdirs(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mkdirs(t testing.TB, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// repo makes a git repository root/repo with a nested working directory
// repo/a/b and returns (config home, repo, work dir).
func repo(t *testing.T) (string, string, string) {
	t.Helper()
	base := t.TempDir()
	r := filepath.Join(base, "repo")
	work := filepath.Join(r, "a", "b")
	if err := os.MkdirAll(filepath.Join(r, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(base, "config"), r, work
}

func paths(s *Set) []string {
	var out []string
	for _, f := range s.Files() {
		out = append(out, f.Path)
	}
	return out
}

func TestLoadOrder(t *testing.T) {
	cfg, r, work := repo(t)
	// Above the git root: never read.
	write(t, filepath.Join(filepath.Dir(r), AgentsFile), "ABOVE THE REPO")
	user := write(t, filepath.Join(cfg, "llmrt", AgentsFile), "user rules")
	root := write(t, filepath.Join(r, AgentsFile), "root rules")
	write(t, filepath.Join(r, ClaudeFile), "root claude rules, shadowed by AGENTS.md")
	mid := write(t, filepath.Join(r, "a", ClaudeFile), "claude fallback rules")
	leaf := write(t, filepath.Join(work, AgentsFile), "leaf rules")

	s := Load(Options{WorkDir: work, ConfigHome: cfg})
	want := []string{user, root, mid, leaf}
	if got := paths(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files:\ngot  %v\nwant %v", got, want)
	}
	text := s.Instructions()
	last := -1
	for _, w := range []string{"user rules", "root rules", "claude fallback rules", "leaf rules"} {
		i := strings.Index(text, w)
		if i < 0 || i < last {
			t.Fatalf("text should hold %q after the previous file's text:\n%s", w, text)
		}
		last = i
	}
	for _, no := range []string{"ABOVE THE REPO", "shadowed by AGENTS.md"} {
		if strings.Contains(text, no) {
			t.Errorf("text should not hold %q:\n%s", no, text)
		}
	}
	if !strings.Contains(text, "## "+leaf) {
		t.Errorf("each file's text should be headed by its path:\n%s", text)
	}
	if len(s.Diagnostics()) != 0 {
		t.Errorf("diagnostics: got %+v, want none", s.Diagnostics())
	}
}

func TestLoadOutsideGit(t *testing.T) {
	base := t.TempDir()
	work := filepath.Join(base, "w")
	write(t, filepath.Join(base, AgentsFile), "parent, not a repo")
	here := write(t, filepath.Join(work, ClaudeFile), "only here")
	s := Load(Options{WorkDir: work})
	if got := paths(s); len(got) != 1 || got[0] != here {
		t.Errorf("files outside a git repository: got %v, want only %s", got, here)
	}
}

func TestLoadNothing(t *testing.T) {
	_, _, work := repo(t)
	s := Load(Options{WorkDir: work, Home: t.TempDir()})
	if s.Instructions() != "" || len(s.Files()) != 0 || len(s.Diagnostics()) != 0 {
		t.Errorf("no files: got text %q, files %v, diagnostics %v; want nothing", s.Instructions(), s.Files(), s.Diagnostics())
	}
	if ts, err := s.Tools(context.Background()); ts != nil || err != nil {
		t.Errorf("Tools: got %v, %v; want none", ts, err)
	}
}

func TestLoadCap(t *testing.T) {
	cfg, r, work := repo(t)
	root := write(t, filepath.Join(r, AgentsFile), strings.Repeat("r", 600))
	mid := write(t, filepath.Join(r, "a", AgentsFile), "é"+strings.Repeat("m", 600))
	leaf := write(t, filepath.Join(work, AgentsFile), "leaf")
	s := Load(Options{WorkDir: work, ConfigHome: cfg, MaxBytes: 1000})
	files := s.Files()
	if len(files) != 3 {
		t.Fatalf("files: got %+v, want 3", files)
	}
	if files[0].Path != root || files[0].Bytes != 600 || files[0].Truncated {
		t.Errorf("root: got %+v, want all 600 bytes", files[0])
	}
	if files[1].Path != mid || files[1].Bytes != 400 || !files[1].Truncated {
		t.Errorf("mid: got %+v, want 400 bytes, truncated", files[1])
	}
	if files[2].Path != leaf || files[2].Bytes != 0 || !files[2].Truncated {
		t.Errorf("leaf: got %+v, want left out", files[2])
	}
	diags := s.Diagnostics()
	if len(diags) != 2 || diags[0].Source != mid || diags[1].Source != leaf ||
		!strings.Contains(diags[0].Message, "truncated to 400 of 602 bytes") || !strings.Contains(diags[1].Message, "left out") {
		t.Errorf("diagnostics: got %+v, want mid truncated and leaf left out", diags)
	}
	if strings.Contains(s.Instructions(), "leaf") {
		t.Errorf("a left-out file's text must not appear")
	}
}

func TestLoadCutsOnRuneBoundary(t *testing.T) {
	_, r, work := repo(t)
	write(t, filepath.Join(r, AgentsFile), "aé") // é is 2 bytes: a cap of 2 falls inside it
	s := Load(Options{WorkDir: work, MaxBytes: 2})
	if f := s.Files(); len(f) != 1 || f[0].Bytes != 1 {
		t.Fatalf("files: got %+v, want 1 byte kept", f)
	}
	if !strings.Contains(s.Instructions(), "\n\na\n") {
		t.Errorf("text: got %q, want the cut text %q", s.Instructions(), "a")
	}
}

func TestLoadBadFiles(t *testing.T) {
	_, r, work := repo(t)
	bad := write(t, filepath.Join(r, AgentsFile), "caf\xe9")
	if err := os.MkdirAll(filepath.Join(work, AgentsFile), 0o755); err != nil {
		t.Fatal(err)
	}
	s := Load(Options{WorkDir: work})
	diags := s.Diagnostics()
	if len(diags) != 2 || diags[0].Source != bad || !strings.Contains(diags[0].Message, "UTF-8") ||
		diags[1].Source != filepath.Join(work, AgentsFile) {
		t.Errorf("diagnostics: got %+v, want the non-UTF-8 file and the directory", diags)
	}
	if s.Instructions() != "" {
		t.Errorf("text: got %q, want none", s.Instructions())
	}
}

// The engine's ToolSource, Diagnoser and Instructor, restated: a Set must
// satisfy them without importing the engine.
var (
	_ interface {
		Tools(context.Context) ([]tools.Tool, error)
	} = (*Set)(nil)
	_ interface{ Diagnostics() []tools.Diagnostic } = (*Set)(nil)
	_ interface{ Instructions() string }            = (*Set)(nil)
)
