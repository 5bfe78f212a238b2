package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestMarkdownStreamsByBlock(t *testing.T) {
	var out bytes.Buffer
	md := NewMarkdownWriter(&out, 80)
	md.Write([]byte("# Title\n\nFirst para"))
	afterFirst := ansi.Strip(out.String())
	if !strings.Contains(afterFirst, "Title") || strings.Contains(afterFirst, "First para") {
		t.Fatalf("the finished heading should render at once and the open paragraph wait: %q", afterFirst)
	}
	md.Write([]byte("graph.\n\n```go\nx := 1\n\ny := 2\nz"))
	// An open fence streams its complete lines as code.
	trim := func(s string) string {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		return strings.Join(lines, "\n")
	}
	if got := trim(ansi.Strip(out.String())); !strings.Contains(got, "    x := 1\n\n    y := 2\n") || strings.Contains(got, "z") || strings.Contains(got, "```") {
		t.Errorf("the open fence's complete lines should show as code:\n%s", got)
	}
	md.Write([]byte(" := 3\n```\n"))
	md.Flush()
	plain := ansi.Strip(out.String())
	for _, want := range []string{"First paragraph.", "    x := 1\n", "    y := 2\n", "    z := 3\n"} {
		if strings.Count(plain, want) != 1 {
			t.Errorf("output should hold %q once, as code:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "# Title") || strings.Contains(plain, "```") {
		t.Errorf("markup should be rendered, not shown:\n%s", plain)
	}
}

// TestMarkdownStreamsListsItemByItem: a long list appears as its items
// arrive, not all at once at its end.
func TestMarkdownStreamsListsItemByItem(t *testing.T) {
	var out bytes.Buffer
	md := NewMarkdownWriter(&out, 80)
	md.Write([]byte("Here are the steps:\n1. alpha step\n2. bravo step\n3. char"))
	got := ansi.Strip(out.String())
	if !strings.Contains(got, "Here are the steps:") || !strings.Contains(got, "alpha step") || !strings.Contains(got, "bravo step") || strings.Contains(got, "char") {
		t.Fatalf("the finished items should be on screen and the open one wait:\n%s", got)
	}
	md.Write([]byte("lie step\n- nested? no, a new list\n"))
	md.Flush()
	got = ansi.Strip(out.String())
	if !strings.Contains(got, "charlie step") {
		t.Errorf("the last item should follow:\n%s", got)
	}
	if strings.Contains(got, "2. bravo step\n\n") {
		t.Errorf("items of one list should not be spaced apart:\n%q", got)
	}
}

// TestMarkdownStreamMatchesWholeRender: however the text is split, the
// streamed rendering shows the same lines as rendering it all at once.
func TestMarkdownStreamMatchesWholeRender(t *testing.T) {
	doc := "# Report\n\nThe build is **green**.\n\n```go\nfunc main() {\n\n\tprintln(1)\n}\n```\n\n- one\n- two\n\n> quoted\n> text\n\n1. first\n2. second\n\nFiles:\n- a.go\n- b.go\n"
	r := newRenderer(true)
	want := r.render(doc, 80)
	lines := func(s string) string {
		var out []string
		for _, l := range strings.Split(ansi.Strip(s), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	for _, n := range []int{1, 2, 3, 7, 16, len(doc)} {
		var out bytes.Buffer
		md := NewMarkdownWriter(&out, 80)
		for i := 0; i < len(doc); i += n {
			md.Write([]byte(doc[i:min(i+n, len(doc))]))
		}
		md.Flush()
		if got := lines(out.String()); got != lines(want) {
			t.Errorf("pieces of %d:\n got %s\nwant %s", n, got, lines(want))
		}
	}
}
