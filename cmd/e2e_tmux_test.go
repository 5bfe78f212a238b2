package cmd_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// term is a real terminal: a detached tmux session on its own server.
type term struct {
	t      *testing.T
	socket string
}

// startTerm runs llmrt with args in a fresh 100x30 tmux pane. The command
// runs through a script that sets the sandbox environment and prints the
// exit code when llmrt ends.
func startTerm(t *testing.T, sb *sandbox, env map[string]string, args ...string) *term {
	t.Helper()
	return startTermTo(t, sb, env, "", args...)
}

// startTermTo is startTerm with stdout redirected to the file stdout (a
// terminal keeps stdin and stderr); "" keeps the terminal.
func startTermTo(t *testing.T, sb *sandbox, env map[string]string, stdout string, args ...string) *term {
	t.Helper()
	return startTermWith(t, sb, 100, 30, env, stdout, "", args...)
}

// startTermSized is startTerm on a cols×rows terminal.
func startTermSized(t *testing.T, sb *sandbox, cols, rows int, env map[string]string, args ...string) *term {
	t.Helper()
	return startTermWith(t, sb, cols, rows, env, "", "", args...)
}

// startTermWith is startTermTo with stdin read from the file stdin when it
// is not "" (a pipe or file on stdin, the terminal on stderr).
func startTermWith(t *testing.T, sb *sandbox, cols, rows int, env map[string]string, stdout, stdin string, args ...string) *term {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it); terminal tests need a real terminal")
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for _, kv := range sb.env(env) {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	b.WriteString("export TERM=xterm-256color\nunset NO_COLOR\n")
	fmt.Fprintf(&b, "cd '%s'\n'%s'", sb.work, binary)
	for _, a := range args {
		fmt.Fprintf(&b, " '%s'", strings.ReplaceAll(a, "'", `'\''`))
	}
	if stdout != "" {
		fmt.Fprintf(&b, " > '%s'", stdout)
	}
	if stdin != "" {
		fmt.Fprintf(&b, " < '%s'", stdin)
	}
	b.WriteString("\necho \"EXIT=$?\"\nsleep 60\n")
	script := filepath.Join(sb.home, "term.sh")
	if err := os.WriteFile(script, []byte(b.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, socket: "llmrt-test-" + uniqueMark()}
	tm.tmux("new-session", "-d", "-s", "main", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), script)
	sock := strings.TrimSpace(tm.tmux("display-message", "-p", "#{socket_path}"))
	t.Cleanup(func() {
		exec.Command("tmux", "-L", tm.socket, "kill-server").Run()
		os.Remove(sock)
	})
	return tm
}

func (tm *term) tmux(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen returns the visible pane; with escapes it keeps colour codes.
func (tm *term) screen(escapes bool) string {
	args := []string{"capture-pane", "-p", "-t", "main"}
	if escapes {
		args = append(args, "-e")
	}
	return tm.tmux(args...)
}

// waitFor polls the screen until it contains s.
func (tm *term) waitFor(s string, d time.Duration) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		scr := tm.screen(false)
		if strings.Contains(scr, s) {
			return scr
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %q on screen:\n%s", s, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitUntil polls the screen until ok holds for it; what names what is
// awaited in the failure. Use it where the text awaited is on the screen
// before the event too ("idle" before a turn as after it).
func (tm *term) waitUntil(what string, d time.Duration, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		scr := tm.screen(false)
		if ok(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %s on screen:\n%s", what, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (tm *term) keys(keys ...string) {
	tm.tmux(append([]string{"send-keys", "-t", "main"}, keys...)...)
}

const markdownAnswer = "# Results\n\nThe build is **green** and `go vet` is clean.\n\n- first point\n- second point\n"

// TestTerminalRendersMarkdown: on a terminal the answer is rendered
// Markdown (styled, markup gone); piped, the same run prints plain text
// with no ANSI bytes. The terminal run also proves a terminal stdin with -p
// is not waited on.
func TestTerminalRendersMarkdown(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer(markdownAnswer))
	env := map[string]string{"OPENAI_API_KEY": "k"}
	tm := startTerm(t, sb, env, "run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "report")
	scr := tm.waitFor("EXIT=0", 15*time.Second)
	colored := tm.screen(true)
	if strings.Contains(scr, "**green**") || strings.Contains(scr, "# Results") || !strings.Contains(scr, "green") {
		t.Errorf("the terminal should show rendered Markdown, got:\n%s", scr)
	}
	if !strings.Contains(colored, "\x1b[") {
		t.Errorf("rendered Markdown on a terminal should be styled")
	}

	srv2 := fake(t, fakellm.OpenAI, finalAnswer(markdownAnswer))
	o := openaiRun(sb, srv2, "-p", "report")
	o.want(t, 0)
	if strings.ContainsRune(o.stdout, 0x1b) || o.stdout != markdownAnswer {
		t.Errorf("piped output should be the plain answer without ANSI bytes, got %q", o.stdout)
	}
}

// TestTerminalAsksWithASelectList: on a terminal, ask_user_input shows a
// select list; arrow keys and enter answer it and the run continues.
func TestTerminalAsksWithASelectList(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), finalAnswer("Bonjour !"))
	tm := startTerm(t, sb, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "greet")
	tm.waitFor("Which language", 15*time.Second)
	tm.keys("Down")
	tm.keys("Enter")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "EXIT=0") || !strings.Contains(scr, "Bonjour") {
		t.Fatalf("the run should continue after the answer:\n%s", scr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !contains(string(reqs[1].Body), `{\"answers\":{\"lang\":\"fr\"}`) {
		t.Errorf("the model should get the chosen option: %s", reqs[len(reqs)-1].Body)
	}
}

// TestTerminalPermissionPrompt: in ask mode on a terminal, a write asks;
// allowing it once lets the write happen.
func TestTerminalPermissionPrompt(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("write_file", `{"path":"out/hello.txt","content":"hi\n"}`), finalAnswer("written"))
	tm := startTerm(t, sb, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "write it")
	tm.waitFor("Allow write_file", 15*time.Second)
	tm.keys("Enter") // "Allow once" is the first choice
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("run failed:\n%s", scr)
	}
	if data, err := os.ReadFile(filepath.Join(sb.work, "out", "hello.txt")); err != nil || string(data) != "hi\n" {
		t.Errorf("the approved write should have happened: %v %q", err, data)
	}
}

// TestTerminalResumeAsksPendingQuestions: a run paused without a terminal
// and resumed on one without --answer asks its pending question there.
func TestTerminalResumeAsksPendingQuestions(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", askArgs), finalAnswer("Hello!"))
	openaiRun(sb, srv, "-p", "greet").want(t, 3)
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	tm := startTerm(t, sb, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--resume", id)
	tm.waitFor("Which language", 15*time.Second)
	tm.keys("Enter") // English
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "EXIT=0") || !strings.Contains(scr, "Hello!") {
		t.Fatalf("the resumed run should ask, then finish:\n%s", scr)
	}
	if reqs := srv.Requests(); !contains(string(reqs[len(reqs)-1].Body), `{\"answers\":{\"lang\":\"en\"}`) {
		t.Errorf("the model should get the answer")
	}
}

// TestTerminalAsksThroughTTYWithPipedStdin: with input piped in and a
// person at the terminal, a write is asked about on the terminal, not
// denied.
func TestTerminalAsksThroughTTYWithPipedStdin(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	input := filepath.Join(sb.home, "input.txt")
	if err := os.WriteFile(input, []byte("piped notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI, toolCall("write_file", `{"path":"notes.txt","content":"saved\n"}`), finalAnswer("written"))
	tm := startTermWith(t, sb, 100, 30, map[string]string{"OPENAI_API_KEY": "k"}, "", input,
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "save these notes")
	tm.waitFor("Allow write_file", 15*time.Second)
	tm.keys("Enter") // allow once
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("run failed:\n%s", scr)
	}
	if data, err := os.ReadFile(filepath.Join(sb.work, "notes.txt")); err != nil || string(data) != "saved\n" {
		t.Errorf("the approved write should have happened: %v %q", err, data)
	}
	if !contains(string(srv.Requests()[0].Body), "piped notes") {
		t.Errorf("the piped input should still reach the model")
	}
}

const multiAskArgs = `{"type":"multiple-select","allowSkip":true,"questions":[{"header":"Formats","id":"fmt","question":"Which formats?",` +
	`"options":[{"id":"json","label":"JSON"},{"id":"yaml","label":"YAML"},{"id":"toml","label":"TOML"}],"allowOther":true}]}`

// TestTerminalMultiSelect: Enter with nothing toggled does not end the
// run, every entry is on screen, and after the answer the screen says
// what was chosen and no longer shows the list.
func TestTerminalMultiSelect(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", multiAskArgs), finalAnswer("Using YAML."))
	tm := startTermSized(t, sb, 80, 24, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "configure")
	scr := tm.waitFor("Which formats?", 15*time.Second)
	for _, entry := range []string{"[ ] JSON", "[ ] YAML", "[ ] TOML", "Other (type your own)", "Skip"} {
		if !strings.Contains(scr, entry) {
			t.Errorf("the list should show %q at 80x24:\n%s", entry, scr)
		}
	}
	tm.keys("Enter") // nothing toggled
	scr = tm.waitFor("choose at least one", 15*time.Second)
	if strings.Contains(scr, "EXIT=") || len(srv.Requests()) != 1 {
		t.Fatalf("Enter with nothing toggled should keep the question open:\n%s", scr)
	}
	tm.keys("Down")
	tm.keys("Space")
	tm.waitFor("[x] YAML", 15*time.Second)
	tm.keys("Enter")
	scr = tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "EXIT=0") || !strings.Contains(scr, "✔ Formats: YAML") {
		t.Fatalf("the screen should say YAML was chosen:\n%s", scr)
	}
	if strings.Contains(scr, "JSON") || strings.Contains(scr, "TOML") || strings.Contains(scr, "[x]") {
		t.Errorf("the list should be gone once answered:\n%s", scr)
	}
	if reqs := srv.Requests(); !contains(string(reqs[len(reqs)-1].Body), `{\"answers\":{\"fmt\":[\"yaml\"]}`) {
		t.Errorf("the model should get yaml: %s", reqs[len(reqs)-1].Body)
	}
}

// longCommand is a 200-character shell command.
const longCommand = "find . -name '*.go' -newer go.mod -not -path './vendor/*' | xargs grep -l TODO | sort | uniq | head -5000 && echo scanned && rm -rf ./build/cache/tmp-artifacts-that-should-never-be-deleted-by-surprise"

// TestTerminalPermissionShowsTheWholeCommand: a 200-character command is
// shown whole, wrapped, in its permission prompt at 80 columns.
func TestTerminalPermissionShowsTheWholeCommand(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, shellTurn(longCommand), finalAnswer("done"))
	tm := startTermSized(t, sb, 80, 24, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--sandbox", "off", "-p", "clean")
	scr := tm.waitFor("Allow shell_cmd", 15*time.Second)
	if len(longCommand) != 200 {
		t.Fatalf("the command has %d characters, want 200", len(longCommand))
	}
	flat := strings.Join(strings.Fields(scr), " ")
	if !strings.Contains(flat, "$ "+longCommand) {
		t.Errorf("the whole command should be on screen:\n%s", scr)
	}
	tm.keys("Down")
	tm.keys("Down")
	tm.keys("Down") // Deny…
	tm.keys("Enter")
	tm.waitFor("Why?", 15*time.Second)
	tm.keys("Enter") // no reason
	scr = tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "✗ shell_cmd: denied") || strings.Contains(scr, "Allow once") {
		t.Errorf("the screen should say the call was denied, without the prompt:\n%s", scr)
	}
}

// TestTerminalSpinner: while the model has not answered and while a
// command runs, a spinner with the elapsed time is on screen; it is gone
// once the answer is printed.
func TestTerminalSpinner(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	// The command runs, and the answer is held back, until the test has
	// seen each spinner.
	command := "until [ -e go-on ]; do sleep 0.05; done"
	srv := fake(t, fakellm.OpenAI, shellTurn(command), finalAnswer("Finished."))
	release := srv.Hold(2)
	tm := startTermSized(t, sb, 80, 24, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--permission", "auto", "-p", "wait")
	scr := tm.waitFor("shell_cmd  until [ -e go-on ]", 15*time.Second)
	if !strings.Contains(scr, "Ctrl-C to interrupt") {
		t.Errorf("a running command should show with its spinner:\n%s", scr)
	}
	sb.write("go-on", "")
	tm.waitFor("✓ shell_cmd  until [ -e go-on ]", 15*time.Second)
	tm.waitFor("thinking", 15*time.Second)
	release()
	scr = tm.waitFor("EXIT=", 15*time.Second)
	if strings.Contains(scr, "thinking") || strings.Contains(scr, "Ctrl-C to interrupt") || !strings.Contains(scr, "Finished.") {
		t.Errorf("the spinner should be cleared before the answer:\n%s", scr)
	}
	if !strings.Contains(scr, "✓ 2 model calls · ") {
		t.Errorf("a closing line should sum the run up:\n%s", scr)
	}
}

// TestTerminalTextFinishPrintsOnce: with --finish text, a text reply that
// ends the run is printed once, as the answer, not also as progress.
func TestTerminalTextFinishPrintsOnce(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, text("The only reply, printed once."))
	tm := startTermSized(t, sb, 80, 24, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--finish", "text", "-p", "say it")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if n := strings.Count(scr, "The only reply, printed once."); n != 1 || !strings.Contains(scr, "EXIT=0") {
		t.Errorf("want the reply once, got %d times:\n%s", n, scr)
	}
}

// TestTerminalSlowListArrivesLineByLine: the items of a slowly streamed
// list are on screen as they arrive, not all at once at its end.
func TestTerminalSlowListArrivesLineByLine(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	var b strings.Builder
	b.WriteString("Steps:\n\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "%d. step %d\n", i, i)
	}
	slow := finalAnswer(b.String())
	slow.ChunkDelayMS = 150
	srv := fake(t, fakellm.OpenAI, slow)
	tm := startTermSized(t, sb, 80, 24, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "list")
	scr := tm.waitFor("2. step 2", 15*time.Second)
	if strings.Contains(scr, "12. step 12") || strings.Contains(scr, "EXIT=") {
		t.Errorf("the first items should show before the list ends:\n%s", scr)
	}
	scr = tm.waitFor("EXIT=0", 30*time.Second)
	if !strings.Contains(scr, "12. step 12") {
		t.Errorf("the whole list should be there at the end:\n%s", scr)
	}
}
