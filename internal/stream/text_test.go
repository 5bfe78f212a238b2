package stream

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// A text reads back what was written, in pieces of every size, whether it
// is read once at the end or along the way.
func TestTextKeepsWhatWasWritten(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var got Text
		var want strings.Builder
		for i := range rng.IntN(300) {
			var s string
			switch rng.IntN(4) {
			case 0:
				s = strings.Repeat("x", rng.IntN(3*pieceMin))
			case 1:
				s = strings.Repeat("y", rng.IntN(blockSize+pieceMin))
			default:
				s = strings.Repeat(string(rune('a'+i%26)), rng.IntN(8))
			}
			got.WriteString(s)
			want.WriteString(s)
			if rng.IntN(50) == 0 {
				if got.String() != want.String() {
					t.Fatalf("round %d, after piece %d: the text read along the way differs", round, i)
				}
			}
			if got.Len() != want.Len() {
				t.Fatalf("round %d: Len is %d, want %d", round, got.Len(), want.Len())
			}
		}
		if got.String() != want.String() || got.String() != want.String() {
			t.Fatalf("round %d: the text differs from what was written (%d bytes, want %d)", round, len(got.String()), want.Len())
		}
	}
}

// Reading a long text streamed in coalesced pieces allocates the text
// once, and reading it again allocates nothing.
func TestTextJoinsOnce(t *testing.T) {
	piece := strings.Repeat("w1 ", 2000)
	allocs := testing.AllocsPerRun(20, func() {
		var x Text
		x.pieces = make([]string, 0, 100)
		for range 100 {
			x.WriteString(piece)
		}
		_ = x.String()
		_ = x.String()
	})
	if allocs != 2 { // the slice of pieces made above, and the join
		t.Errorf("%v allocations to gather and read 100 pieces, want 2", allocs)
	}
}
