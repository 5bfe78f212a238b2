package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// endLines counts the end lines of a session file.
func endLines(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), `"type":"end"`)
}

// TestTerminalQuestionIsOneRun: a question answered on the terminal is one
// step of one run: `run -o json > file` reports both model calls, the
// summed usage and one run id, and the session holds one end line.
func TestTerminalQuestionIsOneRun(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI,
		scripted.Turn{ToolCalls: toolCall("ask_user_input", askArgs).ToolCalls, Usage: &providers.Usage{InputTokens: 100, OutputTokens: 10}},
		scripted.Turn{ToolCalls: finalAnswer("Bonjour !").ToolCalls, Usage: &providers.Usage{InputTokens: 200, OutputTokens: 20}})
	outFile := filepath.Join(sb.home, "out.json")
	tm := startTermTo(t, sb, map[string]string{"OPENAI_API_KEY": "k"}, outFile,
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-o", "json", "-p", "greet")
	tm.waitFor("Which language", 15*time.Second)
	tm.keys("Down")
	tm.keys("Enter")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("the run should complete:\n%s", scr)
	}
	data, _ := os.ReadFile(outFile)
	var got struct {
		Status     string          `json:"status"`
		Output     string          `json:"output"`
		Iterations int             `json:"iterations"`
		Usage      providers.Usage `json:"usage"`
		RunID      string          `json:"run_id"`
		SessionID  string          `json:"session_id"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, data)
	}
	if got.Status != "completed" || got.Output != "Bonjour !" || got.Iterations != 2 ||
		got.Usage.InputTokens != 300 || got.Usage.OutputTokens != 30 || got.RunID == "" {
		t.Errorf("got %+v, want completed, 2 iterations, usage 300/30 and a run id", got)
	}
	files := sb.sessions()
	if len(files) != 1 {
		t.Fatalf("got %d sessions, want 1", len(files))
	}
	if n := endLines(t, files[0]); n != 1 {
		t.Errorf("the session holds %d end lines, want 1", n)
	}
	if sess, _ := os.ReadFile(files[0]); strings.Count(string(sess), `"run_id":"`+got.RunID+`"`) != 1 || strings.Count(string(sess), `"run_id"`) != 1 {
		t.Errorf("the session should name one run, %s:\n%s", got.RunID, sess)
	}
}

// TestTerminalIncompleteAnswerIsAskedAgain: a multiple-select question
// submitted with nothing chosen stays open, and nothing reaches the model
// until it is answered.
func TestTerminalIncompleteAnswerIsAskedAgain(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	multi := `{"type":"multiple-select","questions":[{"header":"Checks","id":"checks","question":"Which checks should run?",` +
		`"options":[{"id":"vet","label":"go vet"},{"id":"test","label":"go test"}]}]}`
	srv := fake(t, fakellm.OpenAI, toolCall("ask_user_input", multi), finalAnswer("ran them"))
	tm := startTerm(t, sb, map[string]string{"OPENAI_API_KEY": "k"},
		"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "check")
	tm.waitFor("Which checks", 15*time.Second)
	tm.keys("Enter") // nothing chosen: the list says to choose and stays
	tm.waitFor("choose at least one", 15*time.Second)
	tm.keys("x") // toggle the first option
	tm.keys("Enter")
	scr := tm.waitFor("EXIT=", 15*time.Second)
	if !strings.Contains(scr, "EXIT=0") {
		t.Fatalf("the run should complete after the second answer:\n%s", scr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !contains(string(reqs[1].Body), `{\"answers\":{\"checks\":[\"vet\"]}`) {
		t.Errorf("the model should get the complete answer once: %d requests, last %s", len(reqs), reqs[len(reqs)-1].Body)
	}
}

// TestTerminalCancelAtPermissionPrompt: "Cancel the run" and Ctrl-C at a
// permission prompt both end with exit 130, say so honestly, and print the
// session id with the command that resumes it.
func TestTerminalCancelAtPermissionPrompt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		keys [][]string
	}{
		{"cancel the run", [][]string{{"Down"}, {"Down"}, {"Down"}, {"Down"}, {"Enter"}}},
		{"ctrl-c", [][]string{{"C-c"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, fakellm.OpenAI, toolCall("write_file", `{"path":"x.txt","content":"hi"}`), finalAnswer("written"))
			tm := startTerm(t, sb, map[string]string{"OPENAI_API_KEY": "k"},
				"run", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "-p", "write it")
			tm.waitFor("Allow write_file", 15*time.Second)
			for _, k := range tc.keys {
				tm.keys(k...)
			}
			scr := tm.waitFor("EXIT=", 15*time.Second)
			flat := strings.Join(strings.Fields(scr), " ")
			if !strings.Contains(scr, "EXIT=130") || !strings.Contains(flat, "cancelled at the permission prompt") || strings.Contains(scr, "--timeout") {
				t.Errorf("want exit 130 and an honest message:\n%s", scr)
			}
			files := sb.sessions()
			if len(files) != 1 {
				t.Fatalf("got %d sessions, want 1", len(files))
			}
			id := strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")
			if !strings.Contains(flat, "resume with: llmrt run --resume "+id) {
				t.Errorf("the resume command for %s is missing:\n%s", id, scr)
			}
			if _, err := os.Stat(filepath.Join(sb.work, "x.txt")); err == nil {
				t.Errorf("the cancelled write happened")
			}
		})
	}
}
