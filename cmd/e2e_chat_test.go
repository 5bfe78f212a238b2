package cmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// chatArgs opens the chat against a fake OpenAI server.
func chatArgs(srv *fakellm.Server, extra ...string) []string {
	return append([]string{"chat", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, extra...)
}

var openaiKey = map[string]string{"OPENAI_API_KEY": "k"}

// slow streams s as text a word at a time, delay ms apart; with
// --finish text the text is the answer.
func slow(s string, delay int) scripted.Turn {
	return scripted.Turn{Text: s, ChunkDelayMS: delay}
}

// TestChatStreamsAnAnswer: type a prompt, see the answer rendered; Ctrl-D
// quits and the session is saved as run saves it.
func TestChatStreamsAnAnswer(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer(markdownAnswer))
	tm := startTerm(t, sb, openaiKey, chatArgs(srv)...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("report on the build", "Enter")
	scr := tm.waitFor("second point", 15*time.Second)
	if strings.Contains(scr, "**green**") || strings.Contains(scr, "# Results") || !strings.Contains(scr, "› report on the build") {
		t.Errorf("the answer should be rendered Markdown under the prompt:\n%s", scr)
	}
	tm.keys("C-d")
	scr = tm.waitFor("EXIT=", 10*time.Second)
	if !strings.Contains(scr, "EXIT=0") || !strings.Contains(scr, "saved; continue it with llmrt chat --resume") {
		t.Fatalf("Ctrl-D should quit cleanly and name the session:\n%s", scr)
	}
	if n := len(sb.sessions()); n != 1 {
		t.Fatalf("%d session files, want 1", n)
	}
	data, _ := os.ReadFile(sb.sessions()[0])
	if !strings.Contains(string(data), "report on the build") || !strings.Contains(string(data), `"type":"end"`) {
		t.Errorf("the session should hold the prompt and the run's end:\n%s", data)
	}
}

// TestChatEscStopsASlowAnswer: Esc during a slow stream cancels the turn
// and the prompt is usable at once.
func TestChatEscStopsASlowAnswer(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	long := strings.Repeat("All work and no play makes a dull model. ", 40)
	srv := fake(t, fakellm.OpenAI, slow(long, 60), finalAnswer("second answer"))
	tm := startTerm(t, sb, openaiKey, chatArgs(srv, "--finish", "text")...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("write a lot", "Enter")
	tm.waitFor("dull model", 15*time.Second)
	tm.keys("Escape")
	tm.waitFor("cancelled", 10*time.Second)
	tm.keys("and now?", "Enter")
	scr := tm.waitFor("second answer", 15*time.Second)
	if strings.Count(scr, "All work") > 30 {
		t.Errorf("the first answer should have stopped early:\n%s", scr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !contains(string(reqs[1].Body), "and now?") || !contains(string(reqs[1].Body), "write a lot") {
		t.Errorf("the second turn should carry the whole conversation: %d requests", len(reqs))
	}
}

// TestChatResumesARunSession: a session made by llmrt run opens in the
// chat with its history, through /resume.
func TestChatResumesARunSession(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("The answer is 42."), finalAnswer("Still 42."))
	openaiRun(sb, srv, "-p", "what is the answer?").want(t, 0)
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	tm := startTerm(t, sb, openaiKey, chatArgs(srv)...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("/resume "+id, "Enter")
	scr := tm.waitFor("Resumed session", 10*time.Second)
	if !strings.Contains(scr, "› what is the answer?") || !strings.Contains(scr, "The answer is 42.") {
		t.Fatalf("the run's history should show:\n%s", scr)
	}
	tm.keys("are you sure?", "Enter")
	tm.waitFor("Still 42.", 15*time.Second)
	tm.keys("C-d")
	tm.waitFor("EXIT=0", 10*time.Second)
	if n := len(sb.sessions()); n != 1 {
		t.Fatalf("the chat should continue the run's session, not start another: %d files", n)
	}
	o := sb.run(cli{args: []string{"sessions", "show", id}})
	if !strings.Contains(o.stdout, "are you sure?") || !strings.Contains(o.stdout, "Still 42.") {
		t.Errorf("llmrt sessions show should list the chat's turn:\n%s", o.stdout)
	}
}

// TestChatResizeMidAnswer: shrinking the terminal from 120x40 to 80x24
// while an answer streams leaves a clean 80-column screen.
func TestChatResizeMidAnswer(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	long := strings.Repeat("Resizing must not leave garbage on the screen. ", 30) + "\n\nTHE END"
	srv := fake(t, fakellm.OpenAI, slow(long, 20))
	tm := startTermSized(t, sb, 120, 40, openaiKey, chatArgs(srv, "--finish", "text")...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("go", "Enter")
	tm.waitFor("garbage", 15*time.Second)
	tm.tmux("resize-window", "-t", "main", "-x", "80", "-y", "24")
	tm.waitFor("THE END", 20*time.Second)
	scr := tm.waitFor("· idle", 10*time.Second) // the turn is over and drawn
	lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	if len(lines) > 24 {
		t.Fatalf("%d lines on a 24-line screen", len(lines))
	}
	status := 0
	for _, l := range lines {
		if ansi.StringWidth(l) > 80 {
			t.Fatalf("a line wider than 80 columns: %q", l)
		}
		if strings.Contains(l, "openai/m") {
			status++
		}
	}
	if status != 1 || !strings.Contains(lines[len(lines)-1], "openai/m") {
		t.Fatalf("one status line, at the bottom:\n%s", scr)
	}
}

// TestChatNeedsATerminal: with stdin or stdout not a terminal, chat
// exits 2 and points at run.
func TestChatNeedsATerminal(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	o := sb.run(cli{args: []string{"chat"}, stdin: strings.NewReader("hi\n")})
	o.want(t, 2)
	if !strings.Contains(o.stderr, "llmrt run") {
		t.Fatalf("the message should point at llmrt run: %s", o.stderr)
	}
	// llmrt alone, not on a terminal, prints the help.
	o = sb.run(cli{})
	o.want(t, 0)
	if !strings.Contains(o.stdout, "Available Commands") {
		t.Fatalf("llmrt alone off a terminal should print help: %s", o.stdout)
	}
}

// TestLlmrtAloneOpensTheChat: on a terminal, llmrt with no arguments is
// the chat.
func TestLlmrtAloneOpensTheChat(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	tm := startTerm(t, sb, map[string]string{"LLMRT_PROVIDER": "scripted", "LLMRT_MODEL": "x.json"})
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("C-c")
	tm.keys("C-c")
	tm.waitFor("EXIT=0", 10*time.Second)
}

// TestChatAnswersAQuestion: a select question answered with the arrow
// keys reaches the model as the chosen option id.
func TestChatAnswersAQuestion(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), finalAnswer("Salut tout le monde"))
	tm := startTerm(t, sb, openaiKey, chatArgs(srv)...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("greet me", "Enter")
	tm.waitFor("Which language", 15*time.Second)
	tm.keys("Down", "Enter")
	scr := tm.waitFor("Salut tout le monde", 15*time.Second)
	if !strings.Contains(scr, "✔") || strings.Contains(scr, "Which language") {
		t.Errorf("the list should give way to the chosen answer:\n%s", scr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !contains(string(reqs[1].Body), `{\"answers\":{\"lang\":\"fr\"}`) {
		t.Fatalf("the model should get the chosen option: %s", reqs[len(reqs)-1].Body)
	}
}

// TestChatDeniesAWriteWithAReason: the reason typed at the permission
// prompt reaches the model, and nothing is written.
func TestChatDeniesAWriteWithAReason(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("write_file", `{"path":"notes.txt","content":"hi\n"}`), finalAnswer("left it alone"))
	tm := startTerm(t, sb, openaiKey, chatArgs(srv)...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("write notes", "Enter")
	scr := tm.waitFor("Allow write_file", 15*time.Second)
	if !strings.Contains(scr, "+hi") {
		t.Errorf("the prompt should show the write as a diff:\n%s", scr)
	}
	tm.keys("4")
	tm.keys("keep the tree clean", "Enter")
	tm.waitFor("left it alone", 15*time.Second)
	if _, err := os.Stat(filepath.Join(sb.work, "notes.txt")); err == nil {
		t.Fatal("a denied write happened")
	}
	if reqs := srv.Requests(); !contains(string(reqs[len(reqs)-1].Body), "keep the tree clean") {
		t.Fatalf("the model should get the reason: %s", reqs[len(reqs)-1].Body)
	}
}

// TestChatResumesAPausedRun: a run paused for a question (no terminal)
// opens in the chat with the question asked at once; the answer goes to
// the model and the run finishes in the chat.
func TestChatResumesAPausedRun(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), finalAnswer("Hello in English."))
	openaiRun(sb, srv, "-p", "greet").want(t, 3)
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	tm := startTerm(t, sb, openaiKey, chatArgs(srv, "--resume", id)...)
	tm.waitFor("Which language", 10*time.Second)
	tm.keys("Enter")
	tm.waitFor("Hello in English.", 15*time.Second)
	if reqs := srv.Requests(); !contains(string(reqs[len(reqs)-1].Body), `{\"answers\":{\"lang\":\"en\"}`) {
		t.Fatalf("the model should get the answer: %s", reqs[len(reqs)-1].Body)
	}
}

// TestRunResumesAChatSession: llmrt run continues a session the chat
// made, with the chat's conversation.
func TestRunResumesAChatSession(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("The capital is Paris."), finalAnswer("About 2 million people."))
	tm := startTerm(t, sb, openaiKey, chatArgs(srv)...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("capital of France?", "Enter")
	tm.waitFor("Paris", 15*time.Second)
	tm.keys("C-d")
	tm.waitFor("EXIT=0", 10*time.Second)
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	o := openaiRun(sb, srv, "--resume", id, "-p", "and its population?")
	o.want(t, 0)
	if !strings.Contains(o.stdout, "2 million") {
		t.Fatalf("run should continue the chat: %q", o.stdout)
	}
	if last := string(srv.Requests()[1].Body); !contains(last, "capital of France?") || !contains(last, "The capital is Paris.") {
		t.Fatalf("the resumed run should carry the chat's conversation: %s", last)
	}
}

// TestChatMissingKeyFailsBeforeTheScreen: a configuration problem is said
// on the terminal and exits 2, before any screen is drawn.
func TestChatMissingKeyFailsBeforeTheScreen(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	tm := startTerm(t, sb, nil, "chat", "--provider", "openai", "--model", "m")
	scr := tm.waitFor("EXIT=", 10*time.Second)
	if !strings.Contains(scr, "EXIT=2") || !strings.Contains(scr, "OPENAI_API_KEY is not set") || strings.Contains(scr, "Ask anything") {
		t.Fatalf("want exit 2 naming the key, no screen:\n%s", scr)
	}
}
