package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tree writes files (path → content) under a new workspace.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		write(t, root, p, c)
	}
	return root
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, root, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func newStore(t *testing.T, root string) *Store {
	return Open(Options{Dir: filepath.Join(t.TempDir(), "cp"), Root: root, MaxFileSize: 1024})
}

func take(t *testing.T, s *Store, turn int) Checkpoint {
	t.Helper()
	cp, err := s.Take(context.Background(), turn, PhaseBefore, "test")
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

func blobs(t *testing.T, s *Store) int {
	t.Helper()
	n := 0
	filepath.WalkDir(filepath.Join(s.opts.Dir, "blobs"), func(_ string, d os.DirEntry, _ error) error {
		if d != nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

func TestTakeStoresAndDedups(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "same", "b.txt": "same", "c.txt": "other",
		".gitignore": "ignored/\n", "ignored/x.txt": "not kept", "big.bin": strings.Repeat("x", 2000)})
	s := newStore(t, root)
	cp1 := take(t, s, 1)
	m, err := s.manifest(cp1.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m["ignored/x.txt"]; ok {
		t.Errorf("ignored file in manifest: %v", m)
	}
	if !m["big.bin"].Big || m["big.bin"].Hash != "" {
		t.Errorf("big.bin: got %+v, want marked big and not hashed", m["big.bin"])
	}
	if m["a.txt"].Hash != m["b.txt"].Hash {
		t.Errorf("equal contents hashed differently")
	}
	// same, other, .gitignore, and the manifest.
	if got := blobs(t, s); got != 4 {
		t.Errorf("blobs after first checkpoint: got %d, want 4", got)
	}
	cp2 := take(t, s, 1)
	if cp2.Manifest != cp1.Manifest || blobs(t, s) != 4 {
		t.Errorf("unchanged tree: got manifest %s (was %s), %d blobs; want the same manifest, 4 blobs", cp2.Manifest, cp1.Manifest, blobs(t, s))
	}
}

func TestTakeDetectsChangeByStat(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "one"})
	s := newStore(t, root)
	cp1 := take(t, s, 1)
	// Same size, new time: must be re-hashed.
	write(t, root, "a.txt", "two")
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(root, "a.txt"), later, later)
	cp2 := take(t, s, 1)
	if cp2.Manifest == cp1.Manifest {
		t.Fatal("rewritten file not seen")
	}
	m, _ := s.manifest(cp2.Manifest)
	if want := hashOf("two"); m["a.txt"].Hash != want {
		t.Errorf("hash: got %s, want %s", m["a.txt"].Hash, want)
	}
	// A mode change alone is a change too.
	os.Chmod(filepath.Join(root, "a.txt"), 0o755)
	if cp3 := take(t, s, 2); cp3.Manifest == cp2.Manifest {
		t.Error("mode change not seen")
	}
}

func TestRestore(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "a\n", "c.txt": "c1\nc2\n", "keep.txt": "k", "sub/x.txt": "x",
		"script.sh": "#!/bin/sh\n", ".gitignore": "*.log\n"})
	os.Chmod(filepath.Join(root, "script.sh"), 0o755)
	s := newStore(t, root)
	cp := take(t, s, 1)
	keepInfo, _ := os.Stat(filepath.Join(root, "keep.txt"))

	os.Remove(filepath.Join(root, "a.txt"))
	write(t, root, "b.txt", "new\n")
	write(t, root, "c.txt", "c1\nchanged\nextra\n")
	os.MkdirAll(filepath.Join(root, "d/e"), 0o755)
	write(t, root, "d/e/f.txt", "deep")
	os.RemoveAll(filepath.Join(root, "sub"))
	os.Chmod(filepath.Join(root, "script.sh"), 0o600)
	write(t, root, "run.log", "ignored, left alone")
	take(t, s, 1) // after the change

	plan, err := s.Restore(context.Background(), cp, false, true)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, ch := range plan.Changes {
		got[ch.Path] = ch.Kind
	}
	want := map[string]string{"a.txt": Created, "b.txt": Deleted, "c.txt": Modified, "d": Deleted, "d/e": Deleted,
		"d/e/f.txt": Deleted, "sub": Created, "sub/x.txt": Created, "script.sh": Modified}
	if len(got) != len(want) {
		t.Errorf("dry run changes: got %v, want %v", got, want)
	}
	for p, k := range want {
		if got[p] != k {
			t.Errorf("%s: got %q, want %q", p, got[p], k)
		}
	}
	for _, ch := range plan.Changes {
		if ch.Path == "c.txt" && (ch.Added != 1 || ch.Removed != 2) {
			t.Errorf("c.txt diff: got +%d -%d, want +1 -2", ch.Added, ch.Removed)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err != nil {
		t.Error("dry run removed b.txt")
	}

	if _, err := s.Restore(context.Background(), cp, false, false); err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{"a.txt": "a\n", "c.txt": "c1\nc2\n", "sub/x.txt": "x", "run.log": "ignored, left alone"} {
		if g := read(t, root, p); g != c {
			t.Errorf("%s: got %q, want %q", p, g, c)
		}
	}
	for _, p := range []string{"b.txt", "d"} {
		if _, err := os.Lstat(filepath.Join(root, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: still there after restore (%v)", p, err)
		}
	}
	if info, _ := os.Stat(filepath.Join(root, "script.sh")); info.Mode().Perm() != 0o755 {
		t.Errorf("script.sh mode: got %v, want 0755", info.Mode().Perm())
	}
	if info, _ := os.Stat(filepath.Join(root, "keep.txt")); !info.ModTime().Equal(keepInfo.ModTime()) {
		t.Error("untouched keep.txt was rewritten")
	}
	// The restore ends with its own checkpoint, after which the tree
	// matches the target with nothing to do and nothing in conflict.
	list, _ := s.List()
	if last := list[len(list)-1]; last.Phase != PhaseRestore {
		t.Errorf("last checkpoint: got phase %q, want %q", last.Phase, PhaseRestore)
	}
	again, err := s.Restore(context.Background(), cp, false, true)
	if err != nil || len(again.Changes) != 0 {
		t.Errorf("restoring again: got %+v, %v; want no changes", again.Changes, err)
	}
}

func TestRestoreRefusesOutsideChanges(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "one"})
	s := newStore(t, root)
	cp := take(t, s, 1)
	write(t, root, "a.txt", "by llmrt")
	take(t, s, 1)
	write(t, root, "a.txt", "by hand, since")
	write(t, root, "new.txt", "by hand")

	// A later process sees the same records.
	s = Open(Options{Dir: s.opts.Dir})
	dry, err := s.Restore(context.Background(), cp, false, true)
	if err != nil || len(dry.Conflicts) != 2 {
		t.Errorf("dry run: got %v, %v; want the two conflicts listed and no error", dry.Conflicts, err)
	}
	plan, err := s.Restore(context.Background(), cp, false, false)
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("got %v, want ErrConflict", err)
	}
	if strings.Join(plan.Conflicts, ",") != "a.txt,new.txt" {
		t.Errorf("conflicts: got %v, want [a.txt new.txt]", plan.Conflicts)
	}
	if read(t, root, "a.txt") != "by hand, since" {
		t.Error("refused restore changed a.txt")
	}
	if _, err := s.Restore(context.Background(), cp, true, false); err != nil {
		t.Fatal(err)
	}
	if read(t, root, "a.txt") != "one" {
		t.Error("forced restore did not restore a.txt")
	}
}

func TestRestoreLeavesBigAndIgnoredAlone(t *testing.T) {
	root := tree(t, map[string]string{"big.bin": strings.Repeat("x", 2000), ".gitignore": "out/\n"})
	s := newStore(t, root)
	cp := take(t, s, 1)
	write(t, root, "big.bin", strings.Repeat("y", 3000))
	write(t, root, "made/out/gen.txt", "ignored")
	write(t, root, "made/src.txt", "tracked")
	take(t, s, 1)
	plan, err := s.Restore(context.Background(), cp, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(plan.Skipped, ",") != "big.bin" || strings.Join(plan.Kept, ",") != "made" {
		t.Errorf("got skipped %v kept %v, want [big.bin] and [made]", plan.Skipped, plan.Kept)
	}
	if read(t, root, "big.bin") != strings.Repeat("y", 3000) || read(t, root, "made/out/gen.txt") != "ignored" {
		t.Error("restore touched a big or ignored file")
	}
	if _, err := os.Stat(filepath.Join(root, "made/src.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Error("made/src.txt not removed")
	}
}

func TestPrune(t *testing.T) {
	base := t.TempDir()
	for _, name := range []string{"old", "new"} {
		s := Open(Options{Dir: filepath.Join(base, name), Root: tree(t, map[string]string{"a": "a"})})
		take(t, s, 1)
	}
	old := time.Now().Add(-40 * 24 * time.Hour)
	os.Chtimes(filepath.Join(base, "old", "checkpoints.jsonl"), old, old)
	removed, err := Prune(base, Policy{MaxAge: DefaultMaxAge}, time.Now())
	if err != nil || strings.Join(removed, ",") != "old" {
		t.Fatalf("got %v, %v; want [old]", removed, err)
	}
	if _, err := os.Stat(filepath.Join(base, "new", "checkpoints.jsonl")); err != nil {
		t.Error("recent store removed")
	}
	if entries, _ := os.ReadDir(base); len(entries) != 1 {
		t.Errorf("left in the base: %v, want only new", entries)
	}
}

// TestPruneBySize: over the size limit the stores of the sessions used
// longest ago go first, until the rest fit; the session in use, and any
// written in the last hour (another llmrt may be using it), stay.
func TestPruneBySize(t *testing.T) {
	base := t.TempDir()
	now := time.Now()
	for i, name := range []string{"a", "b", "c", "d", "busy"} {
		s := Open(Options{Dir: filepath.Join(base, name), Root: tree(t, map[string]string{"f": strings.Repeat(name[:1], 1000)})})
		take(t, s, 1)
		if name != "busy" {
			at := now.Add(-time.Duration(10-i) * 24 * time.Hour) // a oldest
			os.Chtimes(filepath.Join(base, name, "checkpoints.jsonl"), at, at)
		}
	}
	each := dirSize(t, filepath.Join(base, "c"))
	removed, err := Prune(base, Policy{MaxAge: DefaultMaxAge, MaxSize: 3*each + each/2, Keep: "a"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(removed, ","); got != "b,c" {
		t.Fatalf("removed %q, want b,c (the oldest but the one in use, until 3 stores are left)", got)
	}
}

// TestPruneFinishesAnInterruptedOne: a store moved aside by a prune that
// did not finish is removed by the next.
func TestPruneFinishesAnInterruptedOne(t *testing.T) {
	base := t.TempDir()
	os.MkdirAll(filepath.Join(base, ".pruned-x", "blobs"), 0o700)
	if _, err := Prune(base, Policy{MaxAge: DefaultMaxAge}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(base, ".pruned-x")); !os.IsNotExist(err) {
		t.Errorf("the interrupted prune's leftovers are still there: %v", err)
	}
}
