package ui

import (
	"fmt"
	"strings"
)

// View draws the form in width×height cells (height <= 0: as tall as it
// needs). While a question is open it shows the summary lines of the
// questions already answered, the question, and its list, scrolled to the
// cursor when taller than the room left; once the form is done it shows
// only the summary lines, so an inline prompt leaves exactly what was
// chosen on the screen.
func (f *AskForm) View(width, height int) string {
	if width <= 0 {
		width = 80
	}
	done := f.p.summaryLines(f.summary)
	if f.done {
		return strings.Join(done, "\n")
	}
	q := f.question()
	head := f.p.Accent.Render(q.Header)
	if n := len(f.in.Questions); n > 1 {
		head += f.p.Dim.Render(fmt.Sprintf(" · %d of %d", f.q+1, n))
	}
	top := append([]string{head}, wrapStyled(q.Question, width, f.p.Text)...)
	top = append(top, "")
	var bottom []string
	if f.hint != "" {
		bottom = append(bottom, wrapStyled(f.hint, width, f.p.Warn)...)
	}
	bottom = append(bottom, wrapStyled(f.keysHelp(), width, f.p.Dim)...)

	var blocks [][]string
	cursor := 0
	switch f.mode {
	case askMenu:
		blocks, cursor = f.menuBlocks(width)
	case askOther:
		blocks = [][]string{f.otherLines(width)}
	default:
		blocks, cursor = f.p.pickLines(f.listItems(), f.cursor, width), f.cursor
	}
	avail := 0
	if height > 0 {
		avail = height - len(done) - len(top) - len(bottom) - 1
		// Earlier summary lines give way before the list shrinks below
		// three lines.
		if need := min(len(flatten(blocks)), 3); avail < need {
			drop := min(need-avail, len(done))
			done, avail = done[drop:], avail+drop
		}
	}
	lines := append(append([]string(nil), done...), top...)
	lines = append(lines, f.p.scrollBlocks(blocks, cursor, avail)...)
	lines = append(lines, "")
	return strings.Join(append(lines, bottom...), "\n")
}

// summaryLines styles summary lines: the leading mark in the OK or Err
// style, the rest as text.
func (p Palette) summaryLines(summary []string) []string {
	out := make([]string, len(summary))
	for i, s := range summary {
		mark, rest, _ := strings.Cut(s, " ")
		st := p.OK
		if mark == "✗" {
			st = p.Err
		}
		out[i] = st.Render(mark) + " " + p.Text.Render(rest)
	}
	return out
}

// listItems describes the current question's entries for pickLines.
func (f *AskForm) listItems() []pickItem {
	q := f.question()
	var items []pickItem
	for _, e := range f.entries() {
		switch {
		case e.other:
			items = append(items, pickItem{label: "Other (type your own)"})
		case e.option < 0:
			items = append(items, pickItem{label: "Skip"})
		default:
			it := pickItem{label: q.Options[e.option].Label, desc: q.Options[e.option].Description}
			if f.in.Multiple() {
				it.box = boxOff
				if f.toggled[e.option] {
					it.box = boxOn
				}
			}
			items = append(items, it)
		}
	}
	return items
}

// menuBlocks draws the Esc menu and returns the index of its cursor.
func (f *AskForm) menuBlocks(width int) ([][]string, int) {
	labels := map[int]string{menuSkip: "Skip these questions", menuBack: "Back to the question", menuCancel: "Cancel"}
	var items []pickItem
	cursor := 0
	for i, m := range f.menuItems() {
		items = append(items, pickItem{label: labels[m]})
		if m == f.menu {
			cursor = i
		}
	}
	return f.p.pickLines(items, cursor, width), cursor
}

// otherLines draws the editor for the "other" answer, with the options it
// will accompany in a multiple-select question.
func (f *AskForm) otherLines(width int) []string {
	lines := []string{"  " + f.p.Text.Render("Your answer:")}
	lines = append(lines, f.p.inputLines(f.input, width)...)
	if ids := f.chosen(); len(ids) > 0 {
		var labels []string
		for _, i := range ids {
			labels = append(labels, f.question().Options[i].Label)
		}
		lines = append(lines, wrapStyled("  with: "+strings.Join(labels, ", "), width, f.p.Dim)...)
	}
	return lines
}

// keysHelp is the line of keys for what is showing.
func (f *AskForm) keysHelp() string {
	switch {
	case f.mode == askMenu:
		return "↑↓ move · enter choose · esc back to the question"
	case f.mode == askOther:
		return "enter confirm · esc back to the list · ctrl+c cancel"
	case f.in.Multiple():
		return "↑↓ move · space or 1-9 toggle · enter confirm · esc more"
	}
	return "↑↓ move · enter or 1-9 choose · esc more"
}
