package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Notify is how the chat tells the person, away in another window, that
// it needs them: a turn that took a while has ended, or a question or a
// permission prompt waits.
type Notify int

const (
	// NotifyOff sends nothing.
	NotifyOff Notify = iota
	// NotifyBell rings the terminal's bell, which every terminal and
	// multiplexer passes on in its own way (a flag, a sound, an urgent
	// window).
	NotifyBell
	// NotifyOSC9 is a desktop notification as iTerm2, WezTerm, Ghostty
	// and Windows Terminal show it.
	NotifyOSC9
	// NotifyOSC777 is a desktop notification as foot, rxvt-unicode and
	// Ghostty show it.
	NotifyOSC777
)

// notifyAfter is how long a turn runs before its end is worth a
// notification.
const notifyAfter = 10 * time.Second

// notify sends text (plain words, no control characters) as the chat's
// notification.
func (m *Model) notify(text string) tea.Cmd {
	if m.notified != nil {
		m.notified(text)
	}
	switch m.notifyKind {
	case NotifyBell:
		return tea.Raw("\a")
	case NotifyOSC9:
		return tea.Raw("\x1b]9;" + text + "\x07")
	case NotifyOSC777:
		return tea.Raw("\x1b]777;notify;llmrt;" + text + "\x07")
	}
	return nil
}
