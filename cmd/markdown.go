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
	pending strings.Builder
	inFence bool
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

// Write adds streamed text, rendering every block it completes.
func (m *mdStream) Write(p []byte) (int, error) {
	m.pending.Write(p)
	text := m.pending.String()
	cut := 0 // end of the last complete block
	pos := 0
	for {
		nl := strings.IndexByte(text[pos:], '\n')
		if nl < 0 {
			break
		}
		line := text[pos : pos+nl]
		pos += nl + 1
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			m.inFence = !m.inFence
			continue
		}
		if trimmed == "" && !m.inFence {
			cut = pos
		}
	}
	if cut > 0 {
		if err := m.render(text[:cut]); err != nil {
			return len(p), err
		}
		m.pending.Reset()
		m.pending.WriteString(text[cut:])
	}
	return len(p), nil
}

// Flush renders whatever is left.
func (m *mdStream) Flush() error {
	rest := m.pending.String()
	m.pending.Reset()
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
