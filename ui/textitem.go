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
}

func (t *textItem) add(s string) {
	if bs := t.split.add(s); len(bs) > 0 {
		t.blocks = append(t.blocks, bs...)
		t.tailLines, t.tailUpto = t.tailLines[:0], 0
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
	if nl := bytes.LastIndexByte(tail, '\n'); nl >= t.tailUpto {
		for _, raw := range strings.Split(string(tail[t.tailUpto:nl]), "\n") {
			t.tailLines = append(t.tailLines, wrapLine(raw, width)...)
		}
		t.tailUpto = nl + 1
	}
	partial := tail[t.tailUpto:]
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

// wrapLine wraps one raw line of streamed text as the Markdown renderer
// indents it, so a line keeps its place when its block is rendered.
func wrapLine(s string, width int) []string {
	line := "  " + strings.ReplaceAll(s, "\t", "    ")
	return guard(wrapANSI(line, wrapOptions{width: max(width-4, 12), breakWords: true}))
}
