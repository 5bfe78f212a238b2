package cmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
	ossandbox "github.com/llmrt/llmrt/tools/sandbox"
)

// TestPlanModeRun: run --permission plan refuses a write by permission
// and a writing command, which an allow rule lets past the permission
// layer, in the kernel; nothing is written, the model is told it plans,
// and the plan is the answer on stdout (exit 0). With --sandbox off the
// command is refused by permission instead.
func TestPlanModeRun(t *testing.T) {
	t.Parallel()
	if err := ossandbox.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands: %v", err)
	}
	plan := "## Plan\n\n1. Create `made.txt`.\n\nRisks: none."
	for _, tc := range []struct {
		name    string
		flags   []string
		command string // what the command's result says
	}{
		{name: "sandboxed", flags: nil, command: "read-only file system"},
		{name: "sandbox off", flags: []string{"--sandbox", "off"}, command: "planning mode allows only reading"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t)
			srv := fake(t, fakellm.OpenAI,
				toolCall("write_file", `{"path":"written.txt","content":"x"}`),
				shellTurn("touch made.txt"),
				finalAnswer(plan))
			args := append([]string{"--permission", "plan", "--allow", "shell_cmd(command=touch *)"}, tc.flags...)
			o := sandboxRun(t, sb, srv, append(args, "-p", "add made.txt")...)
			o.want(t, 0)
			if strings.TrimSpace(o.stdout) != plan {
				t.Errorf("stdout %q, want the plan %q", o.stdout, plan)
			}
			for _, f := range []string{"written.txt", "made.txt"} {
				if _, err := os.Stat(filepath.Join(sb.work, f)); err == nil {
					t.Errorf("%s was created in plan mode", f)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("got %d requests, want 3", len(reqs))
			}
			first := string(reqs[0].Body)
			if !strings.Contains(first, "plan in Markdown") || !strings.Contains(first, "planning mode") {
				t.Errorf("the model was not told it plans: %.600s", first)
			}
			if r := lastToolResult(string(reqs[1].Body)); !strings.Contains(r, "planning mode allows only reading") {
				t.Errorf("write_file's result %q should say planning mode allows only reading", r)
			}
			if r := strings.ToLower(lastToolResult(string(reqs[2].Body))); !strings.Contains(r, tc.command) {
				t.Errorf("the command's result %q should say %q", r, tc.command)
			}
		})
	}
}

// lastToolResult is the part of a request body from its last tool result
// on: what the latest call returned.
func lastToolResult(body string) string {
	if i := strings.LastIndex(body, `"function_call_output"`); i >= 0 {
		return body[i:]
	}
	return body
}

// TestChatPlanMode: in the chat Shift+Tab moves the permission mode from
// ask to auto to plan, shown in the status line; a turn in plan mode is
// told it plans and ends with the plan and a choice; approving it in auto
// mode switches the status line to auto and sends the plan as the next
// prompt.
func TestChatPlanMode(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	plan := "## Plan\n\n1. Rename zebrafinch in main.go.\n\nRisks: none."
	srv := fake(t, fakellm.OpenAI, finalAnswer(plan), finalAnswer("carried out"))
	tm := startTermSized(t, sb, 100, 30, openaiKey, chatArgs(srv, "--plan-model", "planner")...)
	tm.waitFor("· ask ·", 15*time.Second)
	tm.keys("BTab")
	tm.waitFor("· auto ·", 15*time.Second)
	tm.keys("BTab")
	tm.waitFor("· plan ·", 15*time.Second)
	tm.keys("plan the rename", "Enter")
	tm.waitFor("Approve and run (auto)", 20*time.Second)
	scr := tm.waitFor("Keep planning", 5*time.Second)
	if !strings.Contains(scr, "zebrafinch") {
		t.Errorf("the plan should be on screen above the choice:\n%s", scr)
	}
	if first := string(srv.Requests()[0].Body); !strings.Contains(first, "planning mode") || !strings.Contains(first, "plan in Markdown") {
		t.Errorf("the planning turn was not told it plans: %.400s", first)
	}
	tm.keys("Down", "Enter")
	tm.waitFor("carried out", 20*time.Second)
	tm.waitFor("· auto ·", 5*time.Second)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	second := string(reqs[1].Body)
	if !strings.Contains(second, "The plan is approved") || !strings.Contains(second, "Rename zebrafinch in main.go") {
		t.Errorf("the execute prompt should carry the plan: %.2000s", lastUserText(second))
	}
	if strings.Contains(second, "## Planning mode") {
		t.Errorf("the executing turn should not be told it plans")
	}
	for i, want := range []string{"planner", "m"} {
		if got := bodyOf(t, reqs[i])["model"]; got != want {
			t.Errorf("request %d ran on %v, want %s (plan_model plans, the session's model carries out)", i+1, got, want)
		}
	}
}

// TestPlanModelRun: run --plan-model plans on that model in plan mode and
// leaves other modes on the session's model; a provider without its key
// is refused at once, naming the setting.
func TestPlanModelRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ mode, want string }{{"plan", "planner"}, {"auto", "m"}} {
		sb := newSandbox(t)
		srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
		sandboxRun(t, sb, srv, "--permission", tc.mode, "--plan-model", "planner", "-p", "go").want(t, 0)
		if got := bodyOf(t, srv.Requests()[0])["model"]; got != tc.want {
			t.Errorf("--permission %s: ran on %v, want %s", tc.mode, got, tc.want)
		}
	}
	sb := newSandbox(t)
	srv := fake(t, fakellm.OpenAI, finalAnswer("ok"))
	o := sandboxRun(t, sb, srv, "--permission", "plan", "--plan-model", "anthropic/claude-x", "-p", "go")
	o.want(t, 2)
	if !strings.Contains(o.stderr, "plan-model") || !strings.Contains(o.stderr, "anthropic/claude-x") || !strings.Contains(o.stderr, "ANTHROPIC_API_KEY") {
		t.Errorf("stderr should name the setting, the model and the missing key: %s", o.stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("a refused setting still ran %d requests", n)
	}
}

// lastUserText is the part of a request body from its last user message
// on.
func lastUserText(body string) string {
	if i := strings.LastIndex(body, `"role":"user"`); i >= 0 {
		return body[i:]
	}
	return body
}
