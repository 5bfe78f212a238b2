package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// margin is the left margin of reports, the one rendered Markdown has, so
// a report lines up with the answers around it.
const margin = "  "

// lastMin is the fewest cells a table's last column gets before optional
// columns are left out to make room.
const lastMin = 16

// column is one column of a table.
type column struct {
	title string
	// style draws the column's cells; the zero style draws them as they are.
	style lipgloss.Style
	// right aligns the cells right (numbers).
	right bool
	// min is the fewest cells the column takes, so that tables drawn one
	// under the other can line up.
	min int
	// optional columns are left out, rightmost first, when the last
	// column would get fewer than lastMin cells.
	optional bool
}

// table lays rows out in columns two cells apart, under a dim header (no
// header when no column has a title). Every column but the last is as wide
// as its widest cell, at most two fifths of the screen; the last takes the
// room left and its cells are cut to it (or wrapped, with wrap), so each
// line fits the width.
type table struct {
	cols []column
	rows [][]string
	// wrap says the last column's cells wrap onto lines of their own,
	// under the column, instead of being cut.
	wrap bool
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// lines draws the table width cells wide, after the report margin.
func (t *table) lines(p Palette, width int) []string {
	if len(t.cols) == 0 {
		return nil
	}
	widths, keep := t.layout(width)
	var out []string
	titles := make([]string, len(t.cols))
	for i, c := range t.cols {
		titles[i] = c.title
	}
	if strings.Join(titles, "") != "" {
		out = append(out, t.line(titles, widths, keep, width, func(int) lipgloss.Style { return p.Dim }))
	}
	style := func(i int) lipgloss.Style { return t.cols[i].style }
	last := len(t.cols) - 1
	for _, r := range t.rows {
		if !t.wrap || !keep[last] || widthOf(r[last]) <= widths[last] {
			out = append(out, t.line(r, widths, keep, width, style))
			continue
		}
		parts := wrapText(r[last], widths[last])
		first := append(append([]string(nil), r[:last]...), parts[0])
		out = append(out, t.line(first, widths, keep, width, style))
		indent := strings.Repeat(" ", t.lastStart(widths, keep))
		for _, s := range parts[1:] {
			out = append(out, indent+style(last).Render(s))
		}
	}
	return out
}

// lastStart is the cell at which the last column starts.
func (t *table) lastStart(widths []int, keep []bool) int {
	at := widthOf(margin)
	for i := range len(t.cols) - 1 {
		if keep[i] {
			at += widths[i] + 2
		}
	}
	return at
}

// layout gives each column its width and says which are kept.
func (t *table) layout(width int) (widths []int, keep []bool) {
	n := len(t.cols)
	widths, keep = make([]int, n), make([]bool, n)
	for i := range t.cols {
		widths[i], keep[i] = min(t.widest(i), max(width*2/5, 8)), true
	}
	room := func() int { return width - t.lastStart(widths, keep) }
	for i := n - 2; i >= 0 && room() < lastMin; i-- {
		keep[i] = !t.cols[i].optional
	}
	widths[n-1] = max(room(), 4)
	if t.cols[n-1].right {
		// Right-aligned cells line up at their own right edge, not the
		// screen's.
		widths[n-1] = min(widths[n-1], t.widest(n-1))
	}
	return widths, keep
}

// widest is the width of column i's widest cell, title included.
func (t *table) widest(i int) int {
	w := max(widthOf(t.cols[i].title), t.cols[i].min)
	for _, r := range t.rows {
		w = max(w, widthOf(r[i]))
	}
	return w
}

// line draws one row: each kept cell cut and padded to its column's
// width and drawn in its style; the last cell is cut to the room left.
func (t *table) line(cells []string, widths []int, keep []bool, width int, style func(int) lipgloss.Style) string {
	var b strings.Builder
	b.WriteString(margin)
	first := true
	for i, c := range t.cols {
		if !keep[i] {
			continue
		}
		if !first {
			b.WriteString("  ")
		}
		first = false
		s := cut(cells[i], widths[i])
		pad := strings.Repeat(" ", widths[i]-widthOf(s))
		switch {
		case c.right:
			s = pad + s
		case i < len(t.cols)-1:
			s += pad
		}
		b.WriteString(style(i).Render(s))
	}
	return cut(strings.TrimRight(b.String(), " "), width)
}
