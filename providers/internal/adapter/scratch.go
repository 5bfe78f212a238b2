package adapter

import "unsafe"

// textBlock is the size of the blocks Scratch copies delta text into.
const textBlock = 16 << 10

// Scratch is a stream reader's reusable memory: a buffer for unescaping
// strings, the block ReadText copies delta text into, and the spans a
// reader remembers from one event to the next. A stream of a hundred
// thousand one-token deltas then costs a few allocations of a block each
// instead of one per delta.
//
// A block is only ever appended to: the bytes a string was made from are
// never written again, so the strings are as immutable as Go requires. A
// string keeps its whole block alive, which is why only text that callers
// copy on goes there, not the names and ids a reply keeps.
type Scratch struct {
	buf   []byte
	block []byte
	// Spans are for the reader's own use (see Span).
	Spans [3]Span
}

// Span remembers bytes a reader checked at one place of an event, so that
// where the next event holds the same bytes it steps over them without
// checking them again: JSON read from left to right reads the same bytes
// the same way. Most members of a stream's deltas (an id, a model, an
// index) are the same in every one. A span must end where what the reader
// makes of it does not depend on what follows: after a colon, a comma or
// a string, never inside or right after a number. A value the reader read
// from the span (an index) is kept with it.
type Span struct {
	b     []byte
	index int
}

// Step steps over the span at the start of b and returns what follows it
// with the index read from it. When b does not open with the remembered
// bytes (or nothing is remembered yet), read reads them, and what it read
// is remembered for the next event; read returns what follows, the index
// (0 when it reads none) and whether it read the bytes.
func (s *Span) Step(b []byte, read func([]byte) ([]byte, int, bool)) ([]byte, int, bool) {
	if len(s.b) > 0 && len(b) >= len(s.b) && string(b[:len(s.b)]) == string(s.b) {
		return b[len(s.b):], s.index, true
	}
	rest, index, ok := read(b)
	if !ok {
		return nil, 0, false
	}
	s.b = append(s.b[:0], b[:len(b)-len(rest)]...)
	s.index = index
	return rest, index, true
}

// text returns v as a string backed by the current block.
func (s *Scratch) text(v []byte) string {
	switch {
	case len(v) == 0:
		return ""
	case len(v) > textBlock/4:
		return string(v)
	case cap(s.block)-len(s.block) < len(v):
		s.block = make([]byte, 0, textBlock)
	}
	n := len(s.block)
	s.block = append(s.block, v...)
	return unsafe.String(&s.block[n], len(v))
}
