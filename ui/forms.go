package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// openForm is a question or permission request on screen, with where its
// answer goes. Forms are shown one at a time, in the order they came.
type openForm struct {
	form
	// answer sends the finished form's answer and returns the lines that
	// say what was chosen.
	answer func() []string
	// abandon answers a form whose turn ended before the person did;
	// nobody waits for it any more, and the buffered reply never blocks.
	abandon func()
	// permit is the permission prompt's request and form (nil for a
	// question).
	permit *PermitForm
	tool   string
	// then, when set, is what the screen does once the form is done (the
	// choice under a plan).
	then func() tea.Cmd
}

func newAskEntry(r askRequest, p Palette) *openForm {
	f := NewAskForm(r.in, p)
	return &openForm{form: f,
		answer: func() []string {
			a := askReply{answer: f.Answer()}
			if f.Cancelled() {
				a.err = stopped(f)
			}
			r.reply <- a
			return f.Summary()
		},
		abandon: func() { r.reply <- askReply{err: context.Canceled} },
	}
}

func newPermitEntry(r permitRequest, p Palette) *openForm {
	f := NewPermitForm(r.req, p)
	return &openForm{form: f,
		answer: func() []string {
			a := permitReply{res: f.Result()}
			if a.res.Decision.Action == engine.Cancel {
				a.err = stopped(f)
			}
			r.reply <- a
			return []string{f.Summary()}
		},
		abandon: func() { r.reply <- permitReply{err: context.Canceled} },
		permit:  f,
		tool:    r.req.Tool,
	}
}

// form is the form on screen, if any.
func (m *Model) form() *openForm {
	if len(m.forms) == 0 {
		return nil
	}
	return m.forms[0]
}

// allowedOnce puts "allowed once" on the line of the call it was for,
// rather than a line of its own; false when there is no such call.
func (m *Model) allowedOnce(f *openForm) bool {
	if f.permit == nil || f.permit.Result().Decision.Action != engine.AllowOnce {
		return false
	}
	var waiting *toolItem
	for _, t := range m.calls {
		if t.state == toolWaiting && t.name == f.tool && (waiting == nil || t.start.Before(waiting.start)) {
			waiting = t
		}
	}
	if waiting == nil {
		return false
	}
	waiting.allowed = "allowed once"
	waiting.version++
	return true
}

// formMsg hands a key or paste to the form on screen and, once it is
// done, sends its answer and shows what was chosen.
func (m *Model) formMsg(f *openForm, msg tea.Msg) tea.Cmd {
	cmd := f.Update(msg)
	if !f.Done() {
		return cmd
	}
	for _, s := range f.answer() {
		if s != "" && !m.allowedOnce(f) {
			m.tr.add(&noteItem{kind: noteChoice, text: s})
		}
	}
	m.forms = m.forms[1:]
	if m.busy && len(m.forms) == 0 {
		m.state = "thinking"
	}
	if f.then != nil {
		return tea.Batch(cmd, f.then())
	}
	return cmd
}

// commandForm is the choice a host command asked for (Reply.Ask): the
// option picked runs command name again with the option's ID.
func (m *Model) commandForm(name string, q tools.Question) *openForm {
	f := NewAskForm(tools.AskInput{Questions: []tools.Question{q}}, m.look.pal)
	e := &openForm{form: f, answer: f.Summary, abandon: func() {}}
	e.then = func() tea.Cmd {
		if f.Cancelled() {
			return nil
		}
		picked := f.Answer().Selected[q.ID]
		if len(picked) == 0 {
			return nil
		}
		_, run, _ := m.cmds.find(name)
		if run == nil {
			return nil
		}
		if m.busy {
			m.hint = "/" + name + " has to wait until the turn is over (Esc stops it)"
			return nil
		}
		return m.hostCommand(name, picked[0], run)
	}
	return e
}
