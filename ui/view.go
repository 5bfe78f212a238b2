package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// formShare is the part of the screen a form may take.
const formShare = 0.8

// View draws the screen: the transcript, then the completion menu and
// the editor or the form on screen, and the status line at the bottom.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "llmrt"
	return v
}

// render draws the frame. Only llmrt's own colours and attributes leave
// it (keepStyle): the transcript's items guard their lines when they draw
// them (see cache.put), and the lines under the transcript — a form, the
// menu, the editor, the status — are guarded here, every frame.
func (m *Model) render() string {
	above, below := m.panes()
	own := m.ownStatusLine()
	th := m.height - len(above) - len(below) - len(own) - 2
	lines := m.tr.view(&m.look, m.width, max(th, 0))
	n := len(lines)
	lines = append(lines, above...)
	lines = append(lines, m.rule(m.ruleText(th)))
	lines = append(lines, below...)
	lines = append(lines, own...)
	lines = append(lines, m.statusLine())
	guard(lines[n:])
	return strings.Join(lines, "\n")
}

// panes are what sits above and below the rule under the transcript: the
// completion menu over the editor, or the form on screen.
func (m *Model) panes() (above, below []string) {
	if f := m.form(); f != nil {
		h := max(int(float64(m.height)*formShare), 6)
		return nil, strings.Split(strings.TrimRight(f.View(m.width, h), "\n"), "\n")
	}
	return append(m.queuedLines(), m.in.menu.view(m.look.pal, m.width)...), strings.Split(m.in.render(), "\n")
}

// transcriptHeight is the rows left for the transcript.
func (m *Model) transcriptHeight() int {
	above, below := m.panes()
	return max(m.height-len(above)-len(below)-len(m.ownStatusLine())-2, 1)
}

// ruleText is the hint the line above the editor carries.
func (m *Model) ruleText(th int) string {
	switch {
	case m.form() != nil:
		return ""
	case m.hint != "":
		return m.hint
	}
	n := m.tr.below(&m.look, m.width, th)
	switch {
	case n > 0 && m.busy:
		// Scrolled up while the answer streams: the marker stays, and
		// says there is new output below.
		return "↓ " + itoa(n) + " more lines · new output (End) · esc to interrupt"
	case n > 0:
		return "↓ " + itoa(n) + " more lines (PgDn, End)"
	case m.busy:
		return "esc to interrupt"
	}
	return ""
}

// rule is a horizontal line across the screen with text at its left.
func (m *Model) rule(text string) string {
	return m.memo.get(&m.memo.rule, text+"\x00"+itoa(m.width), func() string {
		p := m.look.pal
		if text == "" {
			return p.Border.Render(strings.Repeat("─", m.width))
		}
		text = cut(text, m.width-6)
		return p.Border.Render("── ") + p.Dim.Render(text) + " " + p.Border.Render(strings.Repeat("─", max(m.width-4-widthOf(text), 0)))
	})
}

// memo keeps the last drawing of the lines under the transcript, which
// change far less often than frames are drawn.
type memo struct {
	rule, status memoEntry
}

type memoEntry struct{ key, out string }

func (memo) get(e *memoEntry, key string, draw func() string) string {
	if e.key != key || e.out == "" {
		e.key, e.out = key, draw()
	}
	return e.out
}
