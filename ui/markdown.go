package ui

import (
	"bytes"
	"io"
	"strings"
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
// text is split, and adding text costs the same however much came before
// (a long code fence included: the text is appended, never copied).
type splitter struct {
	buf     []byte // buf[start:] is the text not yet in a block
	start   int
	scanned int  // buf[start:scanned] is whole lines already examined
	inFence bool // whether buf[scanned:] starts inside a code fence
	// topFence says the fence last opened starts at the first column.
	topFence bool
	emitted  bool
	tight    bool // the next block continues the list just emitted
}

// add appends streamed text and returns the blocks it completes.
func (s *splitter) add(text string) []block {
	if s.start > 4096 && s.start > len(s.buf)/2 {
		n := copy(s.buf, s.buf[s.start:])
		s.buf, s.scanned, s.start = s.buf[:n], s.scanned-s.start, 0
	}
	if s.scanned < s.start {
		s.scanned = s.start
	}
	s.buf = append(s.buf, text...)
	var out []block
	for {
		nl := bytes.IndexByte(s.buf[s.scanned:], '\n')
		if nl < 0 {
			// A new item showing in the unfinished line finishes the one
			// before it already.
			if !s.inFence && s.scanned > s.start && listItem(string(s.buf[s.scanned:])) {
				out = s.cut(out, s.scanned, listItem(string(s.buf[s.start:min(s.start+12, len(s.buf))])))
			}
			return out
		}
		lineStart := s.scanned
		raw := s.buf[lineStart : lineStart+nl]
		line := bytes.TrimSpace(raw)
		s.scanned += nl + 1
		switch {
		case bytes.HasPrefix(line, []byte("```")) || bytes.HasPrefix(line, []byte("~~~")):
			// A fence at the first column is a block of its own, so it
			// is rendered as code alone (see codeBlock).
			if !s.inFence {
				s.topFence = len(raw) > 0 && raw[0] == line[0]
				if s.topFence && lineStart > s.start {
					out = s.cut(out, lineStart, false)
				}
			}
			s.inFence = !s.inFence
			if !s.inFence && s.topFence {
				out = s.cut(out, s.scanned, false)
			}
		case len(line) == 0 && !s.inFence:
			out = s.cut(out, s.scanned, false)
		case !s.inFence && lineStart > s.start && listItem(string(raw[:min(len(raw), 12)])):
			// What came before a new item is done: the items before it or
			// the paragraph the list interrupts.
			out = s.cut(out, lineStart, listItem(string(s.buf[s.start:min(s.start+12, len(s.buf))])))
		}
	}
}

// cut ends a block at buf[:at]; tight says the rest continues it.
func (s *splitter) cut(out []block, at int, tight bool) []block {
	text := string(s.buf[s.start:at])
	s.start = at
	if strings.TrimSpace(text) == "" {
		return out
	}
	out = append(out, block{text: text, gap: s.emitted && !s.tight})
	s.emitted, s.tight = true, tight
	return out
}

// tail is the unfinished text not yet in a block. It aliases the
// splitter's buffer until the next add.
func (s *splitter) tail() []byte { return s.buf[s.start:] }

// flush ends the stream: whatever is left is the last block.
func (s *splitter) flush() []block {
	return s.cut(nil, len(s.buf), false)
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

// renderer renders Markdown blocks to styled text for a terminal. It is
// llmrt's own (see mdrender.go) on the goldmark parser: glamour, which
// rendered Markdown before, links chroma's lexers and styles, whose
// package init registers every one of them (about 20 ms and 4 MB at every
// start of the binary, llmrt --help included); the renderer here costs
// nothing until the first block is rendered. A block is laid out without
// wrapping and its lines are wrapped here (see wrapRendered); a table is
// sized to the width as it is laid out.
type renderer struct {
	theme mdTheme
	// breakWords breaks words longer than a line (the chat's screen);
	// else they stay whole for the terminal to fold (llmrt run).
	breakWords bool
	langs      map[string]*codeLang // the code languages seen, built on first use
}

// newRenderer returns a renderer for a dark or light background. On a
// terminal without colour the chat screen drops the colours and keeps
// bold and italics, which read better than raw markup.
func newRenderer(dark bool) *renderer {
	return &renderer{theme: mdThemeFor(dark), breakWords: true}
}

// render renders one block wrapped to width. Every character of the text
// shows (see literal).
func (r *renderer) render(text string, width int) string {
	width = max(width, 20)
	// A tab is one cell to the terminal and eight to a pager: spaces
	// keep the layout the same everywhere.
	text = strings.ReplaceAll(text, "\t", "    ")
	// Only colours and attributes leave the renderer: the text was
	// cleaned on its way in, and this is the last line of defence.
	out := keepStyle(r.layout(literal(controlRefs(text)), width-6))
	// Code is folded at the width even where it has no space: a line
	// the terminal folded would lose its indentation. It may use the
	// whole width, its indentation included, where prose keeps a margin:
	// a 75-column line of code fits at 80 columns.
	code := codeBlock(text)
	wrap := width - 4
	if code {
		wrap = width
	}
	return wrapRendered(out, wrapOptions{width: wrap, code: code, breakWords: r.breakWords || code})
}

// codeBlock reports whether a block is a code block alone: a fence at
// its start (the splitter gives a fence a block of its own), or lines
// all indented as code.
func codeBlock(text string) bool {
	t := strings.TrimLeft(text, "\n")
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return true
	}
	for _, l := range strings.Split(strings.TrimRight(t, "\n"), "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "    ") {
			return false
		}
	}
	return t != ""
}

// controlRefs removes the numeric character references of control
// characters from Markdown ("&#27;", "&#x9b;"): the renderer would turn
// them into the very bytes the text was cleaned of.
func controlRefs(s string) string {
	if !strings.Contains(s, "&#") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "&#")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		n, cp := charRef(s)
		if n > 0 && (cp < 0x20 && cp != '\t' && cp != '\n' || cp >= 0x7f && cp <= 0x9f) {
			s = s[n:]
			continue
		}
		b.WriteString("&#")
		s = s[2:]
	}
}

// charRef parses the numeric character reference at the start of s
// ("&#27;", "&#x1B;") and returns its length and code point; n is 0
// when s starts with none.
func charRef(s string) (n int, cp int) {
	i, base, most := 2, 10, 7
	if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
		i, base, most = 3, 16, 6
	}
	start := i
	for i < len(s) && i-start < most {
		d := digitValue(s[i], base)
		if d < 0 {
			break
		}
		cp = cp*base + d
		i++
	}
	if i == start || i >= len(s) || s[i] != ';' {
		return 0, 0
	}
	return i + 1, cp
}

func digitValue(c byte, base int) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case base == 16 && c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case base == 16 && c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// MarkdownWriter renders Markdown as it streams to a terminal: each block
// is rendered and written as soon as it is complete, so output starts at
// once (a long list appears item by item) and nothing written has to be
// redrawn. Only the unfinished last block waits, until Flush.
type MarkdownWriter struct {
	w     io.Writer
	clean Sanitizer // the text comes from the model
	split splitter
	r     *renderer
	width int
	// partial is how many lines of the unfinished paragraph are written;
	// rendered how many bytes of it were rendered for them.
	partial, rendered int
	// BeforeOutput, when set, is called before the first bytes are
	// written (the progress ends its spinner and leaves a gap).
	BeforeOutput func()
	started      bool
}

// NewMarkdownWriter returns a MarkdownWriter for a colour terminal width
// columns wide.
func NewMarkdownWriter(w io.Writer, width int) *MarkdownWriter {
	r := newRenderer(true)
	r.breakWords = false // the terminal folds a long word, which stays whole
	return &MarkdownWriter{w: w, r: r, width: width}
}

// Write adds streamed text, writing every block it completes. Control
// sequences in the text are removed as it streams (see Sanitizer); the
// rendered output carries only the renderer's colours and attributes.
func (m *MarkdownWriter) Write(p []byte) (int, error) {
	if err := m.write(m.split.add(m.clean.String(string(p)))); err != nil {
		return len(p), err
	}
	return len(p), m.writePartial()
}

// Flush renders and writes whatever is left.
func (m *MarkdownWriter) Flush() error {
	m.clean.Reset()
	return m.write(m.split.flush())
}

func (m *MarkdownWriter) write(blocks []block) error {
	for _, b := range blocks {
		out := m.r.render(b.text, m.width)
		m.rendered = 0
		if m.partial > 0 {
			// Its first lines are on the screen already.
			lines := strings.Split(out, "\n")
			out, m.partial = strings.Join(lines[min(m.partial, len(lines)):], "\n"), 0
			if out == "" {
				continue
			}
		} else if b.gap {
			out = "\n" + out
		}
		if err := m.output(out + "\n"); err != nil {
			return err
		}
	}
	return nil
}

// writePartial writes the lines of the unfinished paragraph that more
// text can no longer change: it renders the paragraph up to its last
// word break where no inline markup is open, and writes every line of
// that but the last, which more words may still fill.
func (m *MarkdownWriter) writePartial() error {
	tail := m.split.tail()
	if m.split.inFence {
		return m.writeFence(tail)
	}
	if len(tail) < m.rendered+m.width {
		return nil // too little new text to finish a line: not worth a render
	}
	cut := safeParagraphPrefix(tail)
	if len(cut) < m.rendered+m.width {
		return nil
	}
	m.rendered = len(cut)
	lines := strings.Split(m.r.render(cut, m.width), "\n")
	done := len(lines) - 1
	if done <= m.partial {
		return nil
	}
	out := strings.Join(lines[m.partial:done], "\n") + "\n"
	if m.partial == 0 && m.split.emitted && !m.split.tight {
		out = "\n" + out // the gap cut will give the whole block
	}
	m.partial = done
	return m.output(out)
}

// writeFence writes the complete lines of a code fence still open, as
// the code block renders them once it closes: a long block appears line
// by line, not when its fence closes. Rendering the block so far costs
// more as it grows, so a long block is rendered again only once a
// quarter more came.
func (m *MarkdownWriter) writeFence(tail []byte) error {
	fence := openFence(tail)
	nl := bytes.LastIndexByte(tail, '\n')
	if fence == "" || nl < 0 || bytes.IndexByte(tail[:nl], '\n') < 0 {
		return nil // the opening line alone: no code yet
	}
	if nl+1 <= m.rendered || m.rendered >= 2048 && nl+1-m.rendered < m.rendered/4 {
		return nil
	}
	m.rendered = nl + 1
	lines := strings.Split(m.r.render(string(tail[:nl+1])+fence, m.width), "\n")
	if len(lines) <= m.partial {
		return nil
	}
	out := strings.Join(lines[m.partial:], "\n") + "\n"
	if m.partial == 0 && m.split.emitted && !m.split.tight {
		out = "\n" + out
	}
	m.partial = len(lines)
	return m.output(out)
}

// output writes rendered text, calling BeforeOutput the first time.
func (m *MarkdownWriter) output(s string) error {
	if !m.started {
		m.started = true
		if m.BeforeOutput != nil {
			m.BeforeOutput()
		}
	}
	_, err := io.WriteString(m.w, s)
	return err
}

// safeParagraphPrefix returns the start of tail, an unfinished block, up
// to its last space where the text rendered so far cannot change with
// what follows: tail must be a plain paragraph (not a heading, a list, a
// quote, a table, code or HTML), and the prefix must close every code
// span, emphasis and link it opens. "" when there is no such prefix.
func safeParagraphPrefix(tail []byte) string {
	s := string(tail)
	first := strings.TrimLeft(s, " ")
	if first == "" || len(s)-len(first) >= 4 {
		return "" // empty, or indented code
	}
	switch first[0] {
	case '#', '>', '|', '<', '`', '~', '-', '*', '+', '=', '_', '[', '!':
		return ""
	}
	if listItem(first[:min(len(first), 12)]) {
		return ""
	}
	end := strings.LastIndexAny(s, " \n")
	for end > 0 {
		p := s[:end]
		if balancedInline(p) {
			return p
		}
		end = strings.LastIndexAny(p, " \n")
	}
	return ""
}

// balancedInline reports whether p closes every code span, strong or
// emphasis marker, link bracket and parenthesis it opens. It counts;
// it does not parse, so it may refuse text that is fine, never accept
// text that is not.
func balancedInline(p string) bool {
	if strings.Count(p, "`")%2 != 0 || strings.Count(p, "**")%2 != 0 || strings.Count(p, "__")%2 != 0 {
		return false
	}
	rest := strings.ReplaceAll(p, "**", "")
	if strings.Count(rest, "*")%2 != 0 {
		return false
	}
	return strings.Count(p, "[") == strings.Count(p, "]") && strings.Count(p, "(") == strings.Count(p, ")") &&
		strings.Count(p, "<") == strings.Count(p, ">") && !strings.Contains(p, "\\")
}
