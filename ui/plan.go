package ui

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/tools"
)

// Plan mode in the chat: a turn in plan mode ends with a plan, and the
// screen asks what to do with it. Approving switches the permission mode
// through the host's /permission and then sends the plan back as the
// prompt of the next turn.

// planMode is the permission mode of planning, as the status line shows it.
const planMode = "plan"

// modeCycle is the order Shift+Tab moves through the permission modes.
var modeCycle = []string{"ask", "auto", planMode}

// nextMode is the mode after cur in modeCycle; a mode outside the cycle
// (read) moves to its start.
func nextMode(cur string) string {
	for i, m := range modeCycle {
		if m == cur {
			return modeCycle[(i+1)%len(modeCycle)]
		}
	}
	return modeCycle[0]
}

// The choices offered once a plan is written.
const (
	planApproveAsk  = "approve-ask"
	planApproveAuto = "approve-auto"
	planEdit        = "edit"
	planKeep        = "keep"
)

// followUp is a turn the screen sends once a host command it started has
// answered without an error: the approved plan to carry out.
type followUp struct {
	show   string // the line the transcript shows for it
	prompt string // what the model gets
}

// executePrompt is the prompt that carries out an approved plan.
func executePrompt(plan string) string {
	return "The plan is approved. Carry it out now, step by step, then report what you changed.\n\nThe plan:\n\n" + plan
}

// cycleMode moves the permission mode on (Shift+Tab) through the host's
// /permission, quietly: the draft in the editor stays as it is.
func (m *Model) cycleMode() tea.Cmd {
	_, run, _ := m.cmds.find("permission")
	switch {
	case run == nil:
		m.hint = "the permission mode cannot be changed in this chat"
		return nil
	case m.busy:
		m.hint = "the permission mode changes once the turn is over (Esc stops it)"
		return nil
	}
	return m.hostCommand("permission", nextMode(m.status.Permission), run)
}

// planForm is the choice shown under a finished plan.
func (m *Model) planForm(plan string) *openForm {
	in := tools.AskInput{Questions: []tools.Question{{
		Header:   "Plan",
		ID:       "plan",
		Question: "What now with this plan?",
		Options: []tools.Choice{
			{ID: planApproveAsk, Label: "Approve and run (ask)", Description: "switch to ask mode and carry out the plan, asking before changes"},
			{ID: planApproveAuto, Label: "Approve and run (auto)", Description: "switch to auto mode and carry out the plan"},
			{ID: planEdit, Label: "Edit the plan in $EDITOR first"},
			{ID: planKeep, Label: "Keep planning", Description: "stay in plan mode and say what to change"},
		},
	}}}
	f := NewAskForm(in, m.look.pal)
	e := &openForm{form: f, answer: f.Summary, abandon: func() {}}
	e.then = func() tea.Cmd {
		if f.Cancelled() {
			return nil
		}
		picked := f.Answer().Selected["plan"]
		if len(picked) == 0 {
			return nil
		}
		return m.planChosen(picked[0], plan)
	}
	return e
}

// planChosen acts on the choice made under a plan.
func (m *Model) planChosen(choice, plan string) tea.Cmd {
	switch choice {
	case planApproveAsk, planApproveAuto:
		mode := "ask"
		if choice == planApproveAuto {
			mode = "auto"
		}
		_, run, _ := m.cmds.find("permission")
		if run == nil {
			m.hint = "the permission mode cannot be changed in this chat"
			return nil
		}
		m.follow = &followUp{show: fmt.Sprintf("Carry out the plan (%s mode)", mode), prompt: executePrompt(plan)}
		return m.hostCommand("permission", mode, run)
	case planEdit:
		return editPlan(plan)
	}
	m.hint = "still planning: say what to change in the plan"
	return nil
}

// editPlan writes the plan to a temporary file for the editor, as
// openEditor does for a draft.
func editPlan(plan string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "llmrt-plan-*.md")
		if err != nil {
			return editorMsg{err: fmt.Errorf("edit the plan: %w", err)}
		}
		_, err = f.WriteString(plan + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return editorMsg{err: fmt.Errorf("edit the plan: %w", err)}
		}
		return editStartMsg{path: f.Name(), plan: true}
	}
}

// planEdited shows the plan as the editor left it and asks again.
func (m *Model) planEdited(plan string) {
	m.addText(plan)
	m.forms = append(m.forms, m.planForm(plan))
}

// sendFollowUp starts the turn a host command was waiting to send.
func (m *Model) sendFollowUp(ok bool) tea.Cmd {
	f := m.follow
	m.follow = nil
	if f == nil || !ok {
		return nil
	}
	m.tr.add(&userItem{text: f.show})
	return m.startTurn(f.prompt)
}
