package cmd

import (
	"io"
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// mdStream renders Markdown as it streams: text is cut into blocks at
// blank lines outside code fences, and each finished block is rendered with
// glamour and written at once. Only the unfinished tail waits, so output
// starts immediately and nothing printed has to be redrawn.
type mdStream struct {
	w       io.Writer
	r       *glamour.TermRenderer
	pending string
	scanned int  // pending[:scanned] is whole lines already examined
	inFence bool // whether pending[scanned:] starts inside a code fence
	wrote   bool
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
	cut := 0 // end of the last complete block
	for {
		nl := strings.IndexByte(m.pending[m.scanned:], '\n')
		if nl < 0 {
			break
		}
		line := strings.TrimSpace(m.pending[m.scanned : m.scanned+nl])
		m.scanned += nl + 1
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			m.inFence = !m.inFence
		case line == "" && !m.inFence:
			cut = m.scanned
		}
	}
	if cut > 0 {
		block := m.pending[:cut]
		m.pending, m.scanned = m.pending[cut:], m.scanned-cut
		if err := m.render(block); err != nil {
			return len(p), err
		}
	}
	return len(p), nil
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
	if m.wrote {
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
