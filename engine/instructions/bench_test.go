package instructions

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoad measures reading the instructions of a working directory
// four levels below its git root, with no instruction files (the cost every
// run pays) and with one per level.
func BenchmarkLoad(b *testing.B) {
	for _, files := range []int{0, 5} {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
			base := b.TempDir()
			r := filepath.Join(base, "repo")
			work := filepath.Join(r, "a", "b", "c", "d")
			mkdirs(b, filepath.Join(r, ".git"), work)
			dir := r
			for i := 0; i < files; i++ {
				writeB(b, filepath.Join(dir, AgentsFile), strings.Repeat("rule\n", 200))
				dir = filepath.Join(dir, string(rune('a'+i)))
			}
			opts := Options{WorkDir: work, ConfigHome: filepath.Join(base, "cfg")}
			b.ReportAllocs()
			for b.Loop() {
				if got := len(Load(opts).Files()); got != files {
					b.Fatalf("got %d files, want %d", got, files)
				}
			}
		})
	}
}
