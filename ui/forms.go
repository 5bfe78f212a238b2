package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// openForm is a question or permission request on screen, with where its
// answer goes. Forms are shown one at a time, in the order they came.
type openForm struct {
	ask         *AskForm
	askReply    chan askReply
	permit      *PermitForm
	permitReply chan permitReply
}

func (f *openForm) update(msg tea.Msg) tea.Cmd {
	if f.ask != nil {
		return f.ask.Update(msg)
	}
	return f.permit.Update(msg)
}

func (f *openForm) view(width, height int) string {
	if f.ask != nil {
		return f.ask.View(width, height)
	}
	return f.permit.View(width, height)
}

func (f *openForm) done() bool {
	if f.ask != nil {
		return f.ask.Done()
	}
	return f.permit.Done()
}

// answer sends the finished form's answer and returns the lines that say
// what was chosen.
func (f *openForm) answer() []string {
	if f.ask != nil {
		r := askReply{answer: f.ask.Answer()}
		if f.ask.Cancelled() {
			r.err = ErrCancelled
		}
		f.askReply <- r
		return f.ask.Summary()
	}
	f.permitReply <- permitReply{res: f.permit.Result()}
	return []string{f.permit.Summary()}
}

// abandon answers a form whose turn ended before the person did; nobody
// waits for it any more, and the buffered reply never blocks.
func (f *openForm) abandon() {
	if f.ask != nil {
		f.askReply <- askReply{err: context.Canceled}
		return
	}
	f.permitReply <- permitReply{err: context.Canceled}
}

// form is the form on screen, if any.
func (m *Model) form() *openForm {
	if len(m.forms) == 0 {
		return nil
	}
	return m.forms[0]
}

// formMsg hands a key or paste to the form on screen and, once it is
// done, sends its answer and shows what was chosen.
func (m *Model) formMsg(f *openForm, msg tea.Msg) tea.Cmd {
	cmd := f.update(msg)
	if !f.done() {
		return cmd
	}
	for _, s := range f.answer() {
		if s != "" {
			m.tr.add(&noteItem{kind: noteChoice, text: s})
		}
	}
	m.forms = m.forms[1:]
	if m.busy && len(m.forms) == 0 {
		m.state = "thinking"
	}
	return cmd
}
