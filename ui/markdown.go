package ui

import (
	"io"
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// block is a piece of streamed Markdown that renders on its own: a
// paragraph, a heading, a whole code fence, one item of a top-level list.
type block struct {
	text string
	// gap says a blank line separates it from the block before; items of
	// one list follow each other without one.
	gap bool
}

// splitter cuts streamed Markdown into blocks at blank lines outside code
// fences and before each item of a top-level list. Each line is examined
// once, when it is complete, so the fence state stays right however the
// text is split, and the cost of adding text does not grow with what was
// added before.
type splitter struct {
	pending string
	scanned int  // pending[:scanned] is whole lines already examined
	inFence bool // whether pending[scanned:] starts inside a code fence
	emitted bool
	tight   bool // the next block continues the list just emitted
}

// add appends streamed text and returns the blocks it completes.
func (s *splitter) add(text string) []block {
	s.pending += text
	var out []block
	for {
		nl := strings.IndexByte(s.pending[s.scanned:], '\n')
		if nl < 0 {
			// A new item showing in the unfinished line finishes the one
			// before it already.
			if !s.inFence && s.scanned > 0 && listItem(s.pending[s.scanned:]) {
				out = s.cut(out, s.scanned, listItem(s.pending))
			}
			return out
		}
		start := s.scanned
		raw := s.pending[start : start+nl]
		line := strings.TrimSpace(raw)
		s.scanned += nl + 1
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			s.inFence = !s.inFence
		case line == "" && !s.inFence:
			out = s.cut(out, s.scanned, false)
		case !s.inFence && start > 0 && listItem(raw):
			// What came before a new item is done: the items before it or
			// the paragraph the list interrupts.
			out = s.cut(out, start, listItem(s.pending))
		}
	}
}

// cut ends a block at pending[:at]; tight says the rest continues it.
func (s *splitter) cut(out []block, at int, tight bool) []block {
	text := s.pending[:at]
	s.pending, s.scanned = s.pending[at:], s.scanned-at
	if strings.TrimSpace(text) == "" {
		return out
	}
	out = append(out, block{text: text, gap: s.emitted && !s.tight})
	s.emitted, s.tight = true, tight
	return out
}

// tail is the unfinished text not yet in a block.
func (s *splitter) tail() string { return s.pending }

// flush ends the stream: whatever is left is the last block.
func (s *splitter) flush() []block {
	return s.cut(nil, len(s.pending), false)
}

// listItem reports whether s starts with a top-level list item: "- ",
// "* ", "+ " or "12. " at the first column.
func listItem(s string) bool {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return !strings.HasPrefix(s, "* * *") && !strings.HasPrefix(s, "- - -")
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' '
}

// renderer renders Markdown blocks with glamour at one width. Building a
// glamour renderer costs more than rendering a block, so one is kept per
// width and built on first use.
type renderer struct {
	style string
	width int
	r     *glamour.TermRenderer
}

func newRenderer(p Palette, dark bool) *renderer {
	style := "notty"
	if p.Color {
		style = "light"
		if dark {
			style = "dark"
		}
	}
	return &renderer{style: style}
}

// render renders one block wrapped to width, without the blank lines
// glamour pads it with. Markdown glamour cannot render is shown as text.
func (r *renderer) render(text string, width int) string {
	width = max(width, 20)
	if r.r == nil || r.width != width {
		tr, err := glamour.NewTermRenderer(glamour.WithStandardStyle(r.style), glamour.WithWordWrap(width-4))
		if err != nil {
			return wrapPlain(text, width)
		}
		r.r, r.width = tr, width
	}
	out, err := r.r.Render(text)
	if err != nil {
		return wrapPlain(text, width)
	}
	return trimBlankLines(out)
}

// trimBlankLines drops leading and trailing lines that hold only spaces:
// glamour pads each block, and blocks rendered one by one would otherwise
// be separated by several blank lines.
func trimBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	start, end := 0, len(lines)
	blank := func(l string) bool { return strings.TrimSpace(ansi.Strip(l)) == "" }
	for start < end && blank(lines[start]) {
		start++
	}
	for end > start && blank(lines[end-1]) {
		end--
	}
	return strings.Join(lines[start:end], "\n")
}

// wrapPlain word-wraps text to width, breaking long words.
func wrapPlain(text string, width int) string {
	return ansi.Wrap(text, max(width, 1), "")
}

// MarkdownWriter renders Markdown as it streams to a terminal: each block
// is rendered and written as soon as it is complete, so output starts at
// once (a long list appears item by item) and nothing written has to be
// redrawn. Only the unfinished last block waits, until Flush.
type MarkdownWriter struct {
	w     io.Writer
	split splitter
	r     *renderer
	width int
}

// NewMarkdownWriter returns a MarkdownWriter for a terminal width columns
// wide, styled for p.
func NewMarkdownWriter(w io.Writer, width int, p Palette) *MarkdownWriter {
	return &MarkdownWriter{w: w, r: newRenderer(p, true), width: width}
}

// Write adds streamed text, writing every block it completes.
func (m *MarkdownWriter) Write(p []byte) (int, error) {
	return len(p), m.write(m.split.add(string(p)))
}

// Flush renders and writes whatever is left.
func (m *MarkdownWriter) Flush() error { return m.write(m.split.flush()) }

func (m *MarkdownWriter) write(blocks []block) error {
	for _, b := range blocks {
		out := m.r.render(b.text, m.width)
		if b.gap {
			out = "\n" + out
		}
		if _, err := io.WriteString(m.w, out+"\n"); err != nil {
			return err
		}
	}
	return nil
}
