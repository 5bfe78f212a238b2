package ui

import (
	"bytes"
	"strings"
)

// textItem is the model's text in one model call, streamed. Its finished
// blocks are rendered as Markdown once (per width) and kept; only the
// unfinished tail is drawn again as it grows, and of the tail only its
// last, unfinished line: a delta costs the same at the start of a long
// answer and at its end.
type textItem struct {
	split splitter
	// blocks are the finished blocks; done says the text is complete.
	blocks []block
	done   bool

	// What was drawn, for width and gen: drawn[:doneLen] are the lines
	// of blocks[:nDrawn]; after them come the tail's lines, drawn anew.
	width, gen int
	drawn      []string
	nDrawn     int
	doneLen    int
	// tailLines are the wrapped lines of tail[:tailUpto], the tail's
	// complete lines so far.
	tailLines []string
	tailUpto  int
	// fenceLines are the rendered lines of tail[:fenceUpto] while the
	// tail is an unclosed code fence, drawn as the code it will be.
	fenceLines []string
	fenceUpto  int
}

func (t *textItem) add(s string) {
	if bs := t.split.add(s); len(bs) > 0 {
		t.blocks = append(t.blocks, bs...)
		t.tailLines, t.tailUpto = t.tailLines[:0], 0
		t.fenceLines, t.fenceUpto = nil, 0
	}
}

// finish marks the text complete: its tail becomes the last block.
func (t *textItem) finish() {
	if t.done {
		return
	}
	t.blocks = append(t.blocks, t.split.flush()...)
	t.tailLines, t.tailUpto = t.tailLines[:0], 0
	t.done = true
}

func (t *textItem) lines(l *look, width int) []string {
	if width != t.width || l.gen != t.gen {
		t.width, t.gen = width, l.gen
		t.drawn, t.nDrawn, t.doneLen = t.drawn[:0], 0, 0
		t.tailLines, t.tailUpto = t.tailLines[:0], 0
		t.fenceLines, t.fenceUpto = nil, 0
	}
	for t.nDrawn < len(t.blocks) {
		b := t.blocks[t.nDrawn]
		t.drawn = t.drawn[:t.doneLen]
		if b.gap && t.doneLen > 0 {
			t.drawn = append(t.drawn, "")
		}
		t.drawn = append(t.drawn, strings.Split(l.md.render(b.text, width), "\n")...)
		t.doneLen, t.nDrawn = len(t.drawn), t.nDrawn+1
	}
	t.drawn = t.drawn[:t.doneLen]
	if t.done {
		return t.drawn
	}
	tail := t.split.tail()
	// A fence opens the tail: open (its line scanned) or still being
	// written (no line of it complete yet).
	if fence := openFence(tail); fence != "" && (t.split.inFence || bytes.IndexByte(tail, '\n') < 0) {
		return t.fencedTail(l, width, tail, fence)
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
		return t.drawn
	}
	if t.doneLen > 0 && !t.split.tight {
		t.drawn = append(t.drawn, "")
	}
	t.drawn = append(t.drawn, t.tailLines...)
	if len(partial) > 0 {
		t.drawn = append(t.drawn, wrapLine(string(partial), width)...)
	}
	return t.drawn
}

// fencedTail draws a tail that is a code fence still open as the code
// block it will be: its complete lines rendered with the fence closed
// (highlighted, indented as when it closes), the lines since the last
// render and the unfinished one indented as code. A render happens when
// lines were added, and in a long block only once a quarter more came,
// so a long block costs a bounded number of renders.
func (t *textItem) fencedTail(l *look, width int, tail []byte, fence string) []string {
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
	if t.doneLen > 0 && !t.split.tight {
		t.drawn = append(t.drawn, "")
	}
	if t.fenceUpto > 0 {
		t.drawn = append(t.drawn, t.fenceLines...)
	}
	rest := string(tail[t.fenceUpto:])
	if t.fenceUpto == 0 {
		// The opening line is not complete yet: nothing to show of it.
		return t.drawn
	}
	raws := strings.Split(strings.TrimSuffix(rest, "\n"), "\n")
	if last := raws[len(raws)-1]; !strings.HasSuffix(rest, "\n") && last != "" && strings.Trim(last, " "+fence[:1]) == "" {
		raws = raws[:len(raws)-1] // the closing fence, being written
	}
	for _, raw := range raws {
		if raw != "" || rest != "" {
			t.drawn = append(t.drawn, guard([]string{cut("    "+strings.ReplaceAll(raw, "\t", "    "), width)})...)
		}
	}
	return t.drawn
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
