package cmd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// resumeLine finds the printed `resume with:` command and splits it into
// arguments (the command has no quoting).
func resumeLine(t *testing.T, stderr string) []string {
	t.Helper()
	m := regexp.MustCompile(`resume with: llmrt (.*)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no resume command in:\n%s", stderr)
	}
	return strings.Fields(m[1])
}

// TestResumeGoesBackWhereItRan: a run started with --base-url pauses, and
// exactly the printed command (which names no URL) completes it against
// the same server, with the options the run started with.
func TestResumeGoesBackWhereItRan(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), text("Hello!"))
	env := map[string]string{"OPENAI_API_KEY": "k"}
	first := sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m",
		"--finish", "text", "--tools", "read-only", "-p", "greet"}, env: env})
	first.want(t, 3)
	args := resumeLine(t, first.stderr)
	o := sb.run(cli{args: args, env: env})
	o.want(t, 0)
	if o.stdout != "Hello!\n" {
		t.Errorf("stdout: got %q, want the answer", o.stdout)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the resumed run should reach the same server: got %d requests, want 2", len(reqs))
	}
	// --finish text is kept (a text reply ends the run) and so is the
	// read-only tool selection.
	if body := string(reqs[1].Body); strings.Contains(body, `"write_file"`) || !strings.Contains(body, `"read_file"`) {
		t.Errorf("the resumed run should offer the read-only tools only:\n%s", body)
	}
	data, _ := os.ReadFile(sb.sessions()[0])
	if strings.Contains(string(data), `"k"`) || !strings.Contains(string(data), `"base_url":"`+srv.URL+`/v1"`) {
		t.Errorf("the session should record the base URL and never the key:\n%s", data)
	}
}

// TestFailedResumeKeepsQuestionsPending: a resumed run that fails before
// the model replies leaves the session paused; the same command works
// once the problem is gone.
func TestFailedResumeKeepsQuestionsPending(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs),
		scripted.Turn{Error: &scripted.TurnError{Status: 400, Message: "model overloaded"}},
		finalAnswer("Bonjour !"))
	first := openaiRun(sb, srv, "-p", "greet")
	first.want(t, 3)
	args := append(resumeLine(t, first.stderr), "--provider", "openai", "--model", "m")
	env := map[string]string{"OPENAI_API_KEY": "k"}
	failed := sb.run(cli{args: args, env: env})
	failed.want(t, 1)
	if !contains(failed.stderr, "questions still pending") {
		t.Errorf("the failure should say the session is unchanged:\n%s", failed.stderr)
	}
	again := sb.run(cli{args: args, env: env})
	again.want(t, 0)
	if again.stdout != "Bonjour !\n" {
		t.Errorf("stdout: got %q", again.stdout)
	}
}

// TestIncompleteAnswerIsAUsageError: without a terminal, an answer that
// leaves a question open is exit 2 naming the valid ids, and the session
// stays paused.
func TestIncompleteAnswerIsAUsageError(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	two := `{"questions":[{"header":"Language","id":"lang","question":"Which language?","options":[{"id":"en","label":"English"},{"id":"fr","label":"French"}]},` +
		`{"header":"Tone","id":"tone","question":"Which tone?","options":[{"id":"warm","label":"Warm"},{"id":"dry","label":"Dry"}]}]}`
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", two), finalAnswer("Salut."))
	openaiRun(sb, srv, "-p", "greet").want(t, 3)
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	for _, bad := range [][]string{{"--answer", "lang=fr"}, {"--answer", "lang=fr", "--answer", "tone=sarcastic"}, {"--answer", "mood=ok"}} {
		o := openaiRun(sb, srv, append([]string{"--resume", id}, bad...)...)
		o.want(t, 2)
		if !contains(o.stderr, "tone") || !(contains(o.stderr, "warm") || contains(o.stderr, `"lang", "tone"`)) {
			t.Errorf("%v: the error should name the valid ids:\n%s", bad, o.stderr)
		}
	}
	openaiRun(sb, srv, "--resume", id, "--answer", "lang=fr", "--answer", "tone=warm").want(t, 0)
}

// TestUnusableStateDirectory: a state directory that cannot be written is
// a warning and the run completes unsaved; resuming from it fails clearly.
func TestUnusableStateDirectory(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	blocker := filepath.Join(sb.home, "not-a-dir")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI, finalAnswer("done"))
	env := map[string]string{"OPENAI_API_KEY": "k", "XDG_STATE_HOME": blocker}
	o := sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "hi"}, env: env})
	o.want(t, 0)
	if o.stdout != "done\n" || !contains(o.stderr, "not saved") || !contains(o.stderr, "XDG_STATE_HOME") {
		t.Errorf("want the answer and a warning that says how to fix it:\nstdout %q\nstderr %s", o.stdout, o.stderr)
	}
	for _, args := range [][]string{{"--resume", "20261122-101500-ab12cd"}, {"--continue"}} {
		r := sb.run(cli{args: append([]string{"run", "--provider", "openai", "--model", "m"}, args...), env: env})
		r.want(t, 2)
	}
	rel := sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m", "-p", "hi"},
		env: map[string]string{"OPENAI_API_KEY": "k", "XDG_STATE_HOME": "relative/state"}})
	if !contains(rel.stderr, "not an absolute path") {
		t.Errorf("a relative XDG_STATE_HOME should be reported:\n%s", rel.stderr)
	}
}

// TestKeysAreRedacted: the value of a provider key that reaches a tool
// result, the trace, progress or an error message is written nowhere.
func TestKeysAreRedacted(t *testing.T) {
	t.Parallel()
	const secret = "sk-test-secret-123"
	sb := newSandbox(t)
	sb.write("notes.txt", "the key is "+secret+"\n")
	srv := fake(t, fakellm.OpenAI, toolCall("read_file", `{"path":"notes.txt"}`),
		scripted.Turn{Error: &scripted.TurnError{Status: 400, Message: "invalid request: key " + secret + " rejected"}})
	tracePath := filepath.Join(sb.home, "trace.jsonl")
	for _, format := range []string{"text", "json", "stream-json"} {
		o := sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m",
			"--verbose", "--trace", tracePath, "-o", format, "-p", "read notes.txt"}, env: map[string]string{"OPENAI_API_KEY": secret}})
		if strings.Contains(o.stderr, secret) {
			t.Errorf("%s: stderr holds the key:\n%s", format, o.stderr)
		}
		if format != "text" && strings.Contains(o.stdout, secret) {
			t.Errorf("%s: stdout holds the key:\n%s", format, o.stdout)
		}
		srv = fake(t, fakellm.OpenAI, toolCall("read_file", `{"path":"notes.txt"}`),
			scripted.Turn{Error: &scripted.TurnError{Status: 400, Message: "invalid request: key " + secret + " rejected"}})
	}
	files := append(sb.sessions(), tracePath)
	if len(files) != 4 {
		t.Fatalf("got %d files, want 3 sessions and a trace", len(files))
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), secret) || !strings.Contains(string(data), "[REDACTED]") {
			t.Errorf("%s should hold the redacted result and no key:\n%s", f, data)
		}
	}
}

// TestResumeKeepsToolSources: the --mcp-config files and --skills-dir
// roots a paused run was given (here as paths relative to where it ran)
// come back when exactly the printed command resumes it from elsewhere,
// so the tools and skills the model used are still there.
func TestResumeKeepsToolSources(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write("extra/mcp.json", fmt.Sprintf(`{"mcpServers":{"calc":{"command":%q}}}`, mcpServer))
	sb.write("extra/skills/greet/SKILL.md", "---\nname: greet-people\ndescription: How to greet people.\n---\nSay hello.\n")
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), finalAnswer("Hello!"))
	env := map[string]string{"OPENAI_API_KEY": "k"}
	first := sb.run(cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m",
		"--mcp-config", "extra/mcp.json", "--skills-dir", "extra/skills", "-p", "greet"}, env: env})
	first.want(t, 3)
	o := sb.run(cli{args: resumeLine(t, first.stderr), env: env, dir: sb.home})
	if o.code != 0 {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2\n%s", len(reqs), o.stderr)
	}
	for i, r := range reqs {
		if names := strings.Join(toolNames(t, r), " "); !contains(names, "mcp__calc__get-sum") || !contains(systemPrompt(t, r), "greet-people") {
			t.Errorf("request %d should offer the MCP tool and the skill: tools %s", i+1, names)
		}
	}
}
