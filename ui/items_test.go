package ui

import (
	"strings"
	"testing"
)

// TestErrorHeadline: an error too long for a line shows its headline on
// the ✗ line and the rest dim under it; one that fits stays one line.
func TestErrorHeadline(t *testing.T) {
	for _, tc := range []struct{ msg, head, detail string }{
		{"openai: 400 from api.openai.com: This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.; the conversation is too long",
			"openai: 400 from api.openai.com", "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.; the conversation is too long"},
		{"the conversation is too long for gpt-5 and could not be compacted further: start a new session, or choose a model with a larger context window",
			"the conversation is too long for gpt-5 and could not be compacted further", "start a new session, or choose a model with a larger context window"},
		{"no key set", "no key set", ""},
	} {
		head, detail := headline(tc.msg, 78)
		if head != tc.head || detail != tc.detail {
			t.Errorf("headline(%q) = %q, %q; want %q, %q", tc.msg, head, detail, tc.head, tc.detail)
		}
	}

	pal := NewPalette(true, false)
	n := &noteItem{kind: noteError, text: "anthropic: 529 from api.anthropic.com: Overloaded; the provider is busy: try again in a minute, or pick another model with /model"}
	lines := n.lines(&look{pal: pal}, 80)
	if len(lines) < 2 {
		t.Fatalf("want a headline and a detail line, got %q", lines)
	}
	if lines[0] != pal.Err.Render("✗ anthropic: 529 from api.anthropic.com") {
		t.Errorf("headline line = %q", lines[0])
	}
	for _, l := range lines[1:] {
		if l != pal.Dim.Render(plain(l)) {
			t.Errorf("a detail line is not dim: %q", l)
		}
	}
	if got := strings.Join(strings.Fields(plain(strings.Join(lines[1:], " "))), " "); !strings.HasPrefix(got, "Overloaded;") || !strings.HasSuffix(got, "pick another model with /model") {
		t.Errorf("the detail lines should hold the rest of the message: %q", got)
	}
}

// TestWrapTextBreaksAtSpaces: notes and messages wrap at spaces only —
// a model name or a path with hyphens stays whole — and a continuation
// starts with the word, not the space before it.
func TestWrapTextBreaksAtSpaces(t *testing.T) {
	got := wrapText("ANTHROPIC_API_KEY is not set; still using openai/gpt-5-nano", 56)
	want := []string{"ANTHROPIC_API_KEY is not set; still using", "openai/gpt-5-nano"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapText = %q, want %q", got, want)
	}
	long := strings.Repeat("x", 25)
	for _, l := range wrapText("a "+long, 10) {
		if widthOf(l) > 10 {
			t.Errorf("a word longer than the line should break at its end: %q", l)
		}
	}
}
