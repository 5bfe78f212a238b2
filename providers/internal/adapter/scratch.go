package adapter

import "unsafe"

// textBlock is the size of the blocks Scratch copies delta text into.
const textBlock = 16 << 10

// Scratch is a stream reader's reusable memory: a buffer for unescaping
// strings, and the block ReadText copies delta text into. A stream of a
// hundred thousand one-token deltas then costs a few allocations of a
// block each instead of one per delta.
//
// A block is only ever appended to: the bytes a string was made from are
// never written again, so the strings are as immutable as Go requires. A
// string keeps its whole block alive, which is why only text that callers
// copy on goes there, not the names and ids a reply keeps.
type Scratch struct {
	buf   []byte
	block []byte
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
