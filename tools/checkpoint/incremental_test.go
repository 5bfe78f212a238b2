package checkpoint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// walked is the manifest a fresh walk of root gives, the truth a
// watched store's checkpoints are held to.
func walked(t *testing.T, root string) Manifest {
	t.Helper()
	fresh := Open(Options{Dir: filepath.Join(t.TempDir(), "fresh"), Root: root, MaxFileSize: 1024})
	m, _, err := fresh.scan(context.Background(), true, false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func diffManifests(a, b Manifest) string {
	var out []string
	for k, e := range a {
		if o, ok := b[k]; !ok {
			out = append(out, "only in checkpoint: "+k)
		} else if !e.sameContent(o) || !e.sameStat(o) {
			out = append(out, fmt.Sprintf("differs: %s: %+v vs %+v", k, e, o))
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, "missing from checkpoint: "+k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestWatchedCheckpointsMatchAWalk makes a few hundred random changes of
// every kind a command can make — files written, rewritten, deleted,
// renamed, re-moded; directories made, removed, renamed and swapped
// with files; symlinks; ignored files; .gitignore edits — and after
// each checks that the checkpoint, taken from what the watcher reported,
// is exactly what a walk of the tree sees. Only the first checkpoint and
// the changes the watcher cannot follow path by path (a directory
// renamed, an ignore file edited) walk the tree.
func TestWatchedCheckpointsMatchAWalk(t *testing.T) {
	if !watching {
		t.Skip("no directory watching on " + runtime.GOOS)
	}
	root := tree(t, map[string]string{".gitignore": "*.log\nbuild/\n", "a/x.txt": "x", "a/b/y.txt": "y", "c/z.txt": "z"})
	s := newStore(t, root)
	defer s.Close()
	take(t, s, 1)
	rng := rand.New(rand.NewPCG(26, 1))
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	dirs := func() []string {
		var out []string
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() && !strings.Contains(p, "build") {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	files := func() []string {
		var out []string
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && filepath.Base(p) != ".gitignore" {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	fullWalks := 1
	for i := range 300 {
		op := rng.IntN(14)
		ds, fs := dirs(), files()
		name := fmt.Sprintf("n%d", i)
		switch {
		case op == 0 || len(fs) == 0:
			os.WriteFile(filepath.Join(pick(ds), name+".txt"), []byte(name), 0o644)
		case op == 1:
			os.WriteFile(pick(fs), []byte(fmt.Sprintf("rewritten %d", i)), 0o644)
		case op == 2:
			os.Remove(pick(fs))
		case op == 3:
			os.Rename(pick(fs), filepath.Join(pick(ds), name+".moved"))
		case op == 4:
			os.Chmod(pick(fs), 0o600+os.FileMode(rng.IntN(2))*0o100)
		case op == 5:
			d := filepath.Join(pick(ds), name, "deep")
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "f.txt"), []byte(name), 0o644)
		case op == 6:
			if d := pick(ds); d != root {
				os.RemoveAll(d)
			}
		case op == 7:
			if d := pick(ds); d != root {
				os.Rename(d, filepath.Join(filepath.Dir(d), name+"-renamed"))
				fullWalks++
			}
		case op == 8:
			os.Symlink("../elsewhere", filepath.Join(pick(ds), name+".link"))
		case op == 9:
			os.WriteFile(filepath.Join(pick(ds), name+".log"), []byte("ignored"), 0o644)
			os.MkdirAll(filepath.Join(pick(ds), "build"), 0o755)
		case op == 10:
			// A file becomes a directory of the same name.
			f := pick(fs)
			os.Remove(f)
			os.MkdirAll(filepath.Join(f, "inner"), 0o755)
		case op == 11:
			// A directory becomes a file of the same name.
			if d := pick(ds); d != root {
				os.RemoveAll(d)
				os.WriteFile(d, []byte("was a directory"), 0o644)
			}
		case op == 12:
			if d := pick(ds); d != root {
				os.Chmod(d, 0o700+os.FileMode(rng.IntN(2))*0o055)
			}
		case op == 13 && i%40 == 0:
			os.WriteFile(abs(".gitignore"), []byte(fmt.Sprintf("*.log\nbuild/\n*.moved\nn%d*\n", i-13)), 0o644)
			fullWalks++
		}
		take(t, s, 1)
		if d := diffManifests(s.last, walked(t, root)); d != "" {
			t.Fatalf("after change %d (op %d) the checkpoint is not what a walk sees:\n%s", i, op, d)
		}
	}
	t.Logf("walks %d, allowed %d", s.walks, fullWalks)
	if s.walks > fullWalks {
		t.Errorf("the store walked the tree %d times, want at most %d (the first checkpoint and the changes a watcher cannot follow)", s.walks, fullWalks)
	}
}

// TestUnchangedCheckpointDoesNotWalk: once the first checkpoint has
// walked the tree, checkpoints of an unchanged tree walk nothing.
func TestUnchangedCheckpointDoesNotWalk(t *testing.T) {
	if !watching {
		t.Skip("no directory watching on " + runtime.GOOS)
	}
	root := tree(t, map[string]string{"a/x.txt": "x", "b/y.txt": "y"})
	s := newStore(t, root)
	defer s.Close()
	first := take(t, s, 1)
	for range 5 {
		if cp := take(t, s, 1); cp.Manifest != first.Manifest {
			t.Fatalf("an unchanged tree got a new manifest")
		}
	}
	write(t, root, "a/x.txt", "changed")
	if cp := take(t, s, 2); cp.Manifest == first.Manifest {
		t.Fatal("a changed file was not seen")
	}
	if s.walks != 1 {
		t.Errorf("walks = %d, want 1", s.walks)
	}
}

// TestStoreGrowsByWhatChanged: a checkpoint after one file of a
// 2,000-file tree changed adds that file and a small delta, not a second
// copy of the whole manifest.
func TestStoreGrowsByWhatChanged(t *testing.T) {
	files := map[string]string{}
	for i := range 2000 {
		files[fmt.Sprintf("d%02d/f%04d.txt", i%40, i)] = fmt.Sprintf("file %d", i)
	}
	root := tree(t, files)
	s := newStore(t, root)
	defer s.Close()
	take(t, s, 1)
	before := dirSize(t, s.opts.Dir)
	write(t, root, "d07/f0007.txt", "changed")
	take(t, s, 2)
	grown := dirSize(t, s.opts.Dir) - before
	if grown > 4096 {
		t.Errorf("the store grew by %d bytes for one changed file, want under 4 KiB", grown)
	}
	// And the delta reads back as the whole tree.
	cps, _ := s.List()
	m, err := s.manifest(cps[len(cps)-1].Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffManifests(m, walked(t, root)); d != "" {
		t.Fatalf("the stored delta does not read back as the tree:\n%s", d)
	}
}

// TestDeltaChainIsBounded: after more changes than maxDepth the store
// writes a whole manifest again, and every checkpoint still reads back.
func TestDeltaChainIsBounded(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "0"})
	s := newStore(t, root)
	defer s.Close()
	var cps []Checkpoint
	for i := range maxDepth*2 + 3 {
		write(t, root, "a.txt", fmt.Sprint(i))
		cps = append(cps, take(t, s, i+1))
		if s.depth > maxDepth {
			t.Fatalf("depth %d over %d", s.depth, maxDepth)
		}
	}
	reopened := Open(Options{Dir: s.opts.Dir, Root: root})
	for i, cp := range cps {
		m, err := reopened.manifest(cp.Manifest)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m["a.txt"].Hash, hashOf(fmt.Sprint(i)); got != want {
			t.Fatalf("checkpoint %d reads back a.txt as %s, want %s", i, got, want)
		}
	}
}

// TestWatcherNotInherited: the commands a session runs do not get the
// store's inotify descriptor.
func TestWatcherNotInherited(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("linux only")
	}
	root := tree(t, map[string]string{"a.txt": "a"})
	s := newStore(t, root)
	defer s.Close()
	take(t, s, 1)
	out, err := exec.Command("sh", "-c", "ls -l /proc/$$/fd").CombinedOutput()
	if err != nil {
		t.Fatal(err, string(out))
	}
	if strings.Contains(string(out), "inotify") {
		t.Fatalf("a child process holds the store's inotify descriptor:\n%s", out)
	}
}

func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// TestOutOfWatches: a workspace with more directories than the kernel
// lets llmrt watch, or one that grows past that, is walked instead, and
// its checkpoints stay right.
func TestOutOfWatches(t *testing.T) {
	if !watching {
		t.Skip("no directory watching on " + runtime.GOOS)
	}
	defer func(n int) { watchLimit = n }(watchLimit)
	watchLimit = 4
	root := tree(t, map[string]string{"a/x": "x", "b/y": "y"}) // the root, a and b: 3 watches
	s := newStore(t, root)
	defer s.Close()
	take(t, s, 1)
	if s.w == nil {
		t.Fatal("three directories should be watched with room for four")
	}
	write(t, root, "c/d/z", "z") // two more directories: over the limit
	take(t, s, 1)
	if d := diffManifests(s.last, walked(t, root)); d != "" {
		t.Fatalf("after running out of watches:\n%s", d)
	}
	if s.w != nil || !s.noWatch {
		t.Fatal("out of watches, the store should stop watching")
	}
	write(t, root, "a/x", "changed")
	walks := s.walks
	take(t, s, 2)
	if s.walks != walks+1 {
		t.Errorf("without a watcher a checkpoint should walk the tree")
	}
	if d := diffManifests(s.last, walked(t, root)); d != "" {
		t.Fatalf("walking:\n%s", d)
	}

	watchLimit = 2 // fewer than the tree has from the start
	s2 := newStore(t, root)
	defer s2.Close()
	take(t, s2, 1)
	if s2.w != nil {
		t.Error("a tree with more directories than watches should not be watched")
	}
	if d := diffManifests(s2.last, walked(t, root)); d != "" {
		t.Fatalf("first checkpoint out of watches:\n%s", d)
	}
}
