package cmd_test

import (
	"bufio"
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestClosedStdoutEndsQuietly: `llmrt run | head -1` ends with exit 0 and
// nothing on stderr once the answer was being read.
func TestClosedStdoutEndsQuietly(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	long := strings.Repeat("a line of the answer\n", 5000)
	srv := fake(t, fakellm.OpenAI, finalAnswer(long))
	cmd := sb.command(context.Background(), cli{
		args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "x"},
		env:  map[string]string{"OPENAI_API_KEY": "k"},
	})
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	out.Close() // head -1 has its line and goes away
	if code := waitExit(t, cmd, 20*time.Second); code != 0 || stderr.Len() != 0 || line != "a line of the answer\n" {
		t.Errorf("got exit %d, stderr %q, first line %q; want 0, nothing, the answer's first line", code, stderr.String(), line)
	}
}

// TestUsageErrorsExit2: every way of calling a command wrongly exits 2
// with a message naming the problem.
func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"sesions"}, "did you mean llmrt sessions?"},
		{[]string{"sessions", "show"}, "accepts 1 arg"},
		{[]string{"tools", "call"}, "accepts 1 arg"},
		{[]string{"mcp", "add"}, "requires at least 1 arg"},
		{[]string{"mcp", "bogus"}, `unknown command "bogus" for "llmrt mcp"`},
		{[]string{"trust", "a", "b"}, "accepts at most 1 arg"},
	} {
		o := sb.run(cli{args: tc.args})
		if o.code != 2 || !strings.Contains(o.stderr, tc.say) {
			t.Errorf("llmrt %s: exit %d, stderr %q; want 2 saying %q", strings.Join(tc.args, " "), o.code, o.stderr, tc.say)
		}
	}
}

// TestTopLevelWordsAndFlags: llmrt -p is run; llmrt "a question" and
// llmrt --model M open the chat on a terminal, the question sent.
func TestTopLevelWordsAndFlags(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("from run"))
	o := sb.run(cli{args: []string{"-p", "hi", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, env: openaiKey})
	if o.code != 0 || o.stdout != "from run\n" {
		t.Errorf("llmrt -p: exit %d stdout %q stderr %s", o.code, o.stdout, o.stderr)
	}

	chat := fake(t, fakellm.OpenAI, finalAnswer("Hello from the chat."))
	tm := startTerm(t, sb, openaiKey, "--provider", "openai", "--base-url", chat.URL+"/v1", "--model", "m", "hi there")
	tm.waitFor("Hello from the chat.", 15*time.Second)
	if reqs := chat.Requests(); len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "hi there") {
		t.Errorf("the words should be the chat's first prompt: %d requests", len(reqs))
	}
	if scr := tm.screen(false); !strings.Contains(scr, "openai/m") {
		t.Errorf("the status line should show the model the flags chose:\n%s", scr)
	}
	tm.keys("C-d")
	tm.waitFor("EXIT=0", 15*time.Second)
}

// TestSessionsYouCanFind: llmrt sessions lists this directory's sessions
// with age, size and title (--all every directory's, with it), and rm
// deletes them.
func TestSessionsYouCanFind(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("one"), finalAnswer("two"))
	openaiRun(sb, srv, "-p", "a question here").want(t, 0)
	other := t.TempDir()
	sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "elsewhere"},
		env: openaiKey, dir: other}).want(t, 0)
	o := sb.run(cli{args: []string{"sessions"}})
	if o.code != 0 || !strings.Contains(o.stdout, "a question here") || strings.Contains(o.stdout, "elsewhere") ||
		!strings.Contains(o.stdout, "AGE") || !strings.Contains(o.stdout, "SIZE") {
		t.Errorf("sessions of this directory:\n%s%s", o.stdout, o.stderr)
	}
	o = sb.run(cli{args: []string{"sessions", "--all"}})
	if !strings.Contains(o.stdout, "elsewhere") || !strings.Contains(o.stdout, "DIRECTORY") {
		t.Errorf("sessions --all:\n%s", o.stdout)
	}
	files := sb.sessions()
	ids := make([]string, len(files))
	for i, f := range files {
		ids[i] = strings.TrimSuffix(filepath.Base(f), ".jsonl")
	}
	o = sb.run(cli{args: append([]string{"sessions", "rm"}, ids...)})
	if o.code != 0 || len(sb.sessions()) != 0 {
		t.Errorf("sessions rm: exit %d, %d left\n%s", o.code, len(sb.sessions()), o.stderr)
	}
	if o := sb.run(cli{args: []string{"sessions", "rm", "nope"}}); o.code != 2 || !strings.Contains(o.stderr, `no session "nope"`) {
		t.Errorf("rm of a missing session: %d %s", o.code, o.stderr)
	}
}
