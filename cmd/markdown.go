package cmd

import (
	"io"
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// mdStream renders Markdown as it streams: text is cut into blocks at
// blank lines outside code fences, and before each item of a top-level
// list, and each finished block is rendered with glamour and written at
// once. Only the unfinished tail waits, so output starts immediately (a
// long list appears item by item) and nothing printed has to be redrawn.
type mdStream struct {
	w       io.Writer
	r       *glamour.TermRenderer
	pending string
	scanned int  // pending[:scanned] is whole lines already examined
	inFence bool // whether pending[scanned:] starts inside a code fence
	wrote   bool
	tight   bool // the next block continues the list just written
}

func newMDStream(w io.Writer, width int, style string) (*mdStream, error) {
	if style == "" {
		style = "dark"
	}
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(max(width-4, 20)))
	if err != nil {
		return nil, err
	}
	return &mdStream{w: w, r: r}, nil
}

// Write adds streamed text, rendering every block it completes. Each line
// is examined once, when it is complete, so the fence state stays right
// however the text is split.
func (m *mdStream) Write(p []byte) (int, error) {
	m.pending += string(p)
	for {
		nl := strings.IndexByte(m.pending[m.scanned:], '\n')
		if nl < 0 {
			// A new item showing in the unfinished line finishes the one
			// before it already.
			if !m.inFence && m.scanned > 0 && listItem(m.pending[m.scanned:]) {
				return len(p), m.cut(m.scanned, listItem(m.pending))
			}
			return len(p), nil
		}
		start := m.scanned
		raw := m.pending[start : start+nl]
		line := strings.TrimSpace(raw)
		m.scanned += nl + 1
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			m.inFence = !m.inFence
		case line == "" && !m.inFence:
			if err := m.cut(m.scanned, false); err != nil {
				return len(p), err
			}
		case !m.inFence && start > 0 && listItem(raw):
			// A new item: what came before it is done, the items before it
			// or the paragraph the list interrupts; a list goes on without
			// a gap.
			if err := m.cut(start, listItem(m.pending)); err != nil {
				return len(p), err
			}
		}
	}
}

// cut renders pending[:at] as a block; tight says the rest continues it.
func (m *mdStream) cut(at int, tight bool) error {
	block := m.pending[:at]
	m.pending, m.scanned = m.pending[at:], m.scanned-at
	err := m.render(block)
	m.tight = tight
	return err
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

// Flush renders whatever is left.
func (m *mdStream) Flush() error {
	rest := m.pending
	m.pending, m.scanned = "", 0
	if strings.TrimSpace(rest) == "" {
		return nil
	}
	return m.render(rest)
}

func (m *mdStream) render(block string) error {
	if strings.TrimSpace(block) == "" {
		return nil
	}
	out, err := m.r.Render(block)
	if err != nil {
		// Unrenderable Markdown is still text worth showing.
		out = block
	}
	out = trimBlankLines(out)
	if m.wrote && !m.tight {
		out = "\n" + out
	}
	m.wrote = true
	_, err = io.WriteString(m.w, out+"\n")
	return err
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
