package cmd_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// bigLog writes an 18 MB log to the workspace.
func bigLog(sb *sandbox) string {
	sb.t.Helper()
	p := filepath.Join(sb.work, "big.log")
	line := []byte("2026-11-24T12:00:00Z INFO request served in 12ms path=/api/v1/items status=200\n")
	if err := os.WriteFile(p, bytes.Repeat(line, 18_000_000/len(line)+1), 0o644); err != nil {
		sb.t.Fatal(err)
	}
	return p
}

// refusedBeforeSending checks a run refused its input: exit 2, a message
// naming the size, the limit and how to pass a part, no request and no
// session.
func refusedBeforeSending(t *testing.T, sb *sandbox, srv *fakellm.Server, o outcome, size string) {
	t.Helper()
	o.want(t, 2)
	for _, want := range []string{size, "544 KB one message may carry for gpt-5", "272,000-token context window", "nothing was sent", "read_file (offset/limit)", "head -c"} {
		if !strings.Contains(o.stderr, want) {
			t.Errorf("the refusal should say %q:\n%s", want, o.stderr)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent, want none", n)
	}
	if s := sb.sessions(); len(s) != 0 {
		t.Errorf("a session was written: %v", s)
	}
}

// TestLargeInputsAreRefused: an 18 MB --attach, piped stdin and
// redirected stdin are refused before anything is sent or saved.
func TestLargeInputsAreRefused(t *testing.T) {
	t.Parallel()
	run := func(sb *sandbox, srv *fakellm.Server, stdin *os.File, args ...string) outcome {
		c := cli{args: append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "gpt-5"}, args...), env: openaiKey}
		if stdin != nil {
			c.stdin = stdin
		}
		return sb.run(c)
	}
	t.Run("attach", func(t *testing.T) {
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("never"))
		o := run(sb, srv, nil, "--attach", bigLog(sb), "-p", "summarise the log")
		refusedBeforeSending(t, sb, srv, o, "--attach "+filepath.Join(sb.work, "big.log")+" is 18.0 MB")
		t.Logf("stderr:\n%s", o.stderr)
	})
	t.Run("redirected stdin", func(t *testing.T) {
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("never"))
		f, err := os.Open(bigLog(sb))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		o := run(sb, srv, f, "-p", "summarise the log")
		refusedBeforeSending(t, sb, srv, o, "stdin is 18.0 MB")
	})
	t.Run("piped stdin", func(t *testing.T) {
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("never"))
		// A pipe with a writer: the size is not known, only that it is over.
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			data, _ := os.ReadFile(bigLog(sb))
			w.Write(data)
			w.Close()
		}()
		defer r.Close()
		o := run(sb, srv, r, "summarise the log")
		refusedBeforeSending(t, sb, srv, o, "stdin is larger than the 544 KB")
		t.Logf("stderr:\n%s", o.stderr)
	})
	t.Run("a message that fits is sent", func(t *testing.T) {
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("fine"))
		small := sb.write("small.log", strings.Repeat("ok\n", 1000))
		run(sb, srv, nil, "--attach", small, "-p", "summarise").want(t, 0)
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
}

// TestChatRefusesALargeMention: in the chat, an @mention of an 18 MB
// file is refused with the reason on the screen; nothing is sent or
// saved, and the chat goes on.
func TestChatRefusesALargeMention(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	bigLog(sb)
	srv := fake(t, fakellm.OpenAI, finalAnswer("the small answer"))
	tm := startTermSized(t, sb, 80, 24, openaiKey, "chat", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "gpt-5")
	tm.waitFor("Ask anything", 15*time.Second)
	tm.keys("summarise @big.log please", "Enter")
	scr := tm.waitFor("nothing was sent", 15*time.Second)
	t.Logf("the screen:\n%s", scr)
	flat := strings.Join(strings.Fields(scr), " ")
	for _, want := range []string{"@big.log is 18.0 MB", "544 KB", "without @", "read_file", "head -c", "then @part.txt"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the screen should say %q:\n%s", want, scr)
		}
	}
	if strings.Contains(flat, "--attach") {
		t.Errorf("the chat has no --attach; its message should not name it:\n%s", scr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent, want none", n)
	}
	tm.keys("just say hi", "Enter")
	tm.waitFor("the small answer", 15*time.Second)
	reqs := srv.Requests()
	if len(reqs) != 1 || contains(string(reqs[0].Body), "request served") || contains(string(reqs[0].Body), "summarise @big.log") {
		t.Errorf("only the second prompt should have been sent, without the refused one (%d requests)", len(reqs))
	}
	tm.keys("C-d")
	tm.waitFor("EXIT=", 10*time.Second)
	for _, s := range sb.sessions() {
		if data, _ := os.ReadFile(s); contains(string(data), "summarise @big.log") || contains(string(data), "request served") {
			t.Errorf("the refused message was saved in %s", s)
		}
	}
}

// TestSkillCatalogueIsBounded: with 150 user skills and 3 project skills
// the request's system prompt lists 100, the project's among them; the
// run warns naming what was left out, and `llmrt skills` lists all.
func TestSkillCatalogueIsBounded(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	for i := range 150 {
		name := fmt.Sprintf("user-skill-%03d", i)
		writeAbs(t, filepath.Join(sb.home, ".claude", "skills", name, "SKILL.md"), skillFile(name, "Does "+name+" things.", "body"))
	}
	for _, name := range []string{"proj-a", "proj-b", "proj-c"} {
		sb.write(".llmrt/skills/"+name+"/SKILL.md", skillFile(name, "Project skill "+name+".", "body"))
	}
	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
	o := openaiRun(sb, srv, "-p", "hi")
	o.want(t, 0)
	body := string(srv.Requests()[0].Body)
	if n := strings.Count(body, `\n- user-skill-`) + strings.Count(body, `\n- proj-`); n != 100 {
		t.Errorf("the system prompt lists %d skills, want 100", n)
	}
	for _, want := range []string{`\n- proj-a:`, `\n- proj-c:`, "53 more skills are installed"} {
		if !strings.Contains(body, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
	if !strings.Contains(o.stderr, "lists 100 of 153 skills") || !strings.Contains(o.stderr, "53 left out") {
		t.Errorf("the run should warn what was left out:\n%s", o.stderr)
	}
	list := sb.run(cli{args: []string{"skills"}})
	list.want(t, 0)
	if n := strings.Count("\n"+list.stdout, "\nuser-skill-"); n != 150 {
		t.Errorf("llmrt skills lists %d user skills, want all 150", n)
	}
}
