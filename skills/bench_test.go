package skills

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkDiscover measures discovery over the roots of a run: with
// none of them present (the common case, which must cost next to nothing)
// and with 50 skills spread over them.
func BenchmarkDiscover(b *testing.B) {
	for _, n := range []int{0, 50} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			base := b.TempDir()
			roots := Roots(RootOptions{
				Home: filepath.Join(base, "home"), Projects: []string{filepath.Join(base, "proj")},
				Extra: []string{filepath.Join(base, "flag")},
			})
			for i := 0; i < n; i++ {
				r := roots[i%len(roots)]
				name := fmt.Sprintf("skill-%02d", i)
				writeSkill(b, r.Dir, name, skillMD(name, "Does task number "+name+" when asked.", "Step one.\nStep two.\n"), nil)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				c := Discover(roots)
				if c.Len() != n {
					b.Fatalf("got %d skills, want %d", c.Len(), n)
				}
				_ = c.Instructions()
			}
		})
	}
}
