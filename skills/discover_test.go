package skills

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// allRoots lays out one directory per root of a real run and returns the
// roots Discover would get for it.
func allRoots(t *testing.T) (roots []Root, home, project, flagDir string) {
	t.Helper()
	base := t.TempDir()
	home, project, flagDir = filepath.Join(base, "home"), filepath.Join(base, "proj"), filepath.Join(base, "flag")
	roots = Roots(RootOptions{Home: home, ConfigHome: filepath.Join(home, "cfg"), Projects: []string{project}, Extra: []string{flagDir}})
	if len(roots) != 9 {
		t.Fatalf("got %d roots, want 9", len(roots))
	}
	return roots, home, project, flagDir
}

func TestDiscoverPrecedence(t *testing.T) {
	roots, _, _, _ := allRoots(t)
	// "shared" exists in every root; each root also has a skill of its own.
	for _, r := range roots {
		writeSkill(t, r.Dir, "shared", skillMD("shared", "from "+r.Scope, "body of "+r.Scope), nil)
		writeSkill(t, r.Dir, "own", skillMD("only-"+r.Scope, "own skill of "+r.Scope, ""), nil)
	}
	c := Discover(roots)
	if d := c.Diagnostics(); len(d) != 0 {
		t.Fatalf("diagnostics: got %+v, want none", d)
	}
	if got, want := c.Len(), len(roots)+1; got != want {
		t.Fatalf("skills: got %d (%v), want %d", got, c.Names(), want)
	}
	s, ok := c.Lookup("shared")
	if !ok {
		t.Fatal("shared not found")
	}
	if s.Root.Scope != ScopeFlag || s.Description != "from flag" {
		t.Errorf("shared: got root %s (%q), want the --skills-dir one", s.Root.Scope, s.Description)
	}
	if len(s.Shadowed) != len(roots)-1 {
		t.Fatalf("shadowed: got %d, want %d: %+v", len(s.Shadowed), len(roots)-1, s.Shadowed)
	}
	for i, sh := range s.Shadowed {
		if sh.Root != roots[i] || sh.Path != filepath.Join(roots[i].Dir, "shared", FileName) {
			t.Errorf("shadowed[%d]: got %+v, want %s in %+v", i, sh, FileName, roots[i])
		}
	}
	for _, r := range roots {
		if o, ok := c.Lookup("only-" + r.Scope); !ok || o.Root != r || len(o.Shadowed) != 0 {
			t.Errorf("only-%s: got %+v (found %v), want it from its root, shadowing nothing", r.Scope, o, ok)
		}
	}
}

func TestDiscoverLaterRootWinsPairwise(t *testing.T) {
	roots, _, _, _ := allRoots(t)
	for lo := 0; lo < len(roots); lo++ {
		for hi := lo + 1; hi < len(roots); hi++ {
			dir := t.TempDir()
			pair := []Root{{Dir: filepath.Join(dir, "lo"), Scope: roots[lo].Scope}, {Dir: filepath.Join(dir, "hi"), Scope: roots[hi].Scope, Precedence: 1}}
			writeSkill(t, pair[0].Dir, "s", skillMD("s", "lo", ""), nil)
			writeSkill(t, pair[1].Dir, "s", skillMD("s", "hi", ""), nil)
			s, _ := Discover(pair).Lookup("s")
			if s.Description != "hi" {
				t.Errorf("%s over %s: got %q, want the later root's skill", roots[hi].Scope, roots[lo].Scope, s.Description)
			}
		}
	}
}

// TestDiscoverHonoursPrecedence: Discover ranks roots by their Precedence,
// whatever order they come in; between roots of equal precedence the later
// one wins. Shadowed lists the replaced skills lowest precedence first.
func TestDiscoverHonoursPrecedence(t *testing.T) {
	cases := []struct {
		name     string
		prec     []int // precedence of roots a, b, c, given in that order
		want     string
		shadowed []string
	}{
		{name: "ascending", prec: []int{0, 1, 2}, want: "c", shadowed: []string{"a", "b"}},
		{name: "descending", prec: []int{2, 1, 0}, want: "a", shadowed: []string{"c", "b"}},
		{name: "highest in the middle", prec: []int{0, 5, 1}, want: "b", shadowed: []string{"a", "c"}},
		{name: "negative precedence", prec: []int{-1, -3, -2}, want: "a", shadowed: []string{"b", "c"}},
		{name: "a tie goes to the later root", prec: []int{3, 3, 1}, want: "b", shadowed: []string{"c", "a"}},
		{name: "all equal: the order given", prec: []int{0, 0, 0}, want: "c", shadowed: []string{"a", "b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var roots []Root
			for i, name := range []string{"a", "b", "c"} {
				r := Root{Dir: filepath.Join(dir, name), Scope: name, Precedence: tc.prec[i]}
				writeSkill(t, r.Dir, "s", skillMD("s", name, ""), nil)
				roots = append(roots, r)
			}
			given := append([]Root(nil), roots...)
			s, ok := Discover(roots).Lookup("s")
			if !ok {
				t.Fatal("s not found")
			}
			var shadowed []string
			for _, sh := range s.Shadowed {
				shadowed = append(shadowed, sh.Root.Scope)
			}
			if s.Description != tc.want || strings.Join(shadowed, ",") != strings.Join(tc.shadowed, ",") {
				t.Errorf("precedence %v: got %q shadowing %v, want %q shadowing %v", tc.prec, s.Description, shadowed, tc.want, tc.shadowed)
			}
			if !reflect.DeepEqual(roots, given) {
				t.Errorf("Discover reordered its argument: got %+v, want %+v", roots, given)
			}
		})
	}
}

func TestDiscoverMalformed(t *testing.T) {
	root := Root{Dir: t.TempDir(), Scope: ScopeFlag}
	good := writeSkill(t, root.Dir, "good", skillMD("good", "works", "ok"), nil)
	bad := map[string]struct{ content, want string }{
		"bad-yaml":     {"---\nname: [x\ndescription: y\n---\n", "front matter"},
		"no-name":      {"---\ndescription: y\n---\n", "no name"},
		"no-desc":      {"---\nname: nd\n---\n", "no description"},
		"unterminated": {"---\nname: u\ndescription: y\n", "not terminated"},
		"binary":       {"---\nname: b\ndescription: \xff\xfe\n---\n", "UTF-8"},
		"huge":         {"---\nname: h\ndescription: y\n---\n" + strings.Repeat("x", MaxFileBytes), "larger than"},
		"zz-dup-name":  {skillMD("good", "second definition", ""), "already defines"},
	}
	paths := map[string]string{}
	for dir, b := range bad {
		paths[writeSkill(t, root.Dir, dir, b.content, nil)] = b.want
	}
	// Not skills at all: a stray file, a directory without SKILL.md, a
	// symlink to a file. None is a diagnostic.
	writeFile(t, filepath.Join(root.Dir, "README.md"), "hello")
	writeFile(t, filepath.Join(root.Dir, "empty-dir", "notes.txt"), "x")
	if err := os.Symlink(filepath.Join(root.Dir, "README.md"), filepath.Join(root.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	// A SKILL.md that is a directory is a diagnostic.
	if err := os.MkdirAll(filepath.Join(root.Dir, "weird", FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	paths[filepath.Join(root.Dir, "weird", FileName)] = "not a regular file"

	c := Discover([]Root{root, {Dir: filepath.Join(root.Dir, "missing"), Precedence: 1}})
	if got := c.Names(); len(got) != 1 || got[0] != "good" {
		t.Errorf("skills: got %v, want [good]", got)
	}
	if s, _ := c.Lookup("good"); s.Path != good {
		t.Errorf("good: got path %s, want the first definition %s", s.Path, good)
	}
	diags := c.Diagnostics()
	if len(diags) != len(paths) {
		t.Errorf("diagnostics: got %d, want %d: %+v", len(diags), len(paths), diags)
	}
	for _, d := range diags {
		want, ok := paths[d.Source]
		if !ok {
			t.Errorf("diagnostic names %s, want one of the malformed files", d.Source)
			continue
		}
		if !strings.Contains(d.Message, want) {
			t.Errorf("diagnostic for %s: got %q, want it to contain %q", d.Source, d.Message, want)
		}
		delete(paths, d.Source)
	}
	for p := range paths {
		t.Errorf("no diagnostic names %s", p)
	}
}

func TestDiscoverRootProblems(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	writeFile(t, file, "x")
	c := Discover([]Root{{Dir: filepath.Join(dir, "absent")}, {Dir: file, Precedence: 1}})
	if c.Len() != 0 {
		t.Errorf("skills: got %v, want none", c.Names())
	}
	d := c.Diagnostics()
	if len(d) != 1 || d[0].Source != file {
		t.Errorf("diagnostics: got %+v, want one naming %s (an absent root is no diagnostic)", d, file)
	}
}

func TestDiscoverFollowsSymlinkedSkill(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	writeSkill(t, elsewhere, "real", skillMD("linked", "via a symlink", ""), nil)
	if err := os.Symlink(filepath.Join(elsewhere, "real"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	if _, ok := Discover([]Root{{Dir: root}}).Lookup("linked"); !ok {
		t.Error("a symlinked skill directory should be found")
	}
}
