package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestMarkdownRendersEachConstruct renders each kind of Markdown a model
// writes and checks what a person sees (ANSI stripped) and, where the
// look is the point, the styles.
func TestMarkdownRendersEachConstruct(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // lines or parts of lines of the stripped output
		not       []string // what must not show
		styled    []string // raw output must hold these (SGR)
	}{
		{name: "heading 1", src: "# Title", want: []string{"   Title"}, not: []string{"#"}, styled: []string{"48;5;63"}},
		{name: "heading levels", src: "## Two\n\n### Three\n\n###### Six", want: []string{"  ## Two", "  ### Three", "  ###### Six"}, styled: []string{"38;5;39;1m## "}},
		{name: "emphasis", src: "a *em* b **strong** c ~~gone~~ d", want: []string{"  a em b strong c gone d"},
			styled: []string{";3mem\x1b", ";1mstrong\x1b", ";9mgone\x1b"}},
		{name: "nested emphasis", src: "***both***", want: []string{"  both"}, styled: []string{";3;1mboth", ";1;3mboth"}},
		{name: "code span", src: "run `go vet` now", want: []string{"  run \u00a0go vet\u00a0 now"}, styled: []string{"48;5;236m\u00a0go vet"}},
		{name: "link", src: "see [the docs](https://example.com/d) here", want: []string{"  see the docs https://example.com/d here"}, styled: []string{"38;5;30;4mhttps://example.com/d"}},
		{name: "link to itself", src: "[https://x.dev](https://x.dev)", want: []string{"  https://x.dev"}, not: []string{"https://x.dev https://x.dev"}},
		{name: "autolink as written", src: "go to www.example.com and https://a.io/x?y=1&z=2.", want: []string{"  go to www.example.com and https://a.io/x?y=1&z=2."}},
		{name: "bracketed autolink", src: "<https://a.io>", want: []string{"  <https://a.io>"}},
		{name: "image", src: "![a cat](https://img.io/c.png)", want: []string{"  Image: a cat → https://img.io/c.png"}},
		{name: "rule", src: "---", want: []string{"  ────────"}},
		{name: "quote", src: "> one\n> two\n>\n> three", want: []string{"  │ one two", "  │", "  │ three"}},
		{name: "bullets nested", src: "- a\n- b\n  - c\n    - d", want: []string{"  • a", "  • b", "    • c", "      • d"}},
		{name: "ordered from 3", src: "3. c\n4. d", want: []string{"  3. c", "  4. d"}},
		{name: "tasks", src: "- [ ] open\n- [x] done", want: []string{"  [ ] open", "  [✓] done"}, not: []string{"•"}},
		{name: "loose list", src: "- a\n\n- b", want: []string{"  • a\n\n  • b"}},
		{name: "item with two paragraphs", src: "1. first\n\n   more of it", want: []string{"  1. first\n\n     more of it"}},
		{name: "fenced code", src: "```go\nfunc f() {}\n```", want: []string{"    func f() {}"}, not: []string{"```"}, styled: []string{"38;5;39mfunc"}},
		{name: "indented code", src: "    x := 1\n    y := 2", want: []string{"    x := 1", "    y := 2"}},
		{name: "unknown language plain", src: "```klingon\nfunc 42\n```", want: []string{"    func 42"}, styled: []string{"38;5;251mfunc 42"}},
		{name: "definition list", src: "Term\n: what it means", want: []string{"  Term", "      what it means"}, styled: []string{"1mTerm"}},
		{name: "html as text", src: "a <b>bold</b> &amp; <br/> tag", want: []string{"  a <b>bold</b> &amp; <br/> tag"}},
		{name: "hard break", src: "one\\\ntwo", want: []string{"  one\n  two"}},
		{name: "table", src: "| Name | Qty |\n|:--|--:|\n| apple | 3 |\n| kiwi | 12 |",
			want: []string{"   Name  │ Qty", "  ───────┼─────", "   apple │   3", "   kiwi  │  12"}, styled: []string{"1mName"}},
	}
	r := newRenderer(true)
	for _, tc := range tests {
		out := r.render(tc.src, 80)
		got := plain(out)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q renders\n%s\nwant it to hold %q", tc.name, tc.src, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q renders\n%s\nwhich should not hold %q", tc.name, tc.src, got, n)
			}
		}
		if len(tc.styled) > 0 {
			found := false
			for _, s := range tc.styled {
				found = found || strings.Contains(out, s)
			}
			if !found {
				t.Errorf("%s: %q renders %q, want one of %q", tc.name, tc.src, out, tc.styled)
			}
		}
	}
}

// TestMarkdownTableFitsTheWidth: a table wider than the screen is
// narrowed, its cells wrapped inside their columns, every line within
// the width and every word still there.
func TestMarkdownTableFitsTheWidth(t *testing.T) {
	long := "a rather long description of what this column holds, long enough to need several lines on a narrow screen"
	src := "| Key | Description | Default |\n|---|---|---|\n| timeout_ms | " + long + " | 30000 |\n| retries | few | 3 |"
	r := newRenderer(true)
	for _, width := range []int{40, 60, 80, 120} {
		got := plain(r.render(src, width))
		for _, l := range strings.Split(got, "\n") {
			if w := ansi.StringWidth(l); w > width-4 {
				t.Errorf("width %d: line is %d cells: %q", width, w, l)
			}
		}
		for _, word := range strings.Fields(long + " timeout_ms 30000 retries") {
			// At 40 columns the longest words do not fit side by side
			// and are cut; wider, every word stays whole.
			if width > 40 && !strings.Contains(got, word) {
				t.Errorf("width %d: %q lost:\n%s", width, word, got)
			}
		}
		if strings.Count(got, "┼") != 2 {
			t.Errorf("width %d: want one header rule across three columns:\n%s", width, got)
		}
	}
}

// TestMarkdownLightTheme: a light background gets its own colours.
func TestMarkdownLightTheme(t *testing.T) {
	dark, light := newRenderer(true).render("text and `code`", 80), newRenderer(false).render("text and `code`", 80)
	if dark == light || !strings.Contains(light, "38;5;234m") || !strings.Contains(light, "48;5;254") {
		t.Errorf("light theme: got %q (dark %q)", light, dark)
	}
}

// TestMarkdownRenderIsCleanOnHostileText: escape sequences or control
// characters in any part of the Markdown (text, code, link addresses,
// entities that decode to controls) never reach the output; only SGR
// does.
func TestMarkdownRenderIsCleanOnHostileText(t *testing.T) {
	srcs := []string{
		"text \x1b]0;title\x07 and \x1b[2J",
		"[x](https://a.io/\x1b[2J) ![y](\x9b2J)",
		"```go\nx := \"\x1b]52;c;AAAA\x07\"\n```",
		"entity &#27;[2J and &#x9b;2J and &#x1b;",
		"| a\x1b[H | b |\n|---|---|\n| \x07 | \x1b[31mred |",
	}
	r := newRenderer(true)
	for _, src := range srcs {
		out := r.render(src, 60)
		rest := out
		for {
			i := strings.IndexByte(rest, 0x1b)
			if i < 0 {
				break
			}
			j := strings.IndexByte(rest[i:], 'm')
			seq := rest[i : i+max(j+1, 1)]
			if j < 0 || strings.ContainsFunc(seq[2:len(seq)-1], func(r rune) bool { return (r < '0' || r > '9') && r != ';' }) || seq[1] != '[' {
				t.Errorf("%q: output holds %q, not an SGR sequence: %q", src, seq, out)
				break
			}
			rest = rest[i+len(seq):]
		}
		if s := ansi.Strip(out); strings.IndexByte(s, 0x07) >= 0 || strings.IndexByte(s, 0x9b) >= 0 {
			t.Errorf("%q: output holds a control character: %q", src, out)
		}
	}
}

// FuzzMarkdownRender: no input makes the renderer panic, and what it
// writes fits the chat's screen.
func FuzzMarkdownRender(f *testing.F) {
	for _, s := range append(mdBlocks, "- [x] a\n  1. b\n     > c", "| a |\n|---|\n| `x|y` |", "*a **b* c**", "[a](<b c>)", "Term\n: def\n: def2", "<div>\n*x*\n</div>") {
		f.Add(s)
	}
	r := newRenderer(true)
	f.Fuzz(func(t *testing.T, src string) {
		out := r.render(src, 40)
		for _, l := range strings.Split(ansi.Strip(out), "\n") {
			if w := ansi.StringWidth(l); w > 40 {
				t.Fatalf("a line of %d cells over 40: %q (from %q)", w, l, src)
			}
		}
	})
}
