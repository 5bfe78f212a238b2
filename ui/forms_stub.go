package ui

// TEMPORARY: stands in for the forms being built on the prompts branch;
// deleted when it is merged.

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

var ErrCancelled = errors.New("cancelled")

type PermitResult struct {
	Decision engine.Decision
	Project  bool
}

type AskForm struct {
	in        tools.AskInput
	q, cur    int
	done      bool
	cancelled bool
	a         tools.Answer
}

func NewAskForm(in tools.AskInput, p Palette) *AskForm {
	return &AskForm{in: in, a: tools.Answer{Selected: map[string][]string{}, Other: map[string]string{}}}
}

func (f *AskForm) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	q := f.in.Questions[f.q]
	switch k.String() {
	case "down":
		f.cur = min(f.cur+1, len(q.Options)-1)
	case "up":
		f.cur = max(f.cur-1, 0)
	case "esc", "ctrl+c":
		f.done, f.cancelled = true, true
	case "enter":
		f.a.Selected[q.ID] = []string{q.Options[f.cur].ID}
		f.q++
		f.cur = 0
		if f.q == len(f.in.Questions) {
			f.done = true
		}
	}
	return nil
}

func (f *AskForm) View(width, height int) string {
	if f.done {
		return ""
	}
	q := f.in.Questions[f.q]
	s := q.Header + ": " + q.Question + "\n"
	for i, o := range q.Options {
		m := "  "
		if i == f.cur {
			m = "› "
		}
		s += m + o.Label + "\n"
	}
	return s
}

func (f *AskForm) Done() bool           { return f.done }
func (f *AskForm) Cancelled() bool      { return f.cancelled }
func (f *AskForm) Answer() tools.Answer { return f.a }
func (f *AskForm) Summary() []string    { return nil }

type PermitForm struct {
	req  engine.PermissionRequest
	cur  int
	done bool
	res  PermitResult
}

func NewPermitForm(req engine.PermissionRequest, p Palette) *PermitForm {
	return &PermitForm{req: req}
}

func (f *PermitForm) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	acts := []engine.DecisionAction{engine.AllowOnce, engine.AllowAlways, engine.Deny, engine.Cancel}
	switch k.String() {
	case "down":
		f.cur = min(f.cur+1, len(acts)-1)
	case "up":
		f.cur = max(f.cur-1, 0)
	case "esc":
		f.done, f.res.Decision.Action = true, engine.Deny
	case "ctrl+c":
		f.done, f.res.Decision.Action = true, engine.Cancel
	case "enter":
		f.done, f.res.Decision.Action = true, acts[f.cur]
	}
	return nil
}

func (f *PermitForm) View(width, height int) string {
	s := "Allow " + f.req.Tool + "?\n" + f.req.Arguments + "\n" + f.req.Preview + "\n"
	for i, o := range []string{"Allow once", "Allow always", "Deny", "Cancel"} {
		m := "  "
		if i == f.cur {
			m = "› "
		}
		s += m + o + "\n"
	}
	return s
}

func (f *PermitForm) Done() bool           { return f.done }
func (f *PermitForm) Result() PermitResult { return f.res }
func (f *PermitForm) Summary() string      { return f.req.Tool + ": " + string(f.res.Decision.Action) }
