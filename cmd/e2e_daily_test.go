package cmd_test

// The details of a daily driver (issue 24): the status line, the queue,
// the argument menus, prompts on a small terminal.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers"
)

// claudeStatusLine is a status line script as Claude Code's
// documentation writes them: JSON on stdin read with jq, one line out,
// with colour.
const claudeStatusLine = `#!/bin/bash
input=$(cat)
MODEL_DISPLAY=$(echo "$input" | jq -r '.model.display_name')
CURRENT_DIR=$(echo "$input" | jq -r '.workspace.current_dir')
IN=$(echo "$input" | jq -r '.context_window.total_input_tokens')
SID=$(echo "$input" | jq -r '.session_id')
echo -e "\033[36m[$MODEL_DISPLAY]\033[0m dir ${CURRENT_DIR##*/} in=$IN sid=${SID:0:8}"
`

// TestChatStatusLineFromClaudeCode: a status line script written for
// Claude Code, set with Claude Code's statusLine object, shows its line in
// the chat, and shows the session and the tokens once a turn has run.
func TestChatStatusLineFromClaudeCode(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (.ci/run installs it); the Claude Code example script needs it")
	}
	sb := newSandbox(t)
	script := filepath.Join(sb.home, "statusline.sh")
	if err := os.WriteFile(script, []byte(claudeStatusLine), 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(sb.home, "config", "llmrt", "config.json")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(`{"status_line": {"type": "command", "command": "`+script+`", "padding": 0}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	answer := finalAnswer("hello")
	answer.Usage = &providers.Usage{InputTokens: 1234, OutputTokens: 56}
	srv := fake(t, fakellm.OpenAI, answer)
	tm := startTermSized(t, sb, 80, 24, openaiKey, chatArgs(srv)...)
	scr := tm.waitFor("[m] dir "+filepath.Base(sb.work)+" in=0", 15*time.Second)
	lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	if len(lines) < 2 || !strings.Contains(lines[len(lines)-2], "[m] dir") || !strings.Contains(lines[len(lines)-1], "openai/m") {
		t.Errorf("the own line should sit right above llmrt's:\n%s", scr)
	}
	tm.keys("hi", "Enter")
	// The session's id starts with the year.
	tm.waitFor("in=1234 sid=2", 15*time.Second)
}

// TestChatStatusLineFails: a status line command that fails says so in
// its line; an untrusted project's status_line is not run.
func TestChatStatusLineFails(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	config := filepath.Join(sb.home, "config", "llmrt", "config.json")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(`{"status_line": "echo broken >&2; exit 3"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(sb.home, "ran")
	sb.write(".llmrt/config.json", `{"status_line": "touch `+marker+`"}`)
	srv := fake(t, fakellm.OpenAI, finalAnswer("hello"))
	tm := startTermSized(t, sb, 80, 24, openaiKey, chatArgs(srv)...)
	tm.waitFor("Trust this folder's project files?", 15*time.Second)
	tm.keys("2")
	tm.waitFor("status_line: exit status 3", 15*time.Second)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("an untrusted project's status_line ran")
	}
}

// termSizes are the terminals the daily-driver tests run in: a small
// one and the classic one.
var termSizes = [][2]int{{60, 20}, {80, 24}}

// eachSize runs f as a parallel subtest at each of termSizes.
func eachSize(t *testing.T, f func(t *testing.T, w, h int)) {
	t.Parallel()
	for _, size := range termSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			f(t, size[0], size[1])
		})
	}
}

// TestChatQueuesAPromptWhileItWorks: at 60×20 and 80×24, a prompt sent
// while the answer streams shows as queued and is sent once the turn is
// over; both requests reach the model in order.
func TestChatQueuesAPromptWhileItWorks(t *testing.T) { eachSize(t, chatQueues) }

func chatQueues(t *testing.T, w, h int) {
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		slow("one two three four five six seven eight nine ten eleven twelve", 150),
		finalAnswer("the second answer"))
	tm := startTermSized(t, sb, w, h, openaiKey, chatArgs(srv, "--finish", "text")...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("first question", "Enter")
	tm.waitFor("two", 10*time.Second)
	tm.keys("and a second one", "Enter")
	scr := tm.waitFor("queued › and a second one", 5*time.Second)
	t.Logf("queued:\n%s", scr)
	if strings.Contains(scr, "the second answer") {
		t.Fatalf("the queued prompt went before the turn ended:\n%s", scr)
	}
	scr = tm.waitFor("the second answer", 15*time.Second)
	if strings.Contains(scr, "queued ›") || !strings.Contains(scr, "› and a second one") {
		t.Errorf("the queued prompt should now be a sent one:\n%s", scr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "and a second one") || strings.Contains(string(reqs[0].Body), "and a second one") {
		t.Errorf("want two requests, the second with the queued prompt; got %d", len(reqs))
	}
}

// TestChatModelPicker: "/model " opens the provider's models and the
// other providers; typing narrows the list and Enter on a chosen model
// switches to it; a provider without its key is not switched to, and the
// chat says why; at 60×20 and 80×24.
func TestChatModelPicker(t *testing.T) { eachSize(t, chatModelPicker) }

func chatModelPicker(t *testing.T, w, h int) {
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("hello"))
	tm := startTermSized(t, sb, w, h, openaiKey, chatArgs(srv)...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("/model ")
	scr := tm.waitFor("in use", 10*time.Second)
	for _, want := range []string{"m  openai · in use", "gpt-4.1"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the menu lacks %q:\n%s", want, scr)
		}
	}
	tm.keys("claude")
	tm.waitFor("› /model claude", 5*time.Second)
	scr = tm.waitFor("anthropic/claude", 5*time.Second)
	if !strings.Contains(scr, "anthropic/claude-sonnet-4-5  no key: set ANTHROPIC_API_KEY") {
		t.Errorf("a provider without its key should say so in the menu:\n%s", scr)
	}
	tm.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "nano")
	// The keys arrive one by one: wait for the whole word in the editor.
	tm.waitFor("› /model nano", 5*time.Second)
	scr = tm.waitFor("gpt-5-nano", 5*time.Second)
	if strings.Contains(scr, "gpt-4o-mini") {
		t.Errorf("typing should narrow the list:\n%s", scr)
	}
	tm.keys("Down", "Down", "Enter")
	tm.waitFor("Now using openai/gpt-5-nano.", 5*time.Second)
	tm.keys("/model anthropic/claude-sonnet-4-5", "Enter")
	scr = tm.waitFor("not switched", 5*time.Second)
	if !strings.Contains(scr, "ANTHROPIC_API_KEY is not set") || !strings.Contains(strings.Join(strings.Fields(scr), " "), "still using openai/gpt-5-nano") {
		t.Errorf("want the missing key named:\n%s", scr)
	}
}

// tenLines is a ten-line command, every line wrapping at 60 columns.
func tenLines() string {
	var lines []string
	for i := range 10 {
		lines = append(lines, fmt.Sprintf("echo line number %d of a long command that wraps", i+1))
	}
	return strings.Join(lines, "\n")
}

// checkFiveChoices fails unless the prompt on scr shows its header, the
// whole command or its first lines and a count of the hidden ones (always
// at 60×20), all five choices naming the command once, and the key hints.
func checkFiveChoices(t *testing.T, where, scr string, small bool) {
	t.Helper()
	folded := strings.Contains(scr, "more lines (PgDn)")
	if (small && !folded) || (!folded && !strings.Contains(scr, "echo line number 10 ")) {
		t.Errorf("%s: want the whole command, or its first lines and a count of the lines below:\n%s", where, scr)
	}
	for _, want := range []string{"Allow shell_cmd?", "$ echo line number 1 ", "1. Allow once",
		"2. Allow always in this session: this exact command", "3. Allow always in this project: this exact command",
		"4. Deny", "5. Cancel the run", "enter or 1-5 choose"} {
		if !strings.Contains(scr, want) {
			t.Errorf("%s: the prompt lacks %q:\n%s", where, want, scr)
		}
	}
}

// TestPromptsFitASmallTerminal: at 60×20 (and 80×24) a ten-line
// command's prompt keeps all five choices and the hints on screen, the
// command shown once with a count of what is below the fold, in the chat
// and in run; in run, moving the cursor leaves no copies of the choices
// in the scrollback and Esc leaves the "denied" line.
func TestPromptsFitASmallTerminal(t *testing.T) { eachSize(t, promptsFit) }

func promptsFit(t *testing.T, w, h int) {
	t.Run("chat", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, shellTurn(tenLines()), finalAnswer("done"))
		tm := startTermWith(t, sb, w, h, openaiKey, "", "", chatArgs(srv, "--sandbox", "off")...)
		tm.waitFor("Ask anything", 10*time.Second)
		tm.keys("look", "Enter")
		scr := tm.waitFor("Cancel the run", 15*time.Second)
		checkFiveChoices(t, "chat", scr, h <= 20)
		if !strings.Contains(scr, "waiting for you") {
			t.Errorf("the status line should stay:\n%s", scr)
		}
		tm.keys("Escape")
		tm.waitFor("shell_cmd: denied", 15*time.Second)
	})
	t.Run("run", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, shellTurn(tenLines()), finalAnswer("done"))
		tm := startTermWith(t, sb, w, h, openaiKey, "", "", "run", "--provider", "openai", "--base-url", srv.URL+"/v1",
			"--model", "m", "--sandbox", "off", "-p", "look")
		scr := tm.waitFor("Cancel the run", 15*time.Second)
		checkFiveChoices(t, "run", scr, h <= 20)
		tm.keys("Down", "Down", "Up", "PageDown")
		time.Sleep(200 * time.Millisecond)
		tm.keys("Escape")
		tm.waitFor("EXIT=0", 15*time.Second)
		all := tm.tmux("capture-pane", "-p", "-t", "main", "-S", "-")
		if n := strings.Count(all, "1. Allow once"); n != 0 {
			t.Errorf("the scrollback keeps %d copies of the choices:\n%s", n, all)
		}
		if !strings.Contains(all, "✗ shell_cmd: denied") {
			t.Errorf("Esc should leave the denied line:\n%s", all)
		}
	})
}

// TestRunStreamsALongParagraph: on a terminal, `run` shows a long
// paragraph's first lines while the rest is still being written, and the
// spinner until then; the end shows the whole answer once.
func TestRunStreamsALongParagraph(t *testing.T) { eachSize(t, runStreams) }

func runStreams(t *testing.T, w, h int) {
	sb := newSandbox(t)
	para := "Alpha begins the answer, which is one long paragraph written slowly, word by word, the way a model streams it; " +
		"its first lines must reach the screen before the last words are written, and nothing may show twice. Omega ends it."
	answer := finalAnswer(para)
	// The fake server sends a call's arguments in two halves, this far
	// apart: the window in which the first half alone is on screen is
	// wide enough for a loaded machine to look.
	answer.ChunkDelayMS = 2000
	srv := fake(t, fakellm.OpenAI, answer)
	tm := startTermWith(t, sb, w, h, openaiKey, "", "", "run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "go")
	tm.waitFor("Ctrl-C to interrupt", 15*time.Second) // the spinner
	scr := tm.waitFor("Alpha begins", 30*time.Second)
	if strings.Contains(scr, "Omega") {
		t.Errorf("the paragraph showed only once complete:\n%s", scr)
	}
	scr = tm.waitFor("EXIT=0", 45*time.Second)
	flat := strings.Join(strings.Fields(scr), " ")
	if strings.Count(flat, "Alpha begins") != 1 || !strings.Contains(flat, "twice. Omega ends it.") {
		t.Errorf("the answer should show once, whole:\n%s", scr)
	}
}

// TestToolResultsAtAGlance: at 60×20 and 80×24, each finished call's line
// says what it did (lines read, exit status) and a command's last three
// output lines show dimmed under it; Ctrl+O expands only the latest call
// and folds it again.
func TestToolResultsAtAGlance(t *testing.T) { eachSize(t, toolsAtAGlance) }

func toolsAtAGlance(t *testing.T, w, h int) {
	sb := newSandbox(t)
	if err := os.WriteFile(filepath.Join(sb.work, "notes.txt"), []byte("a\nb\nc\nd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI, toolCall("read_file", `{"path":"notes.txt"}`), shellTurn("seq 1 7"), finalAnswer("counted"))
	tm := startTermSized(t, sb, w, h, openaiKey, chatArgs(srv, "--permission", "auto")...)
	tm.waitFor("Ask anything", 10*time.Second)
	tm.keys("count", "Enter")
	scr := tm.waitFor("counted", 15*time.Second)
	for _, want := range []string{"✓ read_file  notes.txt", "· 4 lines", "✓ shell_cmd  seq 1 7", "exit 0 · 7 lines", "\n    5\n    6\n    7\n"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q:\n%s", want, scr)
		}
	}
	tm.keys("C-o")
	scr = tm.waitFor("arguments", 5*time.Second)
	if !strings.Contains(scr, `"command": "seq 1 7"`) || strings.Contains(scr, `"path": "notes.txt"`) {
		t.Errorf("Ctrl+O should expand the command's call alone:\n%s", scr)
	}
	tm.keys("C-o")
	tm.waitUntil("the call folded", 5*time.Second, func(s string) bool { return !strings.Contains(s, "arguments") })
}

// TestRunStreamsCodeLineByLine: on a terminal, `run` shows a code block's
// lines as they are written, as code, before its fence closes; the raw
// fence never shows.
func TestRunStreamsCodeLineByLine(t *testing.T) { eachSize(t, runStreamsCode) }

func runStreamsCode(t *testing.T, w, h int) {
	sb := newSandbox(t)
	// The fake server sends a call's arguments in two halves, two
	// seconds apart: the first half ends inside the block, after the
	// second line, so for two seconds the block is on screen open.
	code := "func first() {}\nfunc second() {}\n" + strings.Repeat("func middle() {}\n", 12) + "func last() {}\n"
	answer := finalAnswer("The code:\n\n```go\n" + code + "```\n\nDone.")
	answer.ChunkDelayMS = 2000
	srv := fake(t, fakellm.OpenAI, answer)
	tm := startTermWith(t, sb, w, h, openaiKey, "", "", "run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "go")
	scr := tm.waitFor("    func second() {}", 30*time.Second)
	if strings.Contains(scr, "func last") || strings.Contains(scr, "```") {
		t.Errorf("the code should show line by line, as code, before its fence closes:\n%s", scr)
	}
	scr = tm.waitFor("EXIT=0", 45*time.Second)
	if strings.Count(scr, "func second() {}") != 1 || !strings.Contains(scr, "    func last() {}") || strings.Contains(scr, "```") {
		t.Errorf("the code should show once, whole:\n%s", scr)
	}
}
