package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSeatbeltProfile(t *testing.T) {
	t.Setenv("TMPDIR", "/private/tmp")
	p := Policy{Mode: WorkspaceWrite, Workspace: "/Users/me/proj \"x\"", Writable: []string{"/opt/cache"}}
	prof := seatbeltProfile(p, "")
	for _, want := range []string{
		"(deny file-write*)",
		`(subpath "/Users/me/proj \"x\"")`,
		`(subpath "/private/tmp")`,
		`(subpath "/opt/cache")`,
		`(literal "/dev/null")`,
		"(deny network*)",
	} {
		if !strings.Contains(prof, want) {
			t.Errorf("profile lacks %q:\n%s", want, prof)
		}
	}
	p.Network = true
	if prof := seatbeltProfile(p, ""); strings.Contains(prof, "(deny network*)") {
		t.Errorf("network allowed but the profile denies it:\n%s", prof)
	}
	ro := seatbeltProfile(Policy{Mode: ReadOnly, Workspace: "/Users/me/proj"}, "/tmp/llmrt-sandbox-1")
	if strings.Contains(ro, "/Users/me/proj") || !strings.Contains(ro, `(subpath "/tmp/llmrt-sandbox-1")`) {
		t.Errorf("read-only profile must allow only the private temp dir:\n%s", ro)
	}
}

// TestSeatbeltRealPaths: Seatbelt matches real paths (on macOS /var is a
// symlink to /private/var, where temp directories live), so every writable
// root, the private temp directory of read-only mode too, is resolved.
func TestSeatbeltRealPaths(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	real, _ = filepath.EvalSymlinks(real)
	for _, p := range []Policy{{Mode: ReadOnly}, {Mode: WorkspaceWrite, Workspace: link}} {
		prof := seatbeltProfile(p, link)
		if !strings.Contains(prof, sbplString(real)) || strings.Contains(prof, sbplString(link)) {
			t.Errorf("%s profile should name %s, not the link %s:\n%s", p.Mode, real, link, prof)
		}
	}
}

func TestExplain(t *testing.T) {
	ww := Policy{Mode: WorkspaceWrite}
	for _, tc := range []struct {
		out  string
		p    Policy
		want string
	}{
		{"sh: 1: cannot create /etc/x: Permission denied", ww, "--sandbox off"},
		{"touch: cannot touch 'x': Read-only file system", ww, "sandbox_writable"},
		{"curl: (7) Failed to connect: Network is unreachable", ww, "--sandbox-network"},
		{"ssh: Could not resolve hostname github.com: Temporary failure in name resolution", ww, "--sandbox-network"},
		{"FAIL: 3 tests failed", ww, ""},
		{"Permission denied", Policy{Mode: Off}, ""},
		{"Network is unreachable", Policy{Mode: WorkspaceWrite, Network: true}, ""},
	} {
		got := Explain(tc.out, tc.p)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("Explain(%q, %+v) = %q, want it to mention %q", tc.out, tc.p, got, tc.want)
		}
	}
}

// TestSeatbeltHides: a hidden file that exists may not be read, by its
// real path; one that does not exist gets no rule.
func TestSeatbeltHides(t *testing.T) {
	dir := t.TempDir()
	env := filepath.Join(dir, ".env")
	if err := os.WriteFile(env, []byte("K=v\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), ".env")
	if err := os.Symlink(env, link); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(env)
	prof := seatbeltProfile(Policy{Mode: WorkspaceWrite, Workspace: dir, Hidden: []string{link, filepath.Join(dir, "missing.env")}}, "")
	if want := "(deny file-read-data (literal " + sbplString(real) + "))"; !strings.Contains(prof, want) || strings.Contains(prof, "missing.env") {
		t.Errorf("profile should deny reading %s and nothing else:\n%s", real, prof)
	}
}
