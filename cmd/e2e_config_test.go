package cmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

func TestConfigFromOutside(t *testing.T) {
	t.Parallel()
	t.Run("a bad config file exits 2 naming the file, line and key", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		sb.write(".llmrt/config.json", "{\n  \"model\": \"m\",\n  \"max_iterations\": \"many\"\n}\n")
		o := sb.run(cli{args: []string{"run", "--provider", "scripted", "-p", "hi"}})
		o.want(t, 2)
		if !contains(o.stderr, ".llmrt/config.json:3") || !contains(o.stderr, "max_iterations") {
			t.Errorf("stderr: %s", o.stderr)
		}
	})
	t.Run("precedence: flag over env over .env over project over user", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("a"), finalAnswer("b"), finalAnswer("c"), finalAnswer("d"), finalAnswer("e"))
		os.MkdirAll(filepath.Join(sb.home, "config", "llmrt"), 0o755)
		os.WriteFile(filepath.Join(sb.home, "config", "llmrt", "config.json"), []byte(`{"provider":"openai","model":"from-user"}`), 0o644)
		env := map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": srv.URL + "/v1"}
		model := func() string { r := srv.Requests(); return bodyOf(t, r[len(r)-1])["model"].(string) }
		sb.run(cli{args: []string{"run", "-p", "x"}, env: env}).want(t, 0)
		if m := model(); m != "from-user" {
			t.Errorf("user config: model %s", m)
		}
		sb.write(".llmrt/config.json", `{"model":"from-project"}`)
		sb.run(cli{args: []string{"run", "-p", "x"}, env: env}).want(t, 0)
		if m := model(); m != "from-project" {
			t.Errorf("project config: model %s", m)
		}
		sb.write(".env", "LLMRT_MODEL=from-dotenv\n")
		// A project's .env is read once the folder is trusted.
		sb.trust()
		sb.run(cli{args: []string{"run", "-p", "x"}, env: env}).want(t, 0)
		if m := model(); m != "from-dotenv" {
			t.Errorf(".env: model %s", m)
		}
		env["LLMRT_MODEL"] = "from-env"
		sb.run(cli{args: []string{"run", "-p", "x"}, env: env}).want(t, 0)
		if m := model(); m != "from-env" {
			t.Errorf("env: model %s", m)
		}
		sb.run(cli{args: []string{"run", "--model", "from-flag", "-p", "x"}, env: env}).want(t, 0)
		if m := model(); m != "from-flag" {
			t.Errorf("flag: model %s", m)
		}
	})
	t.Run("an unknown key is a warning, and an error under --strict", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t)
		sb.write(".llmrt/config.json", `{"modle":"typo"}`)
		srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
		o := openaiRun(sb, srv, "-o", "json", "-p", "hi")
		o.want(t, 0)
		if !contains(o.stderr, `unknown key "modle"`) || !contains(o.stdout, `unknown key \"modle\"`) {
			t.Errorf("the diagnostic should be shown and listed in JSON:\nstderr %s\nstdout %s", o.stderr, o.stdout)
		}
		strict := openaiRun(sb, srv, "--strict", "-p", "hi")
		strict.want(t, 2)
		if len(srv.Requests()) != 1 {
			t.Errorf("--strict must stop before the first model call")
		}
	})
}

func TestRunFlagsReachTheRequest(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sys := sb.write("system.md", "Answer in French.")
	srv := fake(t, fakellm.OpenAI, finalAnswer("oui"))
	o := openaiRun(sb, srv, "--system", "Be brief.", "--system-file", sys, "--temperature", "0", "--max-tokens", "321",
		"--reasoning-effort", "low", "-p", "hi")
	o.want(t, 0)
	body := bodyOf(t, srv.Requests()[0])
	effort, _ := body["reasoning"].(map[string]any)
	if body["temperature"] != 0.0 || body["max_output_tokens"] != 321.0 || effort["effort"] != "low" {
		t.Errorf("temperature %v, max tokens %v, reasoning %v", body["temperature"], body["max_output_tokens"], body["reasoning"])
	}
	sysMsg := systemPrompt(t, srv.Requests()[0])
	if !strings.HasPrefix(sysMsg, "Be brief.\n\nAnswer in French.") || !strings.Contains(sysMsg, "final_answer") {
		t.Errorf("system message: %q", sysMsg)
	}
}

func TestBudgetFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	u := &providers.Usage{InputTokens: 900, OutputTokens: 200}
	srv := fake(t, fakellm.OpenAI,
		scripted.Turn{ToolCalls: toolCall("list_files", `{}`).ToolCalls, Usage: u},
		scripted.Turn{ToolCalls: toolCall("path_exists", `{"path":"x"}`).ToolCalls, Usage: u})
	o := openaiRun(sb, srv, "--budget", "1000", "-p", "hi")
	o.want(t, 1)
	if !contains(o.stderr, "budget") {
		t.Errorf("stderr: %s", o.stderr)
	}
}

func TestTraceFile(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, toolCall("list_files", `{}`), finalAnswer("done"))
	trace := filepath.Join(sb.home, "trace.jsonl")
	openaiRun(sb, srv, "--trace", trace, "-p", "hi").want(t, 0)
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var types []string
	for _, l := range lines {
		var v struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("trace line does not parse: %s", l)
		}
		types = append(types, v.Type)
	}
	if types[0] != "run.start" || types[len(types)-2] != "run.success" || types[len(types)-1] != "run.end" {
		t.Errorf("trace line types: %v", types)
	}
	if strings.Contains(string(data), "sk-test") {
		t.Errorf("the API key leaked into the trace")
	}
}

func TestSessionsFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("first answer"), finalAnswer("second answer"), finalAnswer("unsaved"))
	openaiRun(sb, srv, "-p", "first question").want(t, 0)
	o := openaiRun(sb, srv, "--continue", "-p", "follow-up")
	o.want(t, 0)
	body := string(srv.Requests()[1].Body)
	if !strings.Contains(body, "first question") || !strings.Contains(body, "first answer") {
		t.Errorf("--continue should carry the earlier conversation: %s", body)
	}
	openaiRun(sb, srv, "--no-session", "-p", "not saved").want(t, 0)
	if n := len(sb.sessions()); n != 1 {
		t.Errorf("got %d session files, want 1 (--continue appends, --no-session saves nothing)", n)
	}
	for _, f := range sb.sessions() {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), "sk-test") {
			t.Errorf("the API key leaked into the session")
		}
	}
	list := sb.run(cli{args: []string{"sessions"}})
	list.want(t, 0)
	if !contains(list.stdout, "first question") || !contains(list.stdout, "completed") {
		t.Errorf("sessions: %s", list.stdout)
	}
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	show := sb.run(cli{args: []string{"sessions", "show", id}})
	show.want(t, 0)
	if !contains(show.stdout, "follow-up") || !contains(show.stdout, "second answer") {
		t.Errorf("sessions show: %s", show.stdout)
	}
	missing := sb.run(cli{args: []string{"sessions", "show", "nope"}})
	missing.want(t, 2)
	finished := openaiRun(sb, srv, "--resume", id)
	finished.want(t, 2)
	if !contains(finished.stderr, "give a prompt") {
		t.Errorf("resuming a finished session without a prompt: %s", finished.stderr)
	}
}

func TestToolsCommand(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write("README.md", "# hello\n")
	o := sb.run(cli{args: []string{"tools", "--json"}})
	o.want(t, 0)
	var infos []struct {
		Name, Kind, Source string
	}
	if err := json.Unmarshal([]byte(o.stdout), &infos); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, i := range infos {
		kinds[i.Name] = i.Kind
	}
	want := map[string]string{"read_file": "read", "write_file": "write", "edit_file": "write", "list_files": "read", "search_files": "read",
		"path_exists": "read", "create_directory": "write", "shell_cmd": "external_action", "web_fetch": "read",
		"ask_user_input": "interaction", "final_answer": "none", "blocked": "none"}
	for name, kind := range want {
		if kinds[name] != kind {
			t.Errorf("%s: kind %q, want %q", name, kinds[name], kind)
		}
	}
	call := sb.run(cli{args: []string{"tools", "call", "read_file", "--args", `{"path":"README.md"}`}})
	call.want(t, 0)
	if !contains(call.stdout, "1\t# hello") {
		t.Errorf("tools call read_file: %q", call.stdout)
	}
	ro := sb.run(cli{args: []string{"tools", "--tools", "read-only", "--json"}})
	if contains(ro.stdout, `"write_file"`) || !contains(ro.stdout, `"read_file"`) {
		t.Errorf("--tools read-only: %s", ro.stdout)
	}
}

// TestSigtermStopsChildren: SIGTERM during a shell command exits 130 at
// once, kills the command's process group and saves the session. It is
// not parallel: it times how soon llmrt stops, and the other tests' load
// would be timed with it.
func TestSigtermStopsChildren(t *testing.T) {
	sb := newSandbox(t)
	marker := "sleep " + uniqueMark()
	srv := fake(t, fakellm.OpenAI, toolCall("shell_cmd", `{"command":"`+marker+`"}`), finalAnswer("never"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := sb.command(ctx, cli{args: []string{"run", "--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m",
		"--permission", "auto", "-p", "sleep"}, env: map[string]string{"OPENAI_API_KEY": "k"}})
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if out, _ := exec.Command("pgrep", "-f", marker).Output(); len(out) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want 130", err)
	}
	// llmrt gives up waiting after 5 s (stopDeadline); a loaded machine
	// may need a few seconds to exit even so. Alone it takes well under 1 s.
	if took := time.Since(sent); took > 10*time.Second {
		t.Errorf("took %s to stop", took)
	}
	if out, _ := exec.Command("pgrep", "-f", marker).Output(); len(out) > 0 {
		t.Errorf("the shell child survived: %s", out)
	}
	if data, _ := os.ReadFile(sb.sessions()[0]); !strings.Contains(string(data), `"status":"cancelled"`) {
		t.Errorf("the session should record the cancelled run")
	}
	id := strings.TrimSuffix(filepath.Base(sb.sessions()[0]), ".jsonl")
	if !contains(stderr.String(), "interrupted") || !contains(stderr.String(), "resume with: llmrt run --resume "+id) {
		t.Errorf("stderr should say the run was interrupted and how to resume session %s:\n%s", id, stderr.String())
	}
}

// TestTimeoutFromOutside: --timeout ends a stuck run with exit 1 and says
// it timed out (an interruption would be 130).
func TestTimeoutFromOutside(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, scripted.Turn{DelayMS: 20_000, Text: "too late"})
	o := openaiRun(sb, srv, "--timeout", "500ms", "-p", "hi")
	o.want(t, 1)
	if !contains(o.stderr, "timed out") || !contains(o.stderr, "--timeout 500ms") {
		t.Errorf("stderr: %s", o.stderr)
	}
	if o.took > 15*time.Second { // the reply would come after 20 s
		t.Errorf("took %s", o.took)
	}
}
