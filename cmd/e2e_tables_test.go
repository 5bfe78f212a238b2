package cmd_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestListingsFit80Columns: llmrt tools and llmrt sessions fit an
// 80-column terminal, and sessions show prints the final answer whole.
func TestListingsFit80Columns(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	long := strings.Repeat("every word of this answer matters ", 20) + "THE END"
	srv := fake(t, fakellm.OpenAI, finalAnswer(long))
	openaiRun(sb, srv, "-p", strings.Repeat("a very long prompt that becomes the title ", 5)).want(t, 0)
	for _, args := range [][]string{{"tools"}, {"sessions"}} {
		o := sb.run(cli{args: args})
		o.want(t, 0)
		for _, line := range strings.Split(strings.TrimRight(o.stdout, "\n"), "\n") {
			if strings.HasPrefix(line, "commands: ") {
				continue // the sandbox's paths are as long as they are
			}
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("llmrt %s: a line of %d columns: %q", args[0], n, line)
			}
		}
	}
	id := strings.Fields(strings.Split(sb.run(cli{args: []string{"sessions"}}).stdout, "\n")[1])[0]
	show := sb.run(cli{args: []string{"sessions", "show", id}})
	show.want(t, 0)
	if !strings.Contains(strings.Join(strings.Fields(show.stdout), " "), strings.Join(strings.Fields(long), " ")) {
		t.Errorf("sessions show should print the whole answer:\n%s", show.stdout)
	}
}
