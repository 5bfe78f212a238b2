package ui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// StatusLineFunc returns the person's own status line for the facts s:
// the host runs their status_line command. Only its colours reach the
// screen.
type StatusLineFunc func(ctx context.Context, s Status) string

// statusLineEvery is the shortest time between two calls of the status
// line command.
const statusLineEvery = 300 * time.Millisecond

// statusLineWait bounds one call.
const statusLineWait = 5 * time.Second

// statusLineMsg is a status line command's answer.
type statusLineMsg struct{ text string }

// ownStatus tracks the person's status line: the text shown, whether a
// call is out, and whether the facts changed while it was.
type ownStatus struct {
	fn      StatusLineFunc
	text    string
	running bool
	stale   bool
}

// refreshStatusLine asks for the status line again after the facts
// changed (the start, a turn's end, /model, /resume): at once when no
// call is out, else once that call is back and the pause is over.
func (m *Model) refreshStatusLine() tea.Cmd {
	o := &m.own
	if o.fn == nil {
		return nil
	}
	if o.running {
		o.stale = true
		return nil
	}
	o.running = true
	fn, s, base := o.fn, m.status, m.base
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(base, statusLineWait)
		defer cancel()
		text, _, _ := strings.Cut(fn(ctx, s), "\n")
		return statusLineMsg{text: strings.TrimRight(text, " \t\r")}
	}
}

// statusLineBack takes a status line command's answer, and asks again
// after the pause when the facts changed meanwhile.
func (m *Model) statusLineBack(msg statusLineMsg) tea.Cmd {
	o := &m.own
	o.text = msg.text
	if !o.stale {
		o.running = false
		return nil
	}
	o.stale = false
	return tea.Tick(statusLineEvery, func(time.Time) tea.Msg { return statusLineAgainMsg{} })
}

// statusLineAgainMsg ends the pause between two calls.
type statusLineAgainMsg struct{}

// ownStatusLine is the person's status line, drawn above llmrt's own;
// nil when there is none.
func (m *Model) ownStatusLine() []string {
	if m.own.text == "" {
		return nil
	}
	return []string{" " + cut(keepStyle(m.own.text), m.width-2) + "\x1b[m"}
}
