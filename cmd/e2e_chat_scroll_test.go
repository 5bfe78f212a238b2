package cmd_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// scrollAnswer is a long Markdown answer whose paragraphs are numbered
// "A-001", "A-002"… so a screen shows which lines it holds.
func scrollAnswer(mark string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		switch {
		case i%10 == 0:
			fmt.Fprintf(&b, "- item %s-%03d of a list\n\n", mark, i)
		case i%7 == 0:
			fmt.Fprintf(&b, "```go\nx := %q // %s-%03d\n```\n\n", mark, mark, i)
		default:
			fmt.Fprintf(&b, "Paragraph **%s-%03d** of the answer.\n\n", mark, i)
		}
	}
	return b.String()
}

// TestChatPagesUpThroughLongAnswers: two long answers at 80x24, paged up
// from the end to the first line: every screen shows consecutive lines
// of the answers, and the pages together show every line of both, those
// of answers long off the screen included.
func TestChatPagesUpThroughLongAnswers(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	const n = 120
	srv := fake(t, fakellm.OpenAI, finalAnswer(scrollAnswer("A", n)), finalAnswer(scrollAnswer("B", n)))
	tm := startTermSized(t, sb, 80, 24, openaiKey, chatArgs(srv)...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("first", "Enter")
	tm.waitFor(fmt.Sprintf("A-%03d", n), 15*time.Second)
	tm.keys("second", "Enter")
	// Paging starts once the turn is over: while the answer is still
	// streaming its last lines are drawn as they come, and a page taken
	// from that screen is not the page above the finished one.
	last := fmt.Sprintf("B-%03d", n)
	scr := tm.waitUntil("the second answer, finished", 15*time.Second, func(s string) bool {
		return strings.Contains(s, last) && strings.Contains(s, "· idle")
	})

	// The order the marks have on the transcript.
	var order []string
	for _, m := range []string{"A", "B"} {
		for i := 1; i <= n; i++ {
			order = append(order, fmt.Sprintf("%s-%03d", m, i))
		}
	}
	place := map[string]int{}
	for i, m := range order {
		place[m] = i
	}
	mark := regexp.MustCompile(`[AB]-\d{3}`)
	seen := map[string]bool{}
	for page := 0; ; page++ {
		marks := mark.FindAllString(scr, -1)
		for i, m := range marks {
			seen[m] = true
			if i > 0 && place[m] != place[marks[i-1]]+1 {
				t.Fatalf("page %d: %s follows %s, want the mark after it:\n%s", page, m, marks[i-1], scr)
			}
		}
		if seen["A-001"] {
			break
		}
		if page > 200 {
			t.Fatalf("page %d and the first answer's start is not on screen:\n%s", page, scr)
		}
		before := scr
		tm.keys("PPage")
		scr = tm.waitUntil("the page above", 10*time.Second, func(s string) bool { return s != before })
	}
	if !strings.Contains(scr, "› first") {
		t.Errorf("the top page should show the first prompt:\n%s", scr)
	}
	for _, m := range order {
		if !seen[m] {
			t.Errorf("%s never showed paging up from the end", m)
		}
	}
}
