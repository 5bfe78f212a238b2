package stream

import "strings"

// Text is a streamed text, kept as the pieces it came in and joined once,
// when it is read: a strings.Builder copies the whole text each time it
// doubles, into fresh memory, which for a long reply costs more than the
// parsing that produced it. Pieces of pieceMin bytes or more (what the
// adapters' coalescers pass on per read) are kept as they are; smaller
// ones are copied into blocks, so a stream of tiny deltas is not a slice
// of tiny strings. The zero value is an empty text.
type Text struct {
	pieces []string
	block  strings.Builder
	n      int
}

// pieceMin is the size from which a piece is kept rather than copied.
const pieceMin = 256

// blockSize is the capacity of a block small pieces are copied into.
const blockSize = 4 << 10

// WriteString adds s to the end of the text.
func (t *Text) WriteString(s string) {
	if s == "" {
		return
	}
	t.n += len(s)
	if len(s) >= pieceMin {
		t.endBlock()
		t.pieces = append(t.pieces, s)
		return
	}
	if t.block.Len()+len(s) > t.block.Cap() {
		t.endBlock()
		t.block.Grow(max(blockSize, len(s)))
	}
	t.block.WriteString(s)
}

// endBlock makes the block written so far a piece.
func (t *Text) endBlock() {
	if t.block.Len() > 0 {
		t.pieces = append(t.pieces, t.block.String())
		t.block = strings.Builder{}
	}
}

// Len is the length of the text in bytes.
func (t *Text) Len() int { return t.n }

// String returns the text, joined in one allocation of its length. The
// join is kept, so reading it again copies nothing.
func (t *Text) String() string {
	t.endBlock()
	switch len(t.pieces) {
	case 0:
		return ""
	case 1:
		return t.pieces[0]
	}
	s := strings.Join(t.pieces, "")
	t.pieces = append(t.pieces[:0], s)
	return s
}
