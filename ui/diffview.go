package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// diffLines renders a unified diff for a prompt: added lines in the Added
// style, removed lines in the Removed style, hunk headers and file names
// dimmed, each line wrapped (never cut) to width, its continuation lines
// marked with "↪" and kept in its style. Text that is not a diff (a note such as
// "the file does not exist") is shown as it is. The +/- markers stay, so
// the diff reads the same without colour.
func (p Palette) diffLines(diff string, width int) []string {
	diff = strings.TrimRight(strings.ReplaceAll(diff, "\r\n", "\n"), "\n")
	var out []string
	for _, line := range strings.Split(diff, "\n") {
		line = strings.ReplaceAll(line, "\t", "    ")
		st := p.diffStyle(line)
		for i, l := range strings.Split(ansi.Hardwrap(line, max(width-1, 10), true), "\n") {
			if i > 0 {
				// A continuation: marked so it is not read as a line of
				// its own, in the style of the line it continues.
				out = append(out, p.Dim.Render("↪")+st.Render(l))
				continue
			}
			out = append(out, st.Render(l))
		}
	}
	return out
}

// diffStyle picks the style of one diff line by its first characters.
func (p Palette) diffStyle(line string) lipgloss.Style {
	switch {
	case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		return p.Accent
	case strings.HasPrefix(line, "@@"), strings.HasPrefix(line, `\`):
		return p.Dim
	case strings.HasPrefix(line, "+"):
		return p.Added
	case strings.HasPrefix(line, "-"):
		return p.Removed
	}
	return p.Text
}
