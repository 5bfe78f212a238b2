package ui

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrapping rendered Markdown. The renderer lays blocks out without
// wrapping, and the lines are wrapped here: at spaces only, never at
// hyphens, dots or commas ("out/report-" / "final.txt") nor inside a URL; a continuation line starts under the text
// of the line it continues (after its list marker or quote bar, at its
// code's indentation behind a dim ↪); colours go on across the break.

// wrapOptions say how lines are wrapped.
type wrapOptions struct {
	width int
	// code says the lines are a code block's: a continuation keeps the
	// line's indentation, and list-like text in it is code, not a list.
	code bool
	// breakWords breaks a word longer than a whole line at the line's
	// end (a screen that cannot show wider lines). Without it such a
	// word stays whole, and the terminal folds it where it must.
	breakWords bool
}

// wrapText wraps text, plain or styled, to width cells at spaces: never
// at a hyphen ("gpt-5-" / "nano"), and inside a word only when it is
// longer than a line.
func wrapText(s string, width int) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, wrapANSI(l, wrapOptions{width: max(width, 1), breakWords: true})...)
	}
	return out
}

// wrapRendered wraps every line of rendered Markdown.
func wrapRendered(s string, o wrapOptions) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, wrapANSI(l, o)...)
	}
	return strings.Join(out, "\n")
}

// codeMark starts a continuation of a wrapped code line, dim, after the
// line's indentation: it tells a wrapped line from a line of its own.
const codeMark = "\x1b[2m↪\x1b[22m "

// textLead matches what a continuation line of rendered text is indented
// by: the margin, quote bars, and a list item's marker.
var textLead = regexp.MustCompile(`^ *(?:│ *)*(?:(?:•|\d{1,9}\.|\[[ ✓xX]\]) +)?(?:\[[ ✓xX]\] +)?`)

// lead returns the visible start of plain (a line without escapes) that
// its continuation lines are indented by, and that indentation.
func lead(plain string, code bool) (head, hang string) {
	if code {
		head = plain[:len(plain)-len(strings.TrimLeft(plain, " "))]
		return head, head + codeMark
	}
	head = textLead.FindString(plain)
	var b strings.Builder
	for _, r := range head {
		if r == '│' {
			b.WriteRune(r)
			continue
		}
		b.WriteString(strings.Repeat(" ", ansi.StringWidth(string(r))))
	}
	return head, b.String()
}

// token is one escape sequence or one grapheme of a line.
type token struct {
	s     string
	width int
	esc   bool
}

func tokenize(line string) []token {
	var out []token
	var state byte
	for len(line) > 0 {
		seq, w, n, st := ansi.DecodeSequence(line, state, nil)
		if n <= 0 {
			n = 1
		}
		state = st
		out = append(out, token{s: seq, width: w, esc: w == 0 && len(seq) > 0 && seq[0] == '\x1b'})
		line = line[n:]
	}
	return out
}

// wrapANSI wraps one line of rendered text to o.width cells.
func wrapANSI(line string, o wrapOptions) []string {
	if ansi.StringWidth(line) <= o.width {
		return []string{line}
	}
	head, hang := lead(ansi.Strip(line), o.code)
	if ansi.StringWidth(hang) > o.width/2 {
		hang = "" // deep nesting on a narrow screen: use the whole line
	}
	w := &lineWriter{width: o.width, hang: hang, hangW: ansi.StringWidth(hang), breakWords: o.breakWords, code: o.code}
	toks := tokenize(line)
	// The head is written as it is: the line's own margin and marker.
	i, headW := 0, ansi.StringWidth(head)
	for ; i < len(toks) && (w.curW < headW || toks[i].esc); i++ {
		w.write(toks[i])
	}
	w.fresh = true
	var spaces, word []token
	spaceW, wordW := 0, 0
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case !t.esc && t.s == " ":
			if len(word) > 0 {
				w.place(spaces, spaceW, word, wordW)
				spaces, word, spaceW, wordW = nil, nil, 0, 0
			}
			spaces = append(spaces, t)
			spaceW += t.width
		default:
			word = append(word, t)
			wordW += t.width
		}
	}
	if len(word) > 0 {
		w.place(spaces, spaceW, word, wordW)
	} else if !w.fresh {
		for _, t := range spaces {
			w.write(t)
		}
	}
	return append(w.lines, w.cur.String())
}

// lineWriter builds the wrapped lines of one line, keeping track of the
// colours in effect so a continuation line starts with them.
type lineWriter struct {
	width, hangW int
	hang         string
	breakWords   bool
	code         bool

	lines []string
	cur   strings.Builder
	curW  int
	fresh bool     // nothing but the head or the hang on cur yet
	sgr   []string // the SGR sequences in effect since the last reset
}

// place writes a word and the spaces before it, on a new line when it
// does not fit; the spaces where a line breaks are dropped.
func (w *lineWriter) place(spaces []token, spaceW int, word []token, wordW int) {
	// Code folds a word longer than a line where the line ends; text
	// starts it on a line of its own.
	fold := w.code && w.breakWords && wordW > w.width-w.hangW
	if !w.fresh && !fold && w.curW+spaceW+wordW > w.width {
		w.newline()
	}
	// Spaces go before the word except where a line broke; a line's
	// own leading spaces stay.
	if !w.fresh || w.curW == 0 && len(w.lines) == 0 {
		for _, t := range spaces {
			w.write(t)
		}
	}
	for _, t := range word {
		if w.breakWords && !t.esc && w.curW+t.width > w.width && w.curW > w.hangW {
			w.newline()
		}
		w.write(t)
	}
	w.fresh = false
}

func (w *lineWriter) write(t token) {
	w.cur.WriteString(t.s)
	w.curW += t.width
	if t.esc && strings.HasPrefix(t.s, "\x1b[") && strings.HasSuffix(t.s, "m") {
		if t.s == "\x1b[m" || t.s == "\x1b[0m" {
			w.sgr = w.sgr[:0]
		} else {
			w.sgr = append(w.sgr, t.s)
		}
	}
}

// newline ends the line (resetting its colours) and starts a
// continuation with the hang and the colours in effect.
func (w *lineWriter) newline() {
	if len(w.sgr) > 0 {
		w.cur.WriteString("\x1b[m")
	}
	w.lines = append(w.lines, w.cur.String())
	w.cur.Reset()
	w.cur.WriteString(w.hang)
	w.curW = w.hangW
	for _, s := range w.sgr {
		w.cur.WriteString(s)
	}
	w.fresh = true
}
