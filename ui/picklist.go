package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Box states of a pick entry: no box (a plain choice), or a multi-select
// checkbox, off or on.
const (
	noBox = iota
	boxOff
	boxOn
)

// pickItem is one numbered entry of a pick list.
type pickItem struct {
	label string
	desc  string // shown dimmed after the label
	box   int
}

// pickLines renders each item as its own block of lines, numbered from 1,
// wrapped to width with continuation lines under the label. The entry
// under the cursor is marked with "›" and the cursor style, so it stays
// visible without colour.
func (p Palette) pickLines(items []pickItem, cursor, width int) [][]string {
	num := len(fmt.Sprint(len(items)))
	out := make([][]string, len(items))
	for i, it := range items {
		mark, style := "  ", p.Text
		if i == cursor {
			mark, style = p.Cursor.Render("›")+" ", p.Cursor
		}
		head := p.Dim.Render(fmt.Sprintf("%*d. ", num, i+1))
		indent := 2 + num + 2
		switch it.box {
		case boxOff:
			head += p.Text.Render("[ ]") + " "
			indent += 4
		case boxOn:
			head += p.Selected.Render("[x]") + " "
			indent += 4
			if i != cursor {
				style = p.Selected
			}
		}
		room := width - indent
		var body []string
		if it.desc != "" && ansi.StringWidth(it.label+" — "+it.desc) <= room {
			body = []string{style.Render(it.label) + p.Dim.Render(" — "+it.desc)}
		} else {
			body = wrapStyled(it.label, room, style)
			if it.desc != "" {
				body = append(body, wrapStyled(it.desc, room, p.Dim)...)
			}
		}
		lines := make([]string, len(body))
		for j, l := range body {
			if j == 0 {
				lines[j] = mark + head + l
				continue
			}
			lines[j] = strings.Repeat(" ", indent) + l
		}
		out[i] = lines
	}
	return out
}

// scrollBlocks fits blocks (one per entry) into avail lines around the
// block at cursor, and marks what is cut off above and below with "↑ N
// more" and "↓ N more". avail <= 0 means no limit. The window grows from
// the cursor one entry down, one entry up, in turn, so the cursor sits at
// the top or bottom at the ends of the list and near the middle between
// them: the window depends only on the cursor and the size, and moves one
// entry per key.
func (p Palette) scrollBlocks(blocks [][]string, cursor, avail int) []string {
	total := 0
	for _, b := range blocks {
		total += len(b)
	}
	if avail <= 0 || total <= avail {
		return flatten(blocks)
	}
	avail = max(avail, 3)
	fits := func(lo, hi int) bool {
		room := avail
		if lo > 0 {
			room-- // the "↑ more" line
		}
		if hi < len(blocks) {
			room-- // the "↓ more" line
		}
		return len(flatten(blocks[lo:hi])) <= room
	}
	lo, hi := cursor, cursor+1
	for grew := true; grew; {
		grew = false
		if hi < len(blocks) && fits(lo, hi+1) {
			hi, grew = hi+1, true
		}
		if lo > 0 && fits(lo-1, hi) {
			lo, grew = lo-1, true
		}
	}
	var out []string
	if lo > 0 {
		out = append(out, p.Dim.Render(fmt.Sprintf("  ↑ %d more", lo)))
	}
	out = append(out, flatten(blocks[lo:hi])...)
	if hi < len(blocks) {
		out = append(out, p.Dim.Render(fmt.Sprintf("  ↓ %d more", len(blocks)-hi)))
	}
	return out
}

func flatten(blocks [][]string) []string {
	var out []string
	for _, b := range blocks {
		out = append(out, b...)
	}
	return out
}

// wrapLines wraps plain text to width cells (at least 10) and returns its
// lines. Lines break at spaces only, never at a hyphen, so a wrapped
// command cannot be misread ("rm -" over "rf"); a word longer than the
// width is broken where the width ends.
func wrapLines(s string, width int) []string {
	width = max(width, 10)
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Split(para, " ") {
			switch w := ansi.StringWidth(word); {
			case line != "" && ansi.StringWidth(line)+1+w <= width:
				line += " " + word
				continue
			case line != "":
				out = append(out, line)
			}
			parts := strings.Split(ansi.Hardwrap(word, width, true), "\n")
			out = append(out, parts[:len(parts)-1]...)
			line = parts[len(parts)-1]
		}
		out = append(out, line)
	}
	return out
}

// wrapStyled wraps plain text to width and styles each line, so styles
// never straddle a line break.
func wrapStyled(s string, width int, st lipgloss.Style) []string {
	lines := wrapLines(s, width)
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// newTextInput returns a focused single-line editor for free text. Only
// its editing is used: the forms draw the text themselves, wrapped, so a
// long answer is shown whole. Pasting reaches it as tea.PasteMsg (the
// terminal's bracketed paste), never by reading the clipboard.
func newTextInput() textinput.Model {
	in := textinput.New()
	in.SetVirtualCursor(false)
	in.KeyMap.Paste.SetEnabled(false)
	in.KeyMap.AcceptSuggestion.SetEnabled(false)
	in.KeyMap.NextSuggestion.SetEnabled(false)
	in.KeyMap.PrevSuggestion.SetEnabled(false)
	_ = in.Focus() // the blink command is not wanted: the cursor is drawn still
	return in
}

// inputLines draws the text of in wrapped to width after a "› " marker,
// with the cursor as a reversed cell.
func (p Palette) inputLines(in textinput.Model, width int) []string {
	text := []rune(in.Value() + " ") // room for the cursor after the text
	pos := min(in.Position(), len(text)-1)
	cursor := p.Cursor.Reverse(true)
	out := []string{}
	at := 0
	for i, r := range breakRunes(text, max(width-4, 10)) {
		s := p.Text.Render(string(r))
		if k := pos - at; k >= 0 && k < len(r) {
			s = p.Text.Render(string(r[:k])) + cursor.Render(string(r[k])) + p.Text.Render(string(r[k+1:]))
		}
		at += len(r)
		lead := "    "
		if i == 0 {
			lead = "  " + p.Accent.Render("›") + " "
		}
		out = append(out, lead+s)
	}
	return out
}

// breakRunes splits text into lines of at most width cells, after the
// last space that fits or, in a word longer than a line, at the width.
// Every rune is kept (a space that ends a line stays on it), so a
// position in the text maps onto the lines by counting.
func breakRunes(text []rune, width int) [][]rune {
	var lines [][]rune
	for len(text) > 0 {
		cells, cut, space := 0, 0, -1
		for cut < len(text) {
			w := ansi.StringWidth(string(text[cut]))
			if cells+w > width {
				break
			}
			if text[cut] == ' ' {
				space = cut
			}
			cells += w
			cut++
		}
		if cut < len(text) && space >= 0 && text[cut] != ' ' {
			cut = space + 1 // break after the space
		}
		cut = max(cut, 1)
		lines = append(lines, text[:cut])
		text = text[cut:]
	}
	return lines
}
