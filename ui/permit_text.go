package ui

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A permission prompt shows the person exactly what will run: every
// character of a command is on screen as itself or as a visible stand-in,
// never removed (Sanitize's way for text that is only read) and never
// passed to the terminal. The stand-ins are the control pictures of
// Unicode (␍ for a carriage return, ␛ for ESC, ␉ for a tab) and ⟨U+202E⟩
// for invisible or look-alike characters; a control picture or a "⟨" that
// is in the command itself is shown as ⟨U+240D⟩ too, so every picture and
// bracket on screen stands for a character that is not what it seems.

// visibleCommand returns s with every character other than newline that
// would not show as itself made visible (see above).
func visibleCommand(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "⟨0x%02X⟩", s[i])
		case r == '\n':
			b.WriteByte('\n')
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('␡')
		case r == ' ':
			b.WriteByte(' ')
		case hidden(r) || r == '⟨':
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// hidden reports whether r would not be seen for what it is: C1 controls,
// format characters (zero-width spaces and joiners, the bidirectional
// overrides), line and paragraph separators, spaces other than the ASCII
// one, characters with no glyph, and the control pictures themselves.
func hidden(r rune) bool {
	switch {
	case r >= 0x80 && r < 0xa0, r >= 0x2400 && r <= 0x243f:
		return true
	case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs, unicode.Co, unicode.Cs):
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0: // Hangul fillers
		return true
	}
	return !unicode.IsPrint(r) && !unicode.IsGraphic(r)
}

// shownLine is one line of a command as a prompt draws it: its text with
// controls made visible, or a run of blank lines collapsed to a count.
type shownLine struct {
	text   string
	blanks int // > 0: the line stands for this many blank lines
}

// commandShape splits a command into the lines a prompt draws: every
// line, with its controls made visible, except that two or more blank
// lines in a row (empty or only spaces) become one line that counts
// them, so a command cannot push what it runs out of sight with
// newlines.
func commandShape(cmd string) []shownLine {
	lines := strings.Split(visibleCommand(cmd), "\n")
	var out []shownLine
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && strings.TrimLeft(lines[j], " ") == "" {
			j++
		}
		switch {
		case j-i >= 2:
			out = append(out, shownLine{blanks: j - i})
			i = j
		default:
			out = append(out, shownLine{text: lines[i]})
			i++
		}
	}
	return out
}

// blankRun is what stands for n blank lines.
func blankRun(n int) string { return fmt.Sprintf("⋯ %d blank lines", n) }

// ruleLine is s on one line for a label: controls made visible, each
// newline shown as ⏎ and a run of them as ⏎×N, at most width cells (the
// middle cut out and marked with …).
func ruleLine(s string, width int) string {
	shape := commandShape(s)
	var b strings.Builder
	for i, l := range shape {
		if l.blanks == 0 {
			if i > 0 && shape[i-1].blanks == 0 {
				b.WriteString("⏎")
			}
			b.WriteString(l.text)
			continue
		}
		// A run between two lines holds one newline more than its
		// blank lines; at either end of s, one fewer.
		n := l.blanks + 1
		if i == 0 {
			n--
		}
		if i == len(shape)-1 {
			n--
		}
		fmt.Fprintf(&b, "⏎×%d", n)
	}
	return cutMiddle(b.String(), max(width, 10))
}

// cutMiddle shortens s to width cells by replacing its middle with "…",
// keeping both ends, where what a rule allows is most often told apart.
func cutMiddle(s string, width int) string {
	if widthOf(s) <= width {
		return s
	}
	r := []rune(s)
	head, tail := (width-1)/2, width-1-(width-1)/2
	for widthOf(string(r[:head])) > (width-1)/2 && head > 0 {
		head--
	}
	for widthOf(string(r[len(r)-tail:])) > width-1-(width-1)/2 && tail > 0 {
		tail--
	}
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
