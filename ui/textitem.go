package ui

import (
	"bytes"
	"sort"
	"strings"
)

// textItem is the model's text in one model call, streamed. Its finished
// blocks are rendered as Markdown once (per width) and only the
// unfinished tail is drawn again as it grows, and of the tail only its
// last, unfinished line: a delta costs the same at the start of a long
// answer and at its end.
//
// A finished block keeps its text and where its lines start, not its
// lines: the item draws the blocks the screen shows when asked (span)
// and keeps those lines, with a margin, until the transcript releases
// them. A long session holds about its text, not every line it drew.
type textItem struct {
	split splitter
	// src is the text of the finished blocks, one after another; parts
	// are those blocks. done says the text is complete.
	src   []byte
	parts []part
	done  bool

	// For width and gen: parts[:counted] know their first line, and
	// nLines is how many lines they take.
	width, gen int
	counted    int
	nLines     int
	// drawn are the lines of parts[lo:hi], kept while on or near the
	// screen; out is the buffer span returns.
	lo, hi int
	drawn  []string
	out    []string

	// tailLines are the wrapped lines of tail[:tailUpto], the tail's
	// complete lines so far.
	tailLines []string
	tailUpto  int
	// fenceLines are the rendered lines of tail[:fenceUpto] while the
	// tail is an unclosed code fence, drawn as the code it will be.
	fenceLines []string
	fenceUpto  int
	// tail is the tail as last drawn, good while tailOK.
	tail   []string
	tailOK bool
}

// part is a finished block of a textItem. Its fields are 32-bit: an
// answer has thousands of blocks, each a few dozen bytes.
type part struct {
	end   int32 // its text is src[the previous part's end:end]
	first int32 // its first line in the item, the blank line before it included
	gap   bool  // a blank line separates it from the block before
}

func (t *textItem) add(s string) {
	t.addBlocks(t.split.add(s))
	t.tailOK = false
}

func (t *textItem) addBlocks(bs []block) {
	if len(bs) == 0 {
		return
	}
	for _, b := range bs {
		t.src = append(t.src, b.text...)
		t.parts = append(t.parts, part{end: int32(len(t.src)), gap: b.gap})
	}
	t.tailLines, t.tailUpto = t.tailLines[:0], 0
	t.fenceLines, t.fenceUpto = nil, 0
}

// finish marks the text complete: its tail becomes the last block. What
// only streaming needed goes, and the text is kept in memory of its size.
func (t *textItem) finish() {
	if t.done {
		return
	}
	t.addBlocks(t.split.flush())
	t.done, t.tailOK = true, false
	t.split = splitter{}
	t.tailLines, t.fenceLines, t.tail = nil, nil, nil
	t.src = append([]byte(nil), t.src...)
	t.parts = append([]part(nil), t.parts...)
}

// text is the Markdown of parts[k].
func (t *textItem) text(k int) string {
	start := int32(0)
	if k > 0 {
		start = t.parts[k-1].end
	}
	return string(t.src[start:t.parts[k].end])
}

// render draws parts[k], with the blank line before it when it has one.
func (t *textItem) render(l *look, width, k int) []string {
	ls := strings.Split(l.md.render(t.text(k), width), "\n")
	if t.parts[k].gap && k > 0 {
		ls = append([]string{""}, ls...)
	}
	return ls
}

// sync counts the lines of the blocks finished since the last call, or
// of all of them when the width or the look changed. A block counted
// right after the lines kept is kept too: while the answer streams, the
// screen shows its newest blocks.
func (t *textItem) sync(l *look, width int) {
	if width != t.width || l.gen != t.gen {
		t.width, t.gen = width, l.gen
		t.counted, t.nLines = 0, 0
		t.release()
		t.tailLines, t.tailUpto = t.tailLines[:0], 0
		t.fenceLines, t.fenceUpto = nil, 0
		t.tailOK = false
	}
	for ; t.counted < len(t.parts); t.counted++ {
		k := t.counted
		ls := t.render(l, width, k)
		t.parts[k].first = int32(t.nLines)
		t.nLines += len(ls)
		if k == t.hi && t.hi > t.lo {
			t.drawn = append(t.drawn, ls...)
			t.hi++
		}
	}
}

// count is the number of lines the item takes, width columns wide.
func (t *textItem) count(l *look, width int) int {
	t.sync(l, width)
	return t.nLines + len(t.tailOf(l, width))
}

// span returns the item's lines [from, to), valid until the next call.
func (t *textItem) span(l *look, width, from, to int) []string {
	t.sync(l, width)
	out := t.out[:0]
	if from < t.nLines {
		out = append(out, t.finished(l, width, from, min(to, t.nLines))...)
	}
	if to > t.nLines {
		out = append(out, t.tailOf(l, width)[max(from-t.nLines, 0):to-t.nLines]...)
	}
	t.out = out
	return out
}

// lines draws the whole item.
func (t *textItem) lines(l *look, width int) []string {
	return t.span(l, width, 0, t.count(l, width))
}

// release lets go of the lines drawn: the item is off the screen.
func (t *textItem) release() {
	t.lo, t.hi, t.drawn, t.out = 0, 0, nil, nil
}

// start is parts[k]'s first line; k may be counted, the end.
func (t *textItem) start(k int) int {
	if k == t.counted {
		return t.nLines
	}
	return int(t.parts[k].first)
}

// finished returns the lines [from, to) of the finished blocks, drawing
// the blocks they fall in unless kept. Kept are those blocks and about a
// screenful either side, so a page up or down draws a page of blocks.
func (t *textItem) finished(l *look, width, from, to int) []string {
	// The blocks [a, b) hold the lines.
	a := sort.Search(t.counted, func(k int) bool { return t.start(k) > from }) - 1
	b := sort.Search(t.counted, func(k int) bool { return t.start(k) >= to })
	pad := max(to-from, 50)
	if a < t.lo || b > t.hi || t.hi <= t.lo || len(t.drawn) > 4*pad+to-from {
		for a > 0 && t.start(a) > from-pad {
			a--
		}
		for b < t.counted && t.start(b) < to+pad {
			b++
		}
		t.keep(l, width, a, b)
	}
	base := t.start(t.lo)
	return t.drawn[from-base : to-base]
}

// keep makes drawn the lines of parts[a:b], reusing those drawn already.
func (t *textItem) keep(l *look, width, a, b int) {
	out := make([]string, 0, t.start(b)-t.start(a))
	for k := a; k < b; k++ {
		if t.lo <= k && k < t.hi {
			base := t.start(t.lo)
			out = append(out, t.drawn[t.start(k)-base:t.start(k+1)-base]...)
		} else {
			out = append(out, t.render(l, width, k)...)
		}
	}
	t.lo, t.hi, t.drawn = a, b, out
}

// tailOf returns the lines of the unfinished tail (with the blank line
// before it), drawn again only when text came since.
func (t *textItem) tailOf(l *look, width int) []string {
	if t.done {
		return nil
	}
	if !t.tailOK {
		t.tail, t.tailOK = t.drawTail(l, width, t.tail[:0]), true
	}
	return t.tail
}

// drawTail appends the tail's lines to out.
func (t *textItem) drawTail(l *look, width int, out []string) []string {
	tail := t.split.tail()
	// A fence opens the tail: open (its line scanned) or still being
	// written (no line of it complete yet).
	if fence := openFence(tail); fence != "" && (t.split.inFence || bytes.IndexByte(tail, '\n') < 0) {
		return t.fencedTail(l, width, tail, fence, out)
	}
	if nl := bytes.LastIndexByte(tail, '\n'); nl >= t.tailUpto {
		for _, raw := range strings.Split(string(tail[t.tailUpto:nl]), "\n") {
			t.tailLines = append(t.tailLines, wrapLine(raw, width)...)
		}
		t.tailUpto = nl + 1
	}
	partial := tail[t.tailUpto:]
	if fenceStart(partial) {
		// "`" or "``" at a line's start may open a fence: shown as text,
		// it would flash and go.
		partial = nil
	}
	if len(t.tailLines) == 0 && len(bytes.TrimSpace(partial)) == 0 {
		return out
	}
	if t.nLines > 0 && !t.split.tight {
		out = append(out, "")
	}
	out = append(out, t.tailLines...)
	if len(partial) > 0 {
		out = append(out, wrapLine(string(partial), width)...)
	}
	return out
}

// fencedTail draws a tail that is a code fence still open as the code
// block it will be: its complete lines rendered with the fence closed
// (highlighted, indented as when it closes), the lines since the last
// render and the unfinished one indented as code. A render happens when
// lines were added, and in a long block only once a quarter more came,
// so a long block costs a bounded number of renders.
func (t *textItem) fencedTail(l *look, width int, tail []byte, fence string, out []string) []string {
	nl := bytes.LastIndexByte(tail, '\n')
	switch {
	case nl >= 0 && bytes.IndexByte(tail[:nl], '\n') < 0:
		// The opening line alone: no code to render yet (an empty block
		// renders as a blank line the code would then replace).
		t.fenceLines, t.fenceUpto = nil, nl+1
	case nl+1 > t.fenceUpto && (t.fenceUpto < 2048 || nl+1-t.fenceUpto >= t.fenceUpto/4):
		t.fenceLines = strings.Split(l.md.render(string(tail[:nl+1])+fence, width), "\n")
		t.fenceUpto = nl + 1
	}
	if t.nLines > 0 && !t.split.tight {
		out = append(out, "")
	}
	if t.fenceUpto > 0 {
		out = append(out, t.fenceLines...)
	}
	rest := string(tail[t.fenceUpto:])
	if t.fenceUpto == 0 {
		// The opening line is not complete yet: nothing to show of it.
		return out
	}
	raws := strings.Split(strings.TrimSuffix(rest, "\n"), "\n")
	if last := raws[len(raws)-1]; !strings.HasSuffix(rest, "\n") && last != "" && strings.Trim(last, " "+fence[:1]) == "" {
		raws = raws[:len(raws)-1] // the closing fence, being written
	}
	for _, raw := range raws {
		if raw != "" || rest != "" {
			out = append(out, guard([]string{cut("    "+strings.ReplaceAll(raw, "\t", "    "), width)})...)
		}
	}
	return out
}

// fenceStart reports whether a line being written is one or two fence
// characters so far, which may yet open a code fence.
func fenceStart(line []byte) bool {
	line = bytes.TrimLeft(line, " ")
	if len(line) == 0 || len(line) > 2 || line[0] != '`' && line[0] != '~' {
		return false
	}
	return len(line) == 1 || line[1] == line[0]
}

// openFence returns the fence that opens tail ("```", "~~~~"), "" when
// tail does not start with one.
func openFence(tail []byte) string {
	line := bytes.TrimLeft(tail, " ")
	if len(line) < 3 || line[0] != '`' && line[0] != '~' {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return string(line[:n])
}

// wrapLine wraps one raw line of streamed text as the Markdown renderer
// indents it, so a line keeps its place when its block is rendered.
func wrapLine(s string, width int) []string {
	line := "  " + strings.ReplaceAll(s, "\t", "    ")
	return guard(wrapANSI(line, wrapOptions{width: max(width-4, 12), breakWords: true}))
}
