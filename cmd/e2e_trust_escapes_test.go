package cmd_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// hostileAnswer carries what an answer could use to take over a
// terminal: OSC 0 (title), OSC 52 (clipboard), OSC 8 (a disguised link),
// CSI (colour, clear screen), DCS, BEL, backspace and carriage-return
// overstrikes, and the 8-bit CSI. Its visible words must survive.
const hostileAnswer = "Start\x1b]0;PWNED title\x07 clip\x1b]52;c;cHduZWQ=\x07 link \x1b]8;;http://evil.example/\x07click here\x1b]8;;\x07" +
	" red\x1b[31mRED\x1b[0m clear\x1b[2J\x1b[H dcs\x1bP1$qm\x1b\\ bell\x07 back\bX cr\rY c1\u009b31mZ end"

// hostileVisible are words of hostileAnswer a reader sees.
var hostileVisible = []string{"Start", "clip", "link", "click here", "redRED", "clear", "bell", "backX", "crY", "c1Z end"}

// splitAnswer is a final_answer whose argument JSON the fake server sends
// in two pieces cut right after the ESC of the OSC 0, so one answer
// delta ends with ESC and the next starts with "]0;".
func splitAnswer(t *testing.T) (scripted.Turn, string) {
	t.Helper()
	for pad := 0; pad < 400; pad++ {
		answer := strings.Repeat("Some words to pad. ", 30)[:pad] + hostileAnswer
		raw, _ := json.Marshal(map[string]string{"answer": answer})
		if i := strings.Index(string(raw), `\u001b`); i+6 == len(raw)/2 {
			return finalAnswer(answer), answer
		}
	}
	t.Fatal("no padding puts the cut after the ESC")
	return scripted.Turn{}, ""
}

// hostileTurns are narration carrying the sequences (split across deltas
// at the spaces inside them) and a tool call whose command carries them,
// then the answer.
func hostileTurns(t *testing.T) ([]scripted.Turn, string) {
	final, answer := splitAnswer(t)
	// The command prints an OSC 0 and an OSC 52 whose payloads are put
	// together when it runs, so only its output holds them.
	cmd, _ := json.Marshal(map[string]string{"command": "printf 'out \\033]0;%s\\007 \\033]52;c;%s\\007done\\n' PW'NED' cHdu'ZWQ='"})
	return []scripted.Turn{
		{Reasoning: "thinking\x1b]0;PWNED title\x07 hard", Text: "Looking\x1b]0;PWNED title\x07 first.", ToolCalls: []scripted.Call{{Name: "shell_cmd", Arguments: cmd}}},
		final,
	}, answer
}

// controlBytes returns the control characters in s other than newline
// (C0, DEL and C1), as a readable list.
func controlBytes(s string) []string {
	var out []string
	for _, r := range s {
		if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 {
			out = append(out, fmt.Sprintf("%#x", r))
		}
	}
	return out
}

// TestPipedOutputHoldsNoControlSequences: piped -o text (with --verbose
// progress on stderr) prints the answer's words and none of its
// sequences; -o json and -o stream-json keep the exact text.
func TestPipedOutputHoldsNoControlSequences(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	turns, answer := hostileTurns(t)
	o := openaiRun(sb, fake(t, fakellm.OpenAI, turns...), "--permission", "auto", "--verbose", "-p", "go")
	o.want(t, 0)
	for name, s := range map[string]string{"stdout": o.stdout, "stderr": o.stderr} {
		if bad := controlBytes(s); len(bad) > 0 {
			t.Errorf("%s holds control characters %v:\n%q", name, bad, s)
		}
		if strings.Contains(s, "PWNED") || strings.Contains(s, "evil.example") || strings.Contains(s, "cHduZWQ") {
			t.Errorf("%s holds a sequence's payload:\n%s", name, s)
		}
	}
	for _, w := range hostileVisible {
		if !strings.Contains(o.stdout, w) {
			t.Errorf("stdout lost %q:\n%s", w, o.stdout)
		}
	}
	for _, w := range []string{"Looking first.", "shell_cmd"} {
		if !strings.Contains(o.stderr, w) {
			t.Errorf("--verbose progress lost %q:\n%s", w, o.stderr)
		}
	}

	turns, _ = hostileTurns(t)
	o = openaiRun(sb, fake(t, fakellm.OpenAI, turns...), "--permission", "auto", "-o", "json", "-p", "go")
	o.want(t, 0)
	var res struct{ Output string }
	if err := json.Unmarshal([]byte(o.stdout), &res); err != nil || res.Output != answer {
		t.Errorf("-o json should keep the exact answer: %v\n got %q\nwant %q", err, res.Output, answer)
	}
	if bad := controlBytes(o.stdout); len(bad) > 0 {
		t.Errorf("-o json should escape control characters, holds %v", bad)
	}

	turns, _ = hostileTurns(t)
	o = openaiRun(sb, fake(t, fakellm.OpenAI, turns...), "--permission", "auto", "-o", "stream-json", "-p", "go")
	o.want(t, 0)
	var joined, reasoning strings.Builder
	deltas := 0
	sc := bufio.NewScanner(strings.NewReader(o.stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct{ Type, Delta string }
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		switch ev.Type {
		case "answer_delta":
			joined.WriteString(ev.Delta)
			deltas++
			if strings.HasSuffix(ev.Delta, "\x1b") {
				deltas += 100 // the cut the test wants: ESC ends a delta
			}
		case "reasoning_delta":
			reasoning.WriteString(ev.Delta)
		}
	}
	if joined.String() != answer || deltas < 100 {
		t.Errorf("stream-json answer deltas should join to the exact answer, one ending with ESC (%d):\n got %q\nwant %q", deltas, joined.String(), answer)
	}
	if reasoning.String() != "thinking\x1b]0;PWNED title\x07 hard" {
		t.Errorf("stream-json reasoning should be exact, got %q", reasoning.String())
	}
	if bad := controlBytes(o.stdout); len(bad) > 0 {
		t.Errorf("-o stream-json should escape control characters, holds %v", bad)
	}
}

// recordedTerm is a tmux pane whose raw output — every byte llmrt writes
// to the terminal — is recorded to a file from before llmrt starts.
type recordedTerm struct {
	*term
	raw string
	// cursorBackspaces is set for the chat: Bubble Tea's renderer moves
	// the cursor left with backspaces when the tty allows it, so a
	// backspace in the raw output is not the answer's. The answer's own
	// shows instead as its word cut short on the screen.
	cursorBackspaces bool
}

func startRecordedTerm(t *testing.T, sb *sandbox, cols, rows int, args ...string) *recordedTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it); terminal tests need a real terminal")
	}
	gate, raw := filepath.Join(sb.home, "go"), filepath.Join(sb.home, "raw")
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for _, kv := range sb.env(openaiKey) {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	b.WriteString("export TERM=xterm-256color\nunset NO_COLOR\n")
	fmt.Fprintf(&b, "cd '%s'\nwhile [ ! -e '%s' ]; do sleep 0.05; done\n'%s'", sb.work, gate, binary)
	for _, a := range args {
		fmt.Fprintf(&b, " '%s'", strings.ReplaceAll(a, "'", `'\''`))
	}
	b.WriteString("\necho \"EXIT=$?\"\nsleep 60\n")
	script := filepath.Join(sb.home, "term.sh")
	if err := os.WriteFile(script, []byte(b.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, socket: fmt.Sprintf("llmrt-esc-%d", time.Now().UnixNano())}
	tm.tmux("new-session", "-d", "-s", "main", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), script)
	sock := strings.TrimSpace(tm.tmux("display-message", "-p", "#{socket_path}"))
	t.Cleanup(func() {
		exec.Command("tmux", "-L", tm.socket, "kill-server").Run()
		os.Remove(sock)
	})
	// OSC 52 would set a tmux buffer; OSC 0 the pane's title.
	tm.tmux("set-option", "-g", "set-clipboard", "on")
	tm.tmux("pipe-pane", "-o", "-t", "main", "cat >> '"+raw+"'")
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return &recordedTerm{term: tm, raw: raw}
}

// oscPattern finds OSC sequences: their number and payload.
var oscPattern = regexp.MustCompile("\x1b\\](\\d*);([^\x07\x1b]*)(?:\x07|\x1b\\\\)")

// checkTerminal fails the test when the terminal received anything of
// the answer's sequences: a title, a clipboard write, a link, a bell, a
// payload, a screen clear after the start; own lists the OSC sequences
// llmrt itself may send (the chat's window title, colour queries).
func (rt *recordedTerm) checkTerminal(t *testing.T, own ...string) {
	t.Helper()
	data, err := os.ReadFile(rt.raw)
	if err != nil {
		t.Fatal(err)
	}
	raw := string(data)
	for _, bad := range []string{"PWNED", "cHduZWQ", "evil.example", "\u009b", "\x1bP", "\x1b[31m"} {
		if strings.Contains(raw, bad) {
			i := strings.Index(raw, bad)
			t.Errorf("the terminal received %q: %q", bad, raw[max(i-30, 0):min(i+40, len(raw))])
		}
	}
	rest := oscPattern.ReplaceAllStringFunc(raw, func(seq string) string {
		m := oscPattern.FindStringSubmatch(seq)
		for _, o := range own {
			if m[1]+";"+m[2] == o || m[1] == o {
				return ""
			}
		}
		t.Errorf("the terminal received OSC %s;%q", m[1], m[2])
		return ""
	})
	if n := strings.Count(rest, "\x07"); n > 0 {
		t.Errorf("the terminal received %d BEL outside llmrt's own sequences", n)
	}
	if i := strings.Index(rest, "\x08"); i >= 0 && !rt.cursorBackspaces {
		t.Errorf("the terminal received a backspace: %q", rest[max(i-60, 0):min(i+40, len(rest))])
	}
	if title := strings.TrimSpace(rt.tmux("display-message", "-p", "#{pane_title}")); strings.Contains(title, "PWNED") {
		t.Errorf("the pane's title was set to %q", title)
	}
	if bufs := strings.TrimSpace(rt.tmux("list-buffers")); bufs != "" {
		t.Errorf("the clipboard (a tmux buffer) was written: %s", bufs)
	}
}

// TestRunOnATerminalShowsNoControlSequences: `llmrt run` on a terminal
// renders the answer and the progress lines; the terminal gets their
// words and none of the sequences.
func TestRunOnATerminalShowsNoControlSequences(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	turns, _ := hostileTurns(t)
	srv := fake(t, fakellm.OpenAI, turns...)
	rt := startRecordedTerm(t, sb, 80, 24, "run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m",
		"--permission", "auto", "--verbose", "-p", "go")
	scr := rt.waitFor("EXIT=", 20*time.Second)
	if !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("run failed:\n%s", scr)
	}
	t.Logf("the screen:\n%s", scr)
	for _, w := range []string{"click here", "redRED", "c1Z end", "Looking first."} {
		if !strings.Contains(scr, w) {
			t.Errorf("the screen lacks %q:\n%s", w, scr)
		}
	}
	rt.checkTerminal(t)
}

// TestChatShowsNoControlSequences: the chat streams the same answer; the
// terminal gets its words and none of its sequences.
func TestChatShowsNoControlSequences(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	turns, _ := hostileTurns(t)
	srv := fake(t, fakellm.OpenAI, turns...)
	rt := startRecordedTerm(t, sb, 80, 24, chatArgs(srv, "--permission", "auto")...)
	rt.cursorBackspaces = true
	rt.waitFor("Ask anything", 15*time.Second)
	rt.keys("go", "Enter")
	scr := rt.waitFor("c1Z end", 20*time.Second)
	t.Logf("the screen:\n%s", scr)
	for _, w := range []string{"click here", "redRED", "backX", "crY"} {
		if !strings.Contains(scr, w) {
			t.Errorf("the screen lacks %q:\n%s", w, scr)
		}
	}
	// The command's output, under its line once details are shown.
	rt.keys("C-o")
	rt.keys("PageUp")
	scr = rt.waitFor("out  done", 10*time.Second)
	t.Logf("with details:\n%s", scr)
	rt.keys("C-d")
	rt.waitFor("EXIT=", 10*time.Second)
	// The chat names its window and asks the terminal for its colours.
	rt.checkTerminal(t, "2;llmrt", "2;", "10", "11", "12")
}
