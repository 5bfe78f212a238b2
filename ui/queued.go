package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Prompts sent while a turn runs wait, in order, under the transcript,
// and go one at a time once the turn is over: the person types while the
// model works. Up on an empty editor takes the last one back to edit it
// (or clear it, which cancels it); a turn stopped with Esc hands them all
// back to the editor rather than sending them into what was stopped.

// queuePrompt keeps text to send after the running turn.
func (m *Model) queuePrompt(text string) {
	m.queued = append(m.queued, text)
	m.in.reset(text)
	m.hint = ""
}

// unqueueLast takes the last waiting prompt back into the empty editor.
func (m *Model) unqueueLast() bool {
	if len(m.queued) == 0 || m.in.value() != "" {
		return false
	}
	last := m.queued[len(m.queued)-1]
	m.queued = m.queued[:len(m.queued)-1]
	m.in.setValue(last)
	return true
}

// nextQueued runs what waits once the screen is free: the first waiting
// prompt, or, after a turn the person stopped, none — they all go back
// to the editor.
func (m *Model) nextQueued(stopped bool) tea.Cmd {
	if len(m.queued) == 0 || m.busy || m.form() != nil {
		return nil
	}
	if stopped {
		back := strings.Join(m.queued, "\n\n")
		if v := m.in.value(); v != "" {
			back += "\n\n" + v
		}
		m.queued = nil
		m.in.setValue(back)
		m.hint = "the turn was stopped: what you queued is back in the editor"
		return nil
	}
	text := m.queued[0]
	m.queued = m.queued[1:]
	m.tr.add(&userItem{text: text})
	// Only a prompt command is queued with a slash in front (submit runs
	// every other command at once).
	if name, _, ok := parseCommand(text); ok {
		if c, _, ok := m.cmds.find(name); ok && c.Prompt {
			return m.startTurnWith(Turn{Prompt: text, Command: true})
		}
	}
	return m.startTurn(text)
}

// queuedLines draws the waiting prompts, a line each, above the rule.
func (m *Model) queuedLines() []string {
	if len(m.queued) == 0 {
		return nil
	}
	p := m.look.pal
	out := make([]string, 0, len(m.queued))
	for i, q := range m.queued {
		line := "  queued › " + oneLine(Sanitize(q))
		if i == len(m.queued)-1 {
			hint := "  (↑ edits)"
			line = cut(line, m.width-widthOf(hint)) + hint
		}
		out = append(out, p.Dim.Render(cut(line, m.width)))
	}
	return out
}
