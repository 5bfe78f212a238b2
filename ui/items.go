package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// look is what the transcript's items are drawn with: the palette, the
// Markdown renderer, the spinner's frame and the person's toggles. gen
// changes whenever something that changes finished items does, so their
// cached lines are redrawn.
type look struct {
	pal          Palette
	md           *renderer
	frame        int
	now          time.Time
	showThinking bool
	gen          int
}

// item is one entry of the transcript. lines draws it width columns wide;
// items cache what they drew and redraw only when the width, the look's
// gen or their own content changed.
type item interface {
	lines(l *look, width int) []string
}

// cache holds an item's drawn lines and what they were drawn for.
type cache struct {
	width, gen, version int
	out                 []string
	valid               bool
}

func (c *cache) get(width, gen, version int) ([]string, bool) {
	if c.valid && c.width == width && c.gen == gen && c.version == version {
		return c.out, true
	}
	return nil, false
}

// put keeps out, drawn for width, gen and version, and returns it. Every
// line passes keepStyle first: drawn once and kept, a line costs the
// guard once, not once a frame.
func (c *cache) put(width, gen, version int, out []string) []string {
	guard(out)
	*c = cache{width: width, gen: gen, version: version, out: out, valid: true}
	return out
}

// guard passes each of lines through keepStyle, in place: only llmrt's
// own colours and attributes reach the screen, whatever text a line was
// drawn from. It returns lines.
func guard(lines []string) []string {
	for i, l := range lines {
		lines[i] = keepStyle(l)
	}
	return lines
}

// userItem is a message the person sent.
type userItem struct {
	text string
	c    cache
}

func (u *userItem) lines(l *look, width int) []string {
	if out, ok := u.c.get(width, l.gen, 0); ok {
		return out
	}
	body := wrapText(Sanitize(u.text), max(width-2, 10))
	out := make([]string, len(body))
	for i, s := range body {
		mark := "  "
		if i == 0 {
			mark = "› "
		}
		out[i] = l.pal.User.Render(mark + s)
	}
	return u.c.put(width, l.gen, 0, out)
}

// noteKind says how a note is styled.
type noteKind int

const (
	noteInfo noteKind = iota
	noteWarn
	noteError
	noteChoice // what the person chose at a form: shown as the form says it
)

// noteItem is a line from llmrt itself: a warning, an error, what was
// chosen at a form.
type noteItem struct {
	kind noteKind
	text string
	c    cache
}

func (n *noteItem) lines(l *look, width int) []string {
	if out, ok := n.c.get(width, l.gen, 0); ok {
		return out
	}
	// Notes carry errors and warnings, which quote what they are about.
	text := Sanitize(n.text)
	var out []string
	switch n.kind {
	case noteChoice:
		for _, s := range wrapText(text, max(width, 10)) {
			out = append(out, l.pal.Dim.Render(s))
		}
	case noteError:
		// An error reads as a headline and, dim under it, the detail.
		head, detail := headline(oneLine(text), width-2)
		for i, s := range wrapText(head, max(width-2, 10)) {
			mark := "✗ "
			if i > 0 {
				mark = "  "
			}
			out = append(out, l.pal.Err.Render(mark+s))
		}
		if detail != "" {
			for _, s := range wrapText(detail, max(width-2, 10)) {
				out = append(out, l.pal.Dim.Render("  "+s))
			}
		}
	default:
		style, mark := l.pal.Dim, "· "
		if n.kind == noteWarn {
			style, mark = l.pal.Warn, "! "
		}
		for i, s := range wrapText(text, max(width-2, 10)) {
			if i > 0 {
				mark = "  "
			}
			out = append(out, style.Render(mark+s))
		}
	}
	return n.c.put(width, l.gen, 0, out)
}

// headline splits an error message too long for one line of room cells
// into its headline, the words before its first clause ends (": ", "; "
// or ". " after a few words: "openai: 400 from api.openai.com"), and the
// detail after it. A message that fits has no detail.
func headline(msg string, room int) (head, detail string) {
	if ansi.StringWidth(msg) <= room {
		return msg, ""
	}
	const least = 12 // "openai: 400" is not a headline yet
	best := -1
	for _, sep := range []string{": ", "; ", ". "} {
		if i := strings.Index(msg[min(least, len(msg)):], sep); i >= 0 && (best < 0 || i+least < best) {
			best = i + least
		}
	}
	if best < 0 {
		return msg, ""
	}
	return msg[:best], msg[best+2:]
}

// footerItem is the dim line under an answer: model, time, tokens.
type footerItem struct {
	text string
	c    cache
}

func (f *footerItem) lines(l *look, width int) []string {
	if out, ok := f.c.get(width, l.gen, 0); ok {
		return out
	}
	return f.c.put(width, l.gen, 0, []string{l.pal.Dim.Render(cut("  "+Sanitize(f.text), width))})
}

// thinkItem is the model's reasoning in one model call: one dim line
// while collapsed, the whole text when the person expands reasoning.
type thinkItem struct {
	text    strings.Builder
	version int
	c       cache
	// start is when the reasoning began; took is set once the model
	// moved on from it (its text, a call, the end of the call).
	start time.Time
	took  time.Duration
	done  bool
}

func (t *thinkItem) add(s string, at time.Time) {
	if t.start.IsZero() {
		t.start = at
	}
	t.text.WriteString(s)
	t.version++
}

// finish marks the reasoning over at at.
func (t *thinkItem) finish(at time.Time) {
	if t.done {
		return
	}
	t.done, t.took = true, max(at.Sub(t.start), 0)
	t.version++
}

// thought says how long the finished reasoning took, when known.
func (t *thinkItem) thought() string {
	if t.start.IsZero() || t.took == 0 {
		return "Thought"
	}
	return "Thought for " + Took(t.took)
}

// latestSentence is the last whole sentence of text, or, before one has
// ended, the words so far; cut at a word to room cells.
func latestSentence(text string, room int) string {
	flat := oneLine(text)
	end := -1
	for i := len(flat) - 1; i > 0; i-- {
		if (flat[i] == ' ') && strings.ContainsRune(".!?:", rune(flat[i-1])) {
			end = i
			break
		}
	}
	s := flat
	if end > 0 {
		start := 0
		for i := end - 2; i > 0; i-- {
			if flat[i] == ' ' && strings.ContainsRune(".!?:", rune(flat[i-1])) {
				start = i + 1
				break
			}
		}
		s = flat[start:end]
	}
	if ansi.StringWidth(s) <= room {
		return s
	}
	cut := ansi.Truncate(s, room-1, "")
	if i := strings.LastIndexByte(cut, ' '); i > room/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

func (t *thinkItem) lines(l *look, width int) []string {
	if out, ok := t.c.get(width, l.gen, t.version); ok {
		return out
	}
	text := strings.TrimSpace(t.text.String())
	if !l.showThinking {
		if t.done {
			return t.c.put(width, l.gen, t.version, []string{l.pal.Dim.Render("✻ " + t.thought() + " · ctrl+r shows it")})
		}
		// The latest whole sentence says what the model is thinking
		// about now.
		line := "✻ Thinking: " + latestSentence(text, max(width-14, 10))
		return t.c.put(width, l.gen, t.version, []string{l.pal.Dim.Render(line)})
	}
	out := []string{l.pal.Dim.Render("✻ Thinking")}
	if t.done {
		out = []string{l.pal.Dim.Render("✻ " + t.thought())}
	}
	for _, s := range wrapText(text, max(width-2, 10)) {
		out = append(out, l.pal.Dim.Render("  "+s))
	}
	return t.c.put(width, l.gen, t.version, out)
}
