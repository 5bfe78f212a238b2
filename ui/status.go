package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// statusLine is the bottom line: where the run goes (provider, model,
// permission mode, sandbox) on the left; tokens, what the run is doing
// and the session on the right.
func (m *Model) statusLine() string {
	s := m.status
	left := []string{s.Provider + "/" + s.Model}
	if s.Permission != "" {
		left = append(left, s.Permission)
	}
	if s.Sandbox != "" {
		left = append(left, "sandbox "+s.Sandbox)
	}
	u := s.Usage.Add(m.runUsage)
	right := []string{"↑" + tokens(u.InputTokens) + " ↓" + tokens(u.OutputTokens)}
	right = append(right, m.stateText())
	if s.Session != "" {
		right = append(right, s.Session)
	}
	l, r := strings.Join(left, " · "), strings.Join(right, " · ")
	room := m.width - 2
	if widthOf(l)+widthOf(r)+2 > room {
		// The right side says what is happening now: it keeps its place
		// and the left side gives way.
		r = cut(r, room)
		l = cut(l, max(room-widthOf(r)-2, 0))
	}
	gap := max(room-widthOf(l)-widthOf(r), 1)
	line := " " + l + strings.Repeat(" ", gap) + r + " "
	return m.memo.get(&m.memo.status, line, func() string { return m.look.pal.Status.Render(line) })
}

// stateText says what the run is doing: idle, thinking, running a tool,
// waiting for the person, with a spinner and the time so far.
func (m *Model) stateText() string {
	switch {
	case m.form() != nil:
		return "? waiting for you"
	case !m.busy:
		return "idle"
	}
	state := m.state
	var running []string
	for _, t := range m.calls {
		if t.state == toolRunning {
			running = append(running, t.name)
		}
	}
	switch {
	case len(running) == 1:
		state = "running " + running[0]
	case len(running) > 1:
		state = "running " + itoa(len(running)) + " tools"
	}
	spin := SpinnerFrames[m.look.frame%len(SpinnerFrames)]
	return spin + " " + state + " " + Elapsed(m.look.now.Sub(m.since).Truncate(time.Second))
}

func widthOf(s string) int { return ansi.StringWidth(s) }

func itoa(n int) string { return strconv.Itoa(n) }
