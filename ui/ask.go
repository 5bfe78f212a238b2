package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/tools"
)

// askMode is what an AskForm is showing.
type askMode int

const (
	askList  askMode = iota // the current question's entries
	askOther                // the editor for the question's "other" text
	askMenu                 // the choice Esc opens
)

// The entries of the Esc menu.
const (
	menuSkip = iota
	menuBack
	menuCancel
)

// entry is one line of a question's list: an option (its index), or the
// "other" or "skip" entry.
type entry struct {
	option int // -1 for other and skip
	other  bool
}

// AskForm puts the questions of one ask_user_input call to a person as
// select lists, one question after another, and collects the answer. It is
// a plain value driven by Update and drawn by View: the chat TUI embeds
// it, and Ask runs it inline on a terminal. It does no IO.
type AskForm struct {
	in tools.AskInput
	p  Palette

	q       int          // index of the current question
	cursor  int          // entry under the cursor
	toggled map[int]bool // options toggled in a multiple-select question
	mode    askMode
	menu    int    // entry under the cursor in the Esc menu
	hint    string // a note about the last key, shown until the next one
	input   textinput.Model

	answer    tools.Answer
	summary   []string
	done      bool
	cancelled bool
}

// NewAskForm returns the form for in, which should have passed
// in.Validate, drawn with the styles of p.
func NewAskForm(in tools.AskInput, p Palette) *AskForm {
	in, _ = cleanAsk(in) // the model's words, shown to a person
	f := &AskForm{in: in, p: p, answer: tools.Answer{Selected: map[string][]string{}, Other: map[string]string{}}}
	f.startQuestion(0)
	f.done = len(in.Questions) == 0 // nothing to ask; Validate refuses such input
	return f
}

// Done reports whether the form has finished: answered, skipped or
// cancelled.
func (f *AskForm) Done() bool { return f.done }

// Cancelled reports whether the person cancelled (Ctrl-C, or Esc and
// "Cancel"), or Cancel was called.
func (f *AskForm) Cancelled() bool { return f.cancelled }

// Cancel ends the form as cancelled, as Ctrl-C does; a host calls it when
// the run ends while the form is open.
func (f *AskForm) Cancel() {
	if !f.done {
		f.summary = append(f.summary, "✗ Cancelled")
	}
	f.done, f.cancelled = true, true
}

// Answer returns what the person chose. Once the form is done and not
// cancelled it satisfies the input's Resolve.
func (f *AskForm) Answer() tools.Answer {
	a := tools.Answer{Skipped: f.answer.Skipped, Selected: map[string][]string{}, Other: map[string]string{}}
	for k, v := range f.answer.Selected {
		a.Selected[k] = append([]string(nil), v...)
	}
	for k, v := range f.answer.Other {
		a.Other[k] = v
	}
	return a
}

// Summary returns one line per answered question saying what was chosen
// ("✔ Format: YAML"), then "✔ Skipped" when the questions were skipped or
// "✗ Cancelled" when the form was cancelled.
func (f *AskForm) Summary() []string { return append([]string(nil), f.summary...) }

// Update handles a key press or a paste and returns a command for the
// editor, if any.
func (f *AskForm) Update(msg tea.Msg) tea.Cmd {
	if f.done {
		return nil
	}
	if paste, ok := msg.(tea.PasteMsg); ok && f.mode == askOther {
		var cmd tea.Cmd
		f.input, cmd = f.input.Update(paste)
		return cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	f.hint = ""
	if k.String() == "ctrl+c" {
		f.Cancel()
		return nil
	}
	switch f.mode {
	case askOther:
		return f.updateOther(k)
	case askMenu:
		f.updateMenu(k.String())
	default:
		f.updateList(k.String())
	}
	return nil
}

func (f *AskForm) question() tools.Question { return f.in.Questions[f.q] }

// entries lists the current question's entries: its options, then
// "other" when it allows free text, then "skip" when the call allows it.
func (f *AskForm) entries() []entry {
	q := f.question()
	out := make([]entry, 0, len(q.Options)+2)
	for i := range q.Options {
		out = append(out, entry{option: i})
	}
	if q.AllowOther {
		out = append(out, entry{option: -1, other: true})
	}
	if f.in.AllowSkip {
		out = append(out, entry{option: -1})
	}
	return out
}

func (f *AskForm) updateList(key string) {
	ents := f.entries()
	multi := f.in.Multiple()
	switch key {
	case "up", "k", "shift+tab":
		f.cursor = max(f.cursor-1, 0)
	case "down", "j", "tab":
		f.cursor = min(f.cursor+1, len(ents)-1)
	case "home", "g":
		f.cursor = 0
	case "end", "G":
		f.cursor = len(ents) - 1
	case "esc":
		f.mode, f.menu = askMenu, menuBack
	case "space", "x":
		if multi {
			f.toggle(ents[f.cursor])
		}
	case "enter":
		f.choose(ents[f.cursor])
	default:
		n := digit(key)
		if n < 1 || n > len(ents) {
			return
		}
		f.cursor = n - 1
		if multi {
			f.toggle(ents[f.cursor])
		} else {
			f.choose(ents[f.cursor])
		}
	}
}

// digit returns the value of a key 1–9, or 0.
func digit(key string) int {
	if len(key) == 1 && key[0] >= '1' && key[0] <= '9' {
		return int(key[0] - '0')
	}
	return 0
}

// toggle flips an option of a multiple-select question; "other" and
// "skip" are not toggled.
func (f *AskForm) toggle(e entry) {
	if e.option >= 0 {
		f.toggled[e.option] = !f.toggled[e.option]
	}
}

// choose acts on Enter: an option answers a single-select question and
// confirms a multiple-select one, "other" opens the editor, "skip" skips.
func (f *AskForm) choose(e entry) {
	switch {
	case e.other:
		f.mode = askOther
	case e.option < 0:
		f.answer = tools.Answer{Skipped: true, Selected: map[string][]string{}, Other: map[string]string{}}
		f.summary = append(f.summary, "✔ Skipped")
		f.done = true
	case !f.in.Multiple():
		f.finish([]int{e.option}, "")
	case len(f.chosen()) == 0:
		f.hint = "choose at least one: space toggles"
	default:
		f.finish(f.chosen(), "")
	}
}

// chosen returns the toggled options in the order they are listed.
func (f *AskForm) chosen() []int {
	var out []int
	for i := range f.question().Options {
		if f.toggled[i] {
			out = append(out, i)
		}
	}
	return out
}

func (f *AskForm) updateOther(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc":
		f.mode = askList // the text stays for when the editor opens again
		return nil
	case "enter":
		text := strings.TrimSpace(f.input.Value())
		switch {
		case text != "":
			f.finish(f.chosen(), text)
		case f.in.Multiple() && len(f.chosen()) > 0:
			f.finish(f.chosen(), "")
		default:
			f.hint = "type your answer, or Esc to go back to the list"
		}
		return nil
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(k)
	return cmd
}

func (f *AskForm) updateMenu(key string) {
	items := f.menuItems()
	at := 0
	for i, it := range items {
		if it == f.menu {
			at = i
		}
	}
	switch key {
	case "up", "k", "shift+tab":
		f.menu = items[max(at-1, 0)]
	case "down", "j", "tab":
		f.menu = items[min(at+1, len(items)-1)]
	case "esc":
		f.mode = askList
	case "enter":
		f.act(f.menu)
	default:
		if n := digit(key); n >= 1 && n <= len(items) {
			f.act(items[n-1])
		}
	}
}

// menuItems lists the Esc menu: skip (when allowed), back, cancel.
func (f *AskForm) menuItems() []int {
	if f.in.AllowSkip {
		return []int{menuSkip, menuBack, menuCancel}
	}
	return []int{menuBack, menuCancel}
}

func (f *AskForm) act(item int) {
	switch item {
	case menuSkip:
		f.choose(entry{option: -1})
	case menuBack:
		f.mode = askList
	case menuCancel:
		f.Cancel()
	}
}

// finish records the answer to the current question and its summary
// line, and moves to the next question or ends the form.
func (f *AskForm) finish(options []int, other string) {
	q := f.question()
	var said []string
	for _, i := range options {
		f.answer.Selected[q.ID] = append(f.answer.Selected[q.ID], q.Options[i].ID)
		said = append(said, q.Options[i].Label)
	}
	if other != "" {
		f.answer.Other[q.ID] = other
		said = append(said, fmt.Sprintf("%q", other))
	}
	f.summary = append(f.summary, "✔ "+q.Header+": "+strings.Join(said, ", "))
	if f.q+1 == len(f.in.Questions) {
		f.done = true
		return
	}
	f.startQuestion(f.q + 1)
}

func (f *AskForm) startQuestion(i int) {
	f.q, f.cursor, f.mode = i, 0, askList
	f.toggled = map[int]bool{}
	f.input = newTextInput()
}
