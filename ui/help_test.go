package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestHelpWrapsAtEightyColumns: /help on an 80-column terminal says every
// key's and command's description whole, wrapped under its column, and
// no line is wider than the screen.
func TestHelpWrapsAtEightyColumns(t *testing.T) {
	l := &look{pal: NewPalette(false, true)}
	const width = 80
	lines := help{cmds: commands}.draw(l, width)
	var plain []string
	for _, s := range lines {
		s = ansi.Strip(s)
		if w := ansi.StringWidth(s); w > width {
			t.Errorf("line %q is %d cells wide, over %d", s, w, width)
		}
		plain = append(plain, strings.TrimSpace(s))
	}
	text := strings.Join(strings.Fields(strings.Join(plain, " ")), " ")
	if strings.Contains(text, "…") {
		t.Errorf("a description was cut:\n%s", strings.Join(lines, "\n"))
	}
	for _, k := range keys {
		if !strings.Contains(text, k[1]) {
			t.Errorf("the description of %s is not said whole: %q", k[0], k[1])
		}
	}
	for _, c := range commands {
		if !strings.Contains(text, c.Desc) {
			t.Errorf("the description of %s is not said whole: %q", c.Name, c.Desc)
		}
	}
}
