package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// literalAnswers are answers a model writes whose every character must
// reach the screen: generics and HTML-like text, entities, tabs, wide
// characters, a 300-column code line, nested lists, tables. visible is
// what a person should read when it is not the source itself: the source
// without its Markdown markup, with list bullets, whitespace aside.
var literalAnswers = []struct {
	name, src, visible string
}{
	{name: "generics", src: "Return a Vec<String> instead of a Map<K, V>. Compare a<b and c>d. Use the <details> element."},
	{name: "html inline", src: "Created out/<a>&b.txt and removed <b>bold</b> tags, a <br/> and <!-- a comment --> from <https://example.com/?a=1&b=2>."},
	{name: "html block", src: "<details>\n<summary>More</summary>\n\nHidden <i>text</i> &amp; more.\n</details>\n"},
	{name: "entities", src: "Entities stay: &amp; &lt; &gt; &copy; &#169; &#x1F600; &nbsp; and a lone & in AT&T."},
	{name: "code spans", src: "Inline `a<b && c>d`, `&amp;` and `\\<` keep their text.",
		visible: "Inline a<b && c>d, &amp; and \\< keep their text."},
	{name: "escapes", src: "Escaped \\<tag\\> and \\& show without the backslash.", visible: "Escaped <tag> and & show without the backslash."},
	{name: "tabs", src: "Columns:\ta\tb\n\n```\nfunc f() {\n\tif x < 1 && y > 2 {\n\t\treturn \"<ok>\"\n\t}\n}\n```\n",
		visible: "Columns: a b\nfunc f() {\n\tif x < 1 && y > 2 {\n\t\treturn \"<ok>\"\n\t}\n}"},
	{name: "wide characters", src: strings.Repeat("日本語のテキストはスペースなしで続きます。", 5) + " Emoji 🎉👍🏽👨‍👩‍👧 and 漢字 mixed <b>in</b> a line."},
	{name: "300-column code", src: "```go\nfunc main() {\n\tresult := compute(" + strings.Repeat("argument, ", 27) + "last)\n\tkey := \"" + strings.Repeat("x", 150) + "\"\n}\n```\n",
		visible: "func main() {\n\tresult := compute(" + strings.Repeat("argument, ", 27) + "last)\n\tkey := \"" + strings.Repeat("x", 150) + "\"\n}"},
	{name: "nested lists",
		src:     "- one <T>\n  - two &amp; three, with text long enough to wrap around the edge at eighty columns or so\n    - three `x<y>`\n- four\n\n1. first <b>\n2. second & last",
		visible: "• one <T> • two &amp; three, with text long enough to wrap around the edge at eighty columns or so • three x<y> • four 1. first <b> 2. second & last"},
	{name: "table",
		src:     "| Type | Example |\n|---|---|\n| generic | `Vec<String>` |\n| html | <b>bold</b> |\n| entity | &amp; |\n| 漢字 | 🎉 |\n",
		visible: "Type Example generic Vec<String> html <b>bold</b> entity &amp; 漢字 🎉"},
	{name: "long words",
		src: "See https://example.com/a/very/long/path/that/goes/on/and/on/and/on/forever/and/ever/more/and/more/stuff/that/is/longer/than/a/line.html?x=1&y=2 " +
			"for more, and out/report-final-version.txt, out/second-report-final-version.txt and out/third-report-final-version.txt too."},
	{name: "quote", src: "> Quoted <tag> text & more text that is long enough to wrap around the edge of the screen at eighty columns, with `code<x>` in it.",
		visible: "Quoted <tag> text & more text that is long enough to wrap around the edge of the screen at eighty columns, with code<x> in it."},
	{name: "heading and emphasis", src: "# Title <T>\n\nSome **bold <b>** and _em &amp;_ text.", visible: "Title <T> Some bold <b> and em &amp; text."},
}

// TestMarkdownShowsEveryCharacter renders each answer as the chat does
// and as llmrt run does on a terminal, at 80 and 120 columns, and checks
// that the visible text is the source's, word for word: nothing dropped,
// no entity decoded, no word cut where it fits on a line. The screens are
// kept as golden files for a person to read.
func TestMarkdownShowsEveryCharacter(t *testing.T) {
	for _, width := range []int{80, 120} {
		for _, chat := range []bool{true, false} {
			var all strings.Builder
			for _, tc := range literalAnswers {
				var out string
				if chat {
					it := &textItem{}
					it.add(tc.src)
					it.finish()
					out = strings.Join(it.lines(&look{md: newRenderer(true)}, width), "\n")
				} else {
					var b bytes.Buffer
					w := NewMarkdownWriter(&b, width)
					w.Write([]byte(tc.src))
					w.Flush()
					out = b.String()
				}
				want := tc.visible
				if want == "" {
					want = tc.src
				}
				where := fmt.Sprintf("%s at %d columns (chat %v)", tc.name, width, chat)
				checkVisible(t, where, out, want, width-6)
				for _, l := range strings.Split(ansi.Strip(out), "\n") {
					if chat && ansi.StringWidth(l) > width {
						t.Errorf("%s: a line is %d cells wide, over the screen's %d: %q", where, ansi.StringWidth(l), width, l)
					}
				}
				fmt.Fprintf(&all, "── %s\n%s\n", tc.name, out)
			}
			kind := "run"
			if chat {
				kind = "chat"
			}
			golden(t, fmt.Sprintf("literal_%s_%d", kind, width), all.String())
		}
	}
}

// checkVisible compares the visible text of out with want, whitespace
// aside (box-drawing characters of tables and quotes are decoration):
// the same characters in the same order. And no word of want that fits
// on a line (room cells) is split across two lines.
func checkVisible(t *testing.T, where, out, want string, room int) {
	t.Helper()
	decoration := strings.NewReplacer("│", "", "─", "", "┼", "")
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	var lines []string // the visible lines, squeezed
	for _, l := range strings.Split(ansi.Strip(out), "\n") {
		// A wrapped code line goes on behind its mark.
		if rest, ok := strings.CutPrefix(strings.TrimLeft(l, " "), "↪ "); ok {
			l = rest
		}
		lines = append(lines, squeeze(decoration.Replace(l)))
	}
	got := strings.Join(lines, "")
	if exp := squeeze(want); got != exp {
		i := 0
		for i < min(len(got), len(exp)) && got[i] == exp[i] {
			i++
		}
		t.Errorf("%s: the visible text differs from the source at byte %d:\n got %q\nwant %q\n%s", where, i,
			got[max(i-20, 0):min(i+40, len(got))], exp[max(i-20, 0):min(i+40, len(exp))], ansi.Strip(out))
		return
	}
	// ends[k] is where line k ends in got.
	ends := make([]int, len(lines))
	n := 0
	for k, l := range lines {
		n += len(l)
		ends[k] = n
	}
	lineOf := func(at int) int {
		for k, e := range ends {
			if at < e {
				return k
			}
		}
		return len(ends)
	}
	at := 0
	for _, w := range strings.Fields(want) {
		i := strings.Index(got[at:], w)
		if i < 0 {
			continue
		}
		start, end := at+i, at+i+len(w)
		if ansi.StringWidth(w) <= room && lineOf(start) != lineOf(end-1) {
			t.Errorf("%s: %q is cut across two lines\n%s", where, w, ansi.Strip(out))
		}
		at = end
	}
}
