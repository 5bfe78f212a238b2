package cmd_test

import (
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// reviewCommand is a Claude Code command file: its body takes the
// arguments whole and the first one as a file to attach, and it lets
// its turn run `echo hi …` without asking.
const reviewCommand = `---
description: Review a file for bugs
argument-hint: <file>
allowed-tools: Bash(echo hi:*), NotebookEdit
---
Review $ARGUMENTS for bugs. The file: @$1
`

// commandRepo is a project with a custom command and the file it
// reviews; trusted says `llmrt trust` ran for it.
func commandRepo(t *testing.T, trusted bool) *sandbox {
	t.Helper()
	sb := newSandbox(t)
	sb.write(".claude/commands/review.md", reviewCommand)
	sb.write("src/main.go", "package main\n\n// MARKER-7731: the file's own text\n")
	if trusted {
		sb.run(cli{args: []string{"trust", sb.work}}).want(t, 0)
	}
	return sb
}

func runArgs(srv *fakellm.Server, extra ...string) []string {
	return append([]string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, extra...)
}

// TestCustomCommandInRun: llmrt run /review src/main.go sends the
// expanded prompt with the file attached, and its allowed-tools let the
// turn run a matching command without a person to ask; -p works the
// same; an unknown /name is a usage error naming the commands, a prompt
// that starts with a path is a prompt; llmrt commands lists it.
func TestCustomCommandInRun(t *testing.T) {
	t.Parallel()
	sb := commandRepo(t, true)
	srv := fake(t, fakellm.OpenAI, toolCall("shell_cmd", `{"command":"echo hi there"}`), finalAnswer("reviewed"),
		finalAnswer("again"), finalAnswer("path"))
	o := sb.run(cli{args: runArgs(srv, "/review", "src/main.go"), env: openaiKey})
	o.want(t, 0)
	if !strings.Contains(o.stdout, "reviewed") {
		t.Errorf("stdout = %q, want the answer", o.stdout)
	}
	if !strings.Contains(o.stderr, "NotebookEdit") {
		t.Errorf("an allowed tool without an llmrt equivalent should be named in a warning:\n%s", o.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the tool call, then the answer)", len(reqs))
	}
	first := string(reqs[0].Body)
	for _, want := range []string{"Review src/main.go for bugs. The file: @src/main.go", "MARKER-7731"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "$ARGUMENTS") || strings.Contains(first, "argument-hint") {
		t.Errorf("the request should carry the expansion, not the file:\n%s", first)
	}
	if second := string(reqs[1].Body); !strings.Contains(second, "hi there") || strings.Contains(second, "denied") {
		t.Errorf("the command's allowed-tools should have run echo without asking:\n%s", second)
	}

	o = sb.run(cli{args: runArgs(srv, "-p", "/review src/main.go"), env: openaiKey})
	o.want(t, 0)
	if body := string(srv.Requests()[2].Body); !strings.Contains(body, "Review src/main.go for bugs") {
		t.Errorf("-p /review should send the expansion too:\n%s", body)
	}

	o = sb.run(cli{args: runArgs(srv, "-p", "/reveiw src/main.go"), env: openaiKey})
	o.want(t, 2)
	if !strings.Contains(o.stderr, "unknown command /reveiw") || !strings.Contains(o.stderr, "/review") {
		t.Errorf("an unknown command should be named with the known ones:\n%s", o.stderr)
	}
	o = sb.run(cli{args: runArgs(srv, "-p", "/etc/hosts is weird"), env: openaiKey})
	o.want(t, 0)
	if body := string(srv.Requests()[3].Body); !strings.Contains(body, "/etc/hosts is weird") {
		t.Errorf("a prompt starting with a path should be sent as it is:\n%s", body)
	}

	o = sb.run(cli{args: []string{"commands"}})
	o.want(t, 0)
	for _, want := range []string{"/review <file>", "project-claude", "Review a file for bugs", "review.md"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("llmrt commands lacks %q:\n%s", want, o.stdout)
		}
	}
}

// TestUntrustedProjectCommands: in a folder nobody trusted the
// project's command is not offered: run refuses it as unknown, and
// llmrt commands says why it did not load.
func TestUntrustedProjectCommands(t *testing.T) {
	t.Parallel()
	sb := commandRepo(t, false)
	srv := fake(t, fakellm.OpenAI, finalAnswer("no"))
	o := sb.run(cli{args: runArgs(srv, "/review", "src/main.go"), env: openaiKey})
	o.want(t, 2)
	if !strings.Contains(o.stderr, "unknown command /review") || len(srv.Requests()) != 0 {
		t.Errorf("an untrusted project's command should be unknown, nothing sent (%d requests):\n%s", len(srv.Requests()), o.stderr)
	}
	o = sb.run(cli{args: []string{"commands"}})
	o.want(t, 0)
	if !strings.Contains(o.stdout, "not trusted") || !strings.Contains(o.stdout, "/review would be offered") {
		t.Errorf("llmrt commands should say the project's command is not loaded and why:\n%s", o.stdout)
	}
}

// TestCustomCommandInChat: Tab completes /rev to the command with its
// hint, the screen shows the line as typed, and the model gets the
// expansion with the file attached.
func TestCustomCommandInChat(t *testing.T) {
	t.Parallel()
	sb := commandRepo(t, true)
	srv := fake(t, fakellm.OpenAI, finalAnswer("looks fine"))
	tm := startTermSized(t, sb, 100, 30, openaiKey, chatArgs(srv)...)
	tm.waitFor("Ask anything", 20*time.Second)
	tm.keys("/rev")
	tm.waitFor("<file> · (project-claude) Review a file for bugs", 20*time.Second)
	tm.keys("Tab", "src/main.go", "Enter")
	scr := tm.waitFor("looks fine", 30*time.Second)
	if !strings.Contains(scr, "› /review src/main.go") {
		t.Errorf("the screen should show the command as typed:\n%s", scr)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	body := string(reqs[0].Body)
	for _, want := range []string{"Review src/main.go for bugs", "MARKER-7731"} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q:\n%s", want, body)
		}
	}
}

// TestUntrustedCommandNotInChat: skipping the trust question leaves the
// project's command out of the chat's commands.
func TestUntrustedCommandNotInChat(t *testing.T) {
	t.Parallel()
	sb := commandRepo(t, false)
	srv := fake(t, fakellm.OpenAI, finalAnswer("x"))
	tm := startTermSized(t, sb, 100, 30, openaiKey, chatArgs(srv)...)
	tm.waitFor("Continue without the project's settings", 20*time.Second)
	tm.keys("Down", "Enter")
	tm.waitFor("Ask anything", 20*time.Second)
	tm.keys("/help", "Enter")
	scr := tm.waitFor("Mention a file", 20*time.Second)
	if strings.Contains(scr, "/review") {
		t.Errorf("an untrusted project's command should not be offered:\n%s", scr)
	}
}
