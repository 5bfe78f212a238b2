package tools

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSearchAfterSwapStaysInside: a file or a directory that a search saw
// inside the workspace and that is swapped for a symlink to the outside
// before it is read or listed is neither read nor listed (the race of a
// process changing the tree while search_files and list_files walk it).
func TestSearchAfterSwapStaysInside(t *testing.T) {
	m, err := newMatcher("needle")
	if err != nil {
		t.Fatal(err)
	}
	for _, byName := range []bool{false, true} {
		_, root := newTestWorkspace(t)
		outside := t.TempDir()
		writeTestFile(t, outside, "a.txt", "secret needle\n")
		writeTestFile(t, root, "a.txt", "inside\n")
		writeTestFile(t, root, "sub/a.txt", "inside\n")
		b := openBeneath(root)
		defer b.close()
		sc := &scanner{m: m, b: b}
		// The swaps a racing process would make after the walk saw the
		// regular file and the directory.
		for _, p := range []string{filepath.Join(root, "a.txt"), filepath.Join(root, "sub")} {
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(filepath.Join(outside, "a.txt"), filepath.Join(root, "a.txt")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(root, "sub")); err != nil {
			t.Fatal(err)
		}
		noOpenat2.Store(byName)
		if hits := sc.scanFile(filepath.Join(root, "a.txt"), 10); len(hits) > 0 {
			t.Errorf("by name %v: a file swapped for a symlink was read: %v", byName, hits)
		}
		if byName {
			continue // by name, only the last step of a path is checked
		}
		if hits := sc.scanFile(filepath.Join(root, "sub", "a.txt"), 10); len(hits) > 0 {
			t.Errorf("a file under a directory swapped for a symlink was read: %v", hits)
		}
		if entries, err := b.readDir(filepath.Join(root, "sub")); err == nil {
			t.Errorf("a directory swapped for a symlink was listed: %v", entries)
		}
	}
	noOpenat2.Store(false)
}
