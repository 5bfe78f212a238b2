package checkpoint

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/internal/treegen"
)

// benchTree is a generated 10,000-file workspace with a store whose
// first checkpoint is taken, as a session has after its first change.
// The tree and the store's directory are made once per process and
// shared by every benchmark run (each opens the store afresh, which
// carries on from its latest manifest), since generating and hashing the
// tree takes far longer than what is measured.
func benchTree(b *testing.B) (string, *Store) {
	b.Helper()
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "llmrt-checkpoint-bench-")
		if benchErr == nil {
			benchErr = treegen.Write(benchDir, treegen.Spec{Files: 10_000, Ignored: 1_000, Binaries: 10, Seed: 26})
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	root := filepath.Join(benchDir)
	s := Open(Options{Dir: root + ".store", Root: root})
	if _, err := s.Take(context.Background(), 1, PhaseBefore, "bench"); err != nil {
		b.Fatal(err)
	}
	return root, s
}

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
		os.RemoveAll(benchDir + ".store")
	}
	os.Exit(code)
}

// BenchmarkWalk is the floor under BenchmarkTake: the same walk of the
// same tree with one lstat per entry and nothing else, so the figures of
// a machine whose system calls are slow can be read against it.
func BenchmarkWalk(b *testing.B) {
	root, _ := benchTree(b)
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		err := ws.Walk(context.Background(), ws.Root(), tools.WalkOptions{Hidden: true}, func(_ string, d fs.DirEntry) error {
			_, err := d.Info()
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFind runs find(1) over the same tree, printing each entry's
// size, time, inode and mode: what the same system calls cost without
// Go, gitignore rules or hashing.
func BenchmarkFind(b *testing.B) {
	find, err := exec.LookPath("find")
	if err != nil {
		b.Skip("no find")
	}
	root, _ := benchTree(b)
	for b.Loop() {
		cmd := exec.Command(find, root, "-printf", "%s %T@ %i %m\n")
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTake measures a checkpoint of a 10,000-file tree when nothing,
// one file or 100 files changed since the previous one.
func BenchmarkTake(b *testing.B) {
	for _, changed := range []int{0, 1, 100} {
		b.Run(fmt.Sprintf("changed=%d", changed), func(b *testing.B) {
			root, s := benchTree(b)
			ctx := context.Background()
			n := 0
			for b.Loop() {
				b.StopTimer()
				for i := range changed {
					n++
					p := filepath.Join(root, fmt.Sprintf("pkg%02d/mod%02d/part%d/file%04d.go", i%20, (i/20)%25, (i/500)%4, i*7%10_000))
					// Paths with other extensions do not exist; make them.
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.WriteFile(p, []byte(fmt.Sprintf("package x // %d\n", n)), 0o644); err != nil {
						b.Fatal(err)
					}
					t := time.Now().Add(time.Duration(n) * time.Second)
					os.Chtimes(p, t, t)
				}
				b.StartTimer()
				if _, err := s.Take(ctx, 1, PhaseBefore, "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTakeWalking is a checkpoint of the unchanged tree without the
// watcher (another OS, or out of inotify watches): a walk of the whole
// tree, as the first checkpoint of a session always is.
func BenchmarkTakeWalking(b *testing.B) {
	_, s := benchTree(b)
	s.stopWatching()
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Take(ctx, 1, PhaseBefore, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
