package tools

import (
	"bytes"
	"strings"
)

// byteCommonness orders bytes from the most to the least common in source
// code and prose; bytes not listed count as rarest. foldFinder searches for
// the rarest byte of its literal, so fewer candidates need checking.
const byteCommonness = " etaoinsrlcdhupmfgybw\t\n.,;:()\"=_'/-*{}[]0123456789vkxjqz<>#$!&|+?@\\%^~`"

// foldFinder finds a literal ignoring ASCII case. It scans for one byte of
// the literal in its two cases with bytes.IndexByte (SIMD-accelerated) and
// compares the whole literal only there.
type foldFinder struct {
	lit   []byte // lower-case ASCII
	rare  int    // index in lit of the byte scanned for
	lower byte
	upper byte
}

func newFoldFinder(lit string) *foldFinder {
	f := &foldFinder{lit: []byte(lit)}
	best := -1
	for i := range len(lit) {
		rank := strings.IndexByte(byteCommonness, lit[i])
		if rank < 0 {
			rank = len(byteCommonness)
		}
		if rank > best {
			best, f.rare = rank, i
		}
	}
	f.lower = lit[f.rare]
	f.upper = f.lower
	if 'a' <= f.lower && f.lower <= 'z' {
		f.upper = f.lower - 'a' + 'A'
	}
	return f
}

// foldCursor remembers, within one chunk, where the next lower- and
// upper-case candidates are (-1: none left, -2: not searched yet), so
// neither byte is searched for twice over the same stretch.
type foldCursor struct{ lo, up int }

func newFoldCursor() foldCursor { return foldCursor{lo: -2, up: -2} }

// next returns the start of the first occurrence of the literal in
// data[pos:], ignoring ASCII case, or -1.
func (f *foldFinder) next(data []byte, pos int, c *foldCursor) int {
	from := pos + f.rare
	for from < len(data) {
		if c.lo != -1 && c.lo < from {
			c.lo = indexFrom(data, from, f.lower)
		}
		if f.upper == f.lower {
			c.up = c.lo
		} else if c.up != -1 && c.up < from {
			c.up = indexFrom(data, from, f.upper)
		}
		p := c.lo
		if p < 0 || (c.up >= 0 && c.up < p) {
			p = c.up
		}
		if p < 0 {
			return -1
		}
		at := p - f.rare
		if end := at + len(f.lit); end <= len(data) && bytes.EqualFold(data[at:end], f.lit) {
			return at
		}
		from = p + 1
	}
	return -1
}

func indexFrom(b []byte, from int, c byte) int {
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return -1
}
