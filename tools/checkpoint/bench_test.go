package checkpoint

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/internal/treegen"
)

// benchTree is a generated 10,000-file workspace with a first checkpoint
// taken, as a session has after its first change.
func benchTree(b *testing.B) (string, *Store) {
	b.Helper()
	root := b.TempDir()
	if err := treegen.Write(root, treegen.Spec{Files: 10_000, Ignored: 1_000, Binaries: 10, Seed: 26}); err != nil {
		b.Fatal(err)
	}
	s := Open(Options{Dir: filepath.Join(b.TempDir(), "cp"), Root: root})
	if _, err := s.Take(context.Background(), 1, PhaseBefore, "bench"); err != nil {
		b.Fatal(err)
	}
	return root, s
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
