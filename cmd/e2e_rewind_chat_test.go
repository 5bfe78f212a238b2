package cmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// TestChatRewindCodeAndConversation: two turns in the chat, the first
// changing a file by a shell command; /rewind lists the turns, picking
// turn 1 shows the file it would restore, and "code and conversation"
// puts the file back and goes on in a branch without either turn, so the
// next request holds nothing of them.
func TestChatRewindCodeAndConversation(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	notes := filepath.Join(sb.work, "notes.txt")
	if err := os.WriteFile(notes, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI,
		shellTurn("echo changed > notes.txt"), finalAnswer("first turn done"),
		finalAnswer("second turn done"),
		finalAnswer("third turn done"))
	tm := startTermSized(t, sb, 100, 30, openaiKey, chatArgs(srv, "--permission", "auto")...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("alpha change the notes", "Enter")
	tm.waitFor("first turn done", 30*time.Second)
	if got, _ := os.ReadFile(notes); string(got) != "changed\n" {
		t.Fatalf("turn 1 did not change notes.txt: %q", got)
	}
	tm.keys("bravo say hello", "Enter")
	tm.waitFor("second turn done", 30*time.Second)

	// Esc twice on the empty prompt opens /rewind's list of turns.
	tm.keys("Escape")
	tm.waitFor("press Esc again to rewind", 10*time.Second)
	tm.keys("Escape")
	// The transcript holds both prompts too: wait for the menu's lines.
	scr := tm.waitFor("2  bravo say hello", 15*time.Second)
	if !strings.Contains(scr, "1  alpha change the notes") {
		t.Errorf("the menu should list both turns, numbered:\n%s", scr)
	}
	tm.keys("Down", "Enter")
	scr = tm.waitFor("Code and conversation", 15*time.Second)
	for _, want := range []string{"What should go back to before turn 1?", "rewrite notes.txt", "Conversation only", "Cancel"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the preview lacks %q:\n%s", want, scr)
		}
	}
	if got, _ := os.ReadFile(notes); string(got) != "changed\n" {
		t.Fatalf("the preview changed notes.txt: %q", got)
	}
	tm.keys("Enter")
	tm.waitFor("the chat goes on in it", 15*time.Second)
	if got, _ := os.ReadFile(notes); string(got) != "before\n" {
		t.Errorf("notes.txt after the rewind: %q, want it as before turn 1", got)
	}
	if n := len(sb.sessions()); n != 2 {
		t.Errorf("sessions after the rewind: %d, want the old one and its branch", n)
	}

	tm.keys("charlie start over", "Enter")
	tm.waitFor("third turn done", 30*time.Second)
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("got %d requests, want 4", len(reqs))
	}
	last := string(reqs[3].Body)
	if !strings.Contains(last, "charlie start over") {
		t.Errorf("the last request lacks its prompt: %.2000s", last)
	}
	for _, gone := range []string{"alpha change the notes", "bravo say hello", "first turn done", "second turn done", "echo changed"} {
		if strings.Contains(last, gone) {
			t.Errorf("the request after the rewind still holds %q: %.2000s", gone, last)
		}
	}
}

// TestChatRewindAsksBeforeOverwriting: a file changed outside llmrt
// after the turn that changed it is listed, and left as it is until
// "overwrite them" is chosen; the conversation stays with "code only".
func TestChatRewindAsksBeforeOverwriting(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	notes := filepath.Join(sb.work, "notes.txt")
	if err := os.WriteFile(notes, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI, shellTurn("echo changed > notes.txt"), finalAnswer("first turn done"))
	tm := startTermSized(t, sb, 100, 30, openaiKey, chatArgs(srv, "--permission", "auto")...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("alpha change the notes", "Enter")
	tm.waitFor("first turn done", 30*time.Second)
	if err := os.WriteFile(notes, []byte("edited by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.keys("/rewind 1", "Enter")
	tm.waitFor("Code only", 15*time.Second)
	tm.keys("Down", "Enter")
	scr := tm.waitFor("Overwrite them", 15*time.Second)
	if !strings.Contains(scr, "changed outside llmrt") || !strings.Contains(scr, "notes.txt") {
		t.Errorf("the conflict should be listed:\n%s", scr)
	}
	if got, _ := os.ReadFile(notes); string(got) != "edited by hand\n" {
		t.Fatalf("notes.txt was overwritten before the choice: %q", got)
	}
	tm.keys("Enter")
	tm.waitFor("files: restored", 15*time.Second)
	if got, _ := os.ReadFile(notes); string(got) != "before\n" {
		t.Errorf("notes.txt after overwriting: %q, want it as before turn 1", got)
	}
	if n := len(sb.sessions()); n != 1 {
		t.Errorf("code only made a session: %d sessions, want 1", n)
	}
	t.Logf("screen:\n%s", tm.screen(false))
}
