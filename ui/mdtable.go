package ui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// table lays out a GFM table in the room the layout has: columns as wide
// as their widest cell when they fit, else narrowed (the widest first)
// with their cells wrapped inside them; a rule under the header row.
func (l *mdLayout) table(t *east.Table) []string {
	var rows [][]string
	ncol := len(t.Alignments)
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		style := l.theme.text
		if _, ok := row.(*east.TableHeader); ok {
			style = l.theme.term
		}
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.Join(l.inlineLines(c, style, "", ""), " "))
		}
		rows = append(rows, cells)
		ncol = max(ncol, len(cells))
	}
	if ncol == 0 {
		return nil
	}
	widths, words := make([]int, ncol), make([]int, ncol)
	for _, cells := range rows {
		for i, c := range cells {
			widths[i] = max(widths[i], ansi.StringWidth(c))
			words[i] = max(words[i], longestWord(c))
		}
	}
	// A row is " cell │ cell ": a space either side of each cell and a
	// bar between.
	fitColumns(widths, words, l.width-3*(ncol-1)-2)
	bar := sgr(l.theme.rule, "│")
	var out []string
	for k, cells := range rows {
		wrapped := make([][]string, ncol)
		height := 1
		for i := range ncol {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			wrapped[i] = wrapANSI(c, wrapOptions{width: widths[i], breakWords: true})
			height = max(height, len(wrapped[i]))
		}
		for h := range height {
			var b strings.Builder
			for i := range ncol {
				if i > 0 {
					b.WriteString(bar)
				}
				c := ""
				if h < len(wrapped[i]) {
					c = wrapped[i][h]
				}
				align := east.AlignNone
				if i < len(t.Alignments) {
					align = t.Alignments[i]
				}
				b.WriteString(" " + pad(c, widths[i], align) + " ")
			}
			out = append(out, strings.TrimRight(b.String(), " "))
		}
		if k == 0 {
			if _, ok := t.FirstChild().(*east.TableHeader); ok {
				seps := make([]string, ncol)
				for i, w := range widths {
					seps[i] = strings.Repeat("─", w+2)
				}
				out = append(out, sgr(l.theme.rule, strings.Join(seps, "┼")))
			}
		}
	}
	return out
}

// fitColumns narrows widths, the columns' natural widths, to add up to
// at most room. Each column first gets its longest word (so words are
// not cut), and what is left goes to the columns in proportion to what
// they still lack; when even the longest words do not fit, the columns
// that fit in a fair share keep their width and the others share the
// rest. No column gets fewer than four cells.
func fitColumns(widths, words []int, room int) {
	total, least := 0, 0
	for i, w := range widths {
		total += w
		least += min(words[i], w)
	}
	if total <= room {
		return
	}
	if least <= room {
		lack := total - least
		extra := room - least
		for i, w := range widths {
			base := min(words[i], w)
			widths[i] = base + (w-base)*extra/lack
		}
		return
	}
	order := make([]int, len(widths))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return widths[order[a]] < widths[order[b]] })
	left := room
	for k, i := range order {
		share := left / (len(order) - k)
		if widths[i] > share {
			widths[i] = max(share, 4)
		}
		left -= widths[i]
	}
}

// longestWord returns the width of the longest space-separated word of
// a styled cell.
func longestWord(s string) int {
	n := 0
	for _, w := range strings.Fields(ansi.Strip(s)) {
		n = max(n, ansi.StringWidth(w))
	}
	return n
}

// pad pads a styled cell with spaces to width cells, aligned.
func pad(s string, width int, align east.Alignment) string {
	gap := width - ansi.StringWidth(s)
	if gap <= 0 {
		return s
	}
	switch align {
	case east.AlignRight:
		return strings.Repeat(" ", gap) + s
	case east.AlignCenter:
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	}
	return s + strings.Repeat(" ", gap)
}
