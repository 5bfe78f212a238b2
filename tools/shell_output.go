package tools

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// headTail keeps the first and the last bytes written to it and counts the
// rest, so a command printing gigabytes costs a fixed amount of memory. The
// head shows how a command started, the tail how it ended (where errors and
// summaries usually are). It is safe for concurrent use: exec copies stdout
// and stderr from separate goroutines when they are different pipes.
type headTail struct {
	mu    sync.Mutex
	head  []byte // up to cap(head) bytes, filled first
	tail  []byte // ring buffer of len(tail) bytes once full
	pos   int    // next write position in tail
	full  bool   // the ring has wrapped
	total int64  // bytes written in all
}

func newHeadTail(max int) *headTail {
	headSize := max / 3
	return &headTail{head: make([]byte, 0, headSize), tail: make([]byte, max-headSize)}
}

// Write never fails: output beyond the kept bytes is counted and dropped.
func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(p)
	h.total += int64(n)
	if room := cap(h.head) - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	if len(h.tail) == 0 {
		return n, nil
	}
	if len(p) >= len(h.tail) {
		copy(h.tail, p[len(p)-len(h.tail):])
		h.pos, h.full = 0, true
		return n, nil
	}
	k := copy(h.tail[h.pos:], p)
	if k < len(p) {
		copy(h.tail, p[k:])
		h.full = true
	}
	h.pos = (h.pos + len(p)) % len(h.tail)
	if h.pos == 0 && len(p) > 0 {
		h.full = true
	}
	return n, nil
}

// Total returns how many bytes were written, kept or not.
func (h *headTail) Total() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// tailBytes returns the ring's content in write order.
func (h *headTail) tailBytes() []byte {
	if !h.full {
		return h.tail[:h.pos]
	}
	out := make([]byte, 0, len(h.tail))
	out = append(out, h.tail[h.pos:]...)
	return append(out, h.tail[:h.pos]...)
}

// String returns the kept output, with a marker saying how many bytes were
// dropped from the middle, and whether anything was dropped. Cuts fall on
// UTF-8 boundaries so the marker never splits a character.
func (h *headTail) String() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	tail := h.tailBytes()
	kept := int64(len(h.head) + len(tail))
	if kept >= h.total {
		return string(h.head) + string(tail), false
	}
	head := trimPartialRune(h.head)
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	dropped := h.total - int64(len(head)) - int64(len(tail))
	return fmt.Sprintf("%s\n[… %d bytes of output dropped here (%d in all); rerun with the output filtered (grep, head, tail) or redirected to a file to see them …]\n%s",
		head, dropped, h.total, tail), true
}

// trimPartialRune drops an incomplete UTF-8 sequence from the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}
