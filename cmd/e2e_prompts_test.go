package cmd_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers/scripted"
)

// The prompts of `llmrt run` on a real terminal (tmux), at 80×24: what the
// screen keeps after an answer, and what reaches the model.

const formatArgs = `{"questions":[{"header":"Format","id":"fmt","question":"Which format should the config use?",` +
	`"options":[{"id":"json","label":"JSON"},{"id":"yaml","label":"YAML"},{"id":"toml","label":"TOML"}],"allowOther":true}]}`

// promptRun starts `llmrt run` at 80×24 against a fake OpenAI server
// playing turns.
func promptRun(t *testing.T, sb *sandbox, turns ...scripted.Turn) (*term, *fakellm.Server) {
	t.Helper()
	srv := fake(t, fakellm.OpenAI, turns...)
	tm := startTermSized(t, sb, 80, 24, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--sandbox", "off", "-p", "go")
	return tm, srv
}

// TestPromptKeepsWhatWasChosen: after choosing YAML the screen says so,
// and the options not chosen are gone.
func TestPromptKeepsWhatWasChosen(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	tm, srv := promptRun(t, sb, toolCall("ask_user_input", formatArgs), finalAnswer("Config written."))
	tm.waitFor("Which format", 15*time.Second)
	tm.keys("Down")
	tm.waitFor("› 2. YAML", 15*time.Second)
	tm.keys("Enter")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "✔ Format: YAML") || !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("the screen should say YAML was chosen:\n%s", scr)
	}
	for _, gone := range []string{"JSON", "TOML", "Other (type your own)", "Which format"} {
		if strings.Contains(scr, gone) {
			t.Errorf("%q should be gone once the question is answered:\n%s", gone, scr)
		}
	}
	if body := lastRequestText(t, srv); !contains(body, `{\"answers\":{\"fmt\":\"yaml\"}`) {
		t.Errorf("the model should get yaml: %s", body)
	}
}

// TestPromptNumberKeyChooses: a number key chooses its entry at once.
func TestPromptNumberKeyChooses(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	tm, srv := promptRun(t, sb, toolCall("ask_user_input", formatArgs), finalAnswer("TOML it is."))
	tm.waitFor("Which format", 15*time.Second)
	tm.keys("3")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "✔ Format: TOML") || !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("3 should choose TOML:\n%s", scr)
	}
	if body := lastRequestText(t, srv); !contains(body, `{\"answers\":{\"fmt\":\"toml\"}`) {
		t.Errorf("the model should get toml: %s", body)
	}
}

// TestPromptOtherText: text typed for "Other" reaches the model and stays
// on the screen, quoted.
func TestPromptOtherText(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	tm, srv := promptRun(t, sb, toolCall("ask_user_input", formatArgs), finalAnswer("INI then."))
	tm.waitFor("Which format", 15*time.Second)
	tm.keys("4")
	tm.waitFor("Your answer:", 15*time.Second)
	tm.keys("-l", "INI, with comments")
	tm.waitFor("INI, with comments", 15*time.Second)
	tm.keys("Enter")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, `✔ Format: "INI, with comments"`) || !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("the screen should keep the typed text:\n%s", scr)
	}
	if body := lastRequestText(t, srv); !contains(body, `\"other\":{\"fmt\":\"INI, with comments\"}`) {
		t.Errorf("the model should get the other text: %s", body)
	}
}

// TestPromptDenyWithReason: a reason typed after "Deny…" reaches the model
// in the tool result, and the run goes on.
func TestPromptDenyWithReason(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	tm, srv := promptRun(t, sb, shellTurn("rm -rf build"), finalAnswer("Left build alone."))
	tm.waitFor("Allow shell_cmd", 15*time.Second)
	tm.keys("4")
	tm.waitFor("Why?", 15*time.Second)
	tm.keys("-l", "build holds the release")
	tm.waitFor("build holds the release", 15*time.Second)
	tm.keys("Enter")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, `✗ shell_cmd: denied ("build holds the release")`) || !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("the screen should say the call was denied and why:\n%s", scr)
	}
	if body := lastRequestText(t, srv); !contains(body, "their reason: build holds the release") {
		t.Errorf("the model should get the reason: %s", body)
	}
}

// TestPromptEscCancel: Esc and then Cancel at a question end the run with
// exit 130.
func TestPromptEscCancel(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	tm, srv := promptRun(t, sb, toolCall("ask_user_input", formatArgs), finalAnswer("never"))
	tm.waitFor("Which format", 15*time.Second)
	tm.keys("Escape")
	tm.waitFor("Back to the question", 15*time.Second)
	tm.keys("Down")
	tm.waitFor("› 2. Cancel", 15*time.Second)
	tm.keys("Enter")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	flat := strings.Join(strings.Fields(scr), " ")
	if !strings.Contains(scr, "EXIT=130") || !strings.Contains(flat, "cancelled at a question") {
		t.Errorf("want exit 130 and the reason:\n%s", scr)
	}
	if strings.Contains(scr, "Back to the question") || strings.Contains(scr, "YAML") {
		t.Errorf("the prompt should be gone:\n%s", scr)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the model was called %d times, want 1", n)
	}
}

// TestPromptAllowForProject: "Allow always in this project" saves the rule
// to .llmrt/config.json, and a later run without a terminal is allowed by
// it.
func TestPromptAllowForProject(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".llmrt/config.json", `{"model": "m", "allow": ["read_file"]}`)
	// The folder is trusted; saving the rule keeps it trusted.
	sb.trust()
	write := toolCall("write_file", `{"path":"out/a.txt","content":"one\n"}`)
	tm, _ := promptRun(t, sb, write, finalAnswer("written"))
	tm.waitFor("Allow write_file", 15*time.Second)
	tm.keys("3")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "✔ write_file: allowed always in this project: write_file(") || !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("the screen should say the rule was saved:\n%s", scr)
	}
	data, err := os.ReadFile(filepath.Join(sb.work, ".llmrt", "config.json"))
	if err != nil || !strings.Contains(string(data), `"model": "m"`) || !strings.Contains(string(data), `"read_file",`) ||
		!strings.Contains(string(data), `"write_file(`) {
		t.Fatalf("the rule should be added to the project config: %v\n%s", err, data)
	}

	os.Remove(filepath.Join(sb.work, "out", "a.txt"))
	srv := fake(t, fakellm.OpenAI, write, finalAnswer("written again"))
	o := openaiRun(sb, srv, "-p", "write it")
	o.want(t, 0)
	if b, err := os.ReadFile(filepath.Join(sb.work, "out", "a.txt")); err != nil || string(b) != "one\n" {
		t.Errorf("the saved rule should allow the write without a terminal: %v %q\n%s", err, b, o.stderr)
	}
}

// TestPromptSigterm: SIGTERM while a question is open ends the run with
// exit 130, says it was a signal, and leaves no list on the screen: the
// prompt does not take the signal for itself.
func TestPromptSigterm(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	tm, _ := promptRun(t, sb, toolCall("ask_user_input", formatArgs), finalAnswer("never"))
	tm.waitFor("Which format", 15*time.Second)
	shell := strings.TrimSpace(tm.tmux("display-message", "-p", "-t", "main", "#{pane_pid}"))
	children, err := os.ReadFile(filepath.Join("/proc", shell, "task", shell, "children"))
	if err != nil {
		t.Skipf("cannot find llmrt's process: %v", err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(children))[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	scr := tm.waitFor("EXIT=", 15*time.Second)
	flat := strings.Join(strings.Fields(scr), " ")
	if !strings.Contains(scr, "EXIT=130") || !strings.Contains(flat, "interrupted (signal: terminated)") {
		t.Errorf("want exit 130 for the signal:\n%s", scr)
	}
	if strings.Contains(scr, "YAML") || strings.Contains(scr, "Which format") {
		t.Errorf("the question should be gone:\n%s", scr)
	}
}
