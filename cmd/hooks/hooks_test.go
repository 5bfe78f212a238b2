package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// script writes an executable shell script into dir and returns its path.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// runner returns a Runner over one set parsed from settings JSON.
func runner(t *testing.T, dir, settings string, claude bool) (*Runner, *[]string) {
	t.Helper()
	set, err := Parse([]byte(settings), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	set.Claude = claude
	var mu sync.Mutex
	var warned []string
	r := &Runner{Sets: []Set{set}, Dir: dir, ProjectDir: dir, Env: os.Environ(),
		Session: func() (string, string) { return "s1", "/tmp/s1.jsonl" },
		Warn:    func(m string) { mu.Lock(); warned = append(warned, m); mu.Unlock() }}
	return r, &warned
}

func hookJSON(event, matcher, command string) string {
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{event: []any{map[string]any{
		"matcher": matcher, "hooks": []any{map[string]any{"type": "command", "command": command}}}}}})
	return string(b)
}

func shellCall(cmd string) engine.HookCall {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return engine.HookCall{ID: "c1", Tool: "shell_cmd", Arguments: args}
}

// TestPreToolUseInClaudeTerms: a hook from Claude Code's settings
// matches "Bash", reads tool_input.command, and blocks with exit 2, its
// stderr the reason; a command it does not object to passes.
func TestPreToolUseInClaudeTerms(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "check.sh", `in=$(cat); echo "$in" > "$(dirname "$0")/input.json"
case "$in" in *'"command":"grep'*) echo "• Use 'rg' instead of 'grep'" >&2; exit 2;; esac
exit 0`)
	r, _ := runner(t, dir, hookJSON(PreToolUse, "Bash", s), true)
	v := r.BeforeTool(context.Background(), shellCall("grep -r TODO ."))
	if v.Decision != engine.HookBlock || !strings.Contains(v.Reason, "Use 'rg'") {
		t.Errorf("grep should be blocked with the hook's message: %+v", v)
	}
	var in map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, "input.json"))
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("the hook's stdin is not JSON: %q", b)
	}
	for k, want := range map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s1", "transcript_path": "/tmp/s1.jsonl", "cwd": dir} {
		if in[k] != want {
			t.Errorf("input %s = %v, want %v", k, in[k], want)
		}
	}
	if ti, _ := in["tool_input"].(map[string]any); ti["command"] != "grep -r TODO ." {
		t.Errorf("tool_input = %v", in["tool_input"])
	}
	if v := r.BeforeTool(context.Background(), shellCall("rg TODO")); v.Decision != "" {
		t.Errorf("rg should pass: %+v", v)
	}
	// Another tool does not match "Bash".
	args, _ := json.Marshal(map[string]string{"path": "grep.txt"})
	if v := r.BeforeTool(context.Background(), engine.HookCall{Tool: "read_file", Arguments: args}); v.Decision != "" {
		t.Errorf("read_file should not match Bash: %+v", v)
	}
}

// TestPreToolUseJSON: permissionDecision deny/ask/allow and updatedInput
// (in Claude Code's field names) are obeyed; a failing hook (exit 1) is
// shown and ignored.
func TestPreToolUseJSON(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		out  string
		want engine.HookDecision
	}{
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no network tools"}}`, engine.HookBlock},
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`, engine.HookAsk},
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, engine.HookAllow},
		{`{"decision":"block","reason":"old style"}`, engine.HookBlock},
	} {
		s := script(t, dir, "h.sh", "cat >/dev/null; echo '"+tc.out+"'")
		r, _ := runner(t, dir, hookJSON(PreToolUse, "", s), true)
		if v := r.BeforeTool(context.Background(), shellCall("curl x")); v.Decision != tc.want {
			t.Errorf("%s: decision %q, want %q", tc.out, v.Decision, tc.want)
		}
	}
	s := script(t, dir, "rw.sh", `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"rg TODO"}}}'`)
	r, _ := runner(t, dir, hookJSON(PreToolUse, "Bash", s), true)
	v := r.BeforeTool(context.Background(), shellCall("grep TODO"))
	if string(v.Arguments) != `{"command":"rg TODO"}` {
		t.Errorf("updatedInput should become the new arguments: %s", v.Arguments)
	}
	edit, _ := json.Marshal(map[string]string{"path": "a.go", "old_string": "x", "new_string": "y"})
	s = script(t, dir, "fp.sh", `cat >/dev/null; echo '{"hookSpecificOutput":{"updatedInput":{"file_path":"b.go"}}}'`)
	r, _ = runner(t, dir, hookJSON(PreToolUse, "Edit|Write", s), true)
	v = r.BeforeTool(context.Background(), engine.HookCall{Tool: "edit_file", Arguments: edit})
	var got map[string]any
	_ = json.Unmarshal(v.Arguments, &got)
	if got["path"] != "b.go" || got["old_string"] != "x" {
		t.Errorf("file_path should map to path, the rest stay: %s", v.Arguments)
	}
	s = script(t, dir, "bad.sh", "cat >/dev/null; echo oops >&2; exit 1")
	r, warned := runner(t, dir, hookJSON(PreToolUse, "*", s), true)
	if v := r.BeforeTool(context.Background(), shellCall("ls")); v.Decision != "" {
		t.Errorf("exit 1 should not block: %+v", v)
	}
	if len(*warned) != 1 || !strings.Contains((*warned)[0], "oops") {
		t.Errorf("exit 1 should be shown: %v", *warned)
	}
}

// TestPostToolUseAndStop: PostToolUse sees tool_response as Claude Code
// gives it (a command's stdout) and its exit 2 reaches the model; Stop
// gets stop_hook_active; llmrt's own config's hooks see llmrt's names.
func TestPostToolUseAndStop(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "post.sh", `in=$(cat); case "$in" in *'"stdout":"hello'*) echo "saw hello" >&2; exit 2;; esac; exit 0`)
	r, _ := runner(t, dir, hookJSON(PostToolUse, "Bash", s), true)
	v := r.AfterTool(context.Background(), shellCall("echo hello"), engine.ToolOutcome{Content: `{"output":"hello\n","exit_code":0}`})
	if v.Decision != engine.HookBlock || v.Reason != "saw hello" {
		t.Errorf("PostToolUse: %+v", v)
	}
	s = script(t, dir, "stop.sh", `in=$(cat); case "$in" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"run the tests"}';; esac`)
	r, _ = runner(t, dir, hookJSON(Stop, "", s), true)
	if v := r.BeforeStop(context.Background(), engine.HookStop{}); v.Decision != engine.HookBlock || v.Reason != "run the tests" {
		t.Errorf("Stop: %+v", v)
	}
	if v := r.BeforeStop(context.Background(), engine.HookStop{Again: true}); v.Decision != "" {
		t.Errorf("Stop again: %+v", v)
	}
	if v := r.BeforeStop(context.Background(), engine.HookStop{SubRun: true}); v.Decision != "" {
		t.Errorf("a sub-run's finish is SubagentStop, not Stop: %+v", v)
	}
	s = script(t, dir, "native.sh", `in=$(cat); case "$in" in *'"tool_name":"shell_cmd"'*) echo native >&2; exit 2;; esac`)
	r, _ = runner(t, dir, hookJSON(PreToolUse, "shell_cmd", s), false)
	if v := r.BeforeTool(context.Background(), shellCall("ls")); v.Decision != engine.HookBlock {
		t.Errorf("llmrt's own hooks match llmrt's names: %+v", v)
	}
}

// TestPromptHooksAndTimeout: UserPromptSubmit's plain stdout is context,
// its exit 2 blocks; a hook past its timeout is stopped, shown, ignored.
func TestPromptHooksAndTimeout(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "p.sh", `in=$(cat); case "$in" in *secret*) echo "no secrets in prompts" >&2; exit 2;; esac; echo "branch: main"`)
	r, _ := runner(t, dir, hookJSON(UserPromptSubmit, "", s), true)
	if v := r.UserPromptSubmit(context.Background(), "fix the bug"); v.Blocked || v.Context != "branch: main" {
		t.Errorf("plain stdout should be context: %+v", v)
	}
	if v := r.UserPromptSubmit(context.Background(), "the secret is x"); !v.Blocked || v.Reason != "no secrets in prompts" {
		t.Errorf("exit 2 should block: %+v", v)
	}
	set, _ := Parse([]byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"sleep 30 & sleep 30","timeout":0.5}]}]}}`), "x")
	var warned []string
	r = &Runner{Sets: []Set{set}, Dir: dir, ProjectDir: dir, Warn: func(m string) { warned = append(warned, m) }}
	start := time.Now()
	if v := r.BeforeTool(context.Background(), shellCall("ls")); v.Decision != "" {
		t.Errorf("a timed-out hook should not block: %+v", v)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout did not stop the hook and its children: %s", d)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "timed out") {
		t.Errorf("the timeout should be shown: %v", warned)
	}
}

// TestParseRefusesWhatItCannotRun: an unknown event, a bad matcher, a
// hook type other than command are errors naming the problem.
func TestParseRefusesWhatItCannotRun(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"hooks":{"BeforeAll":[]}}`, `unknown hook event "BeforeAll"`},
		{`{"hooks":{"PreToolUse":[{"matcher":"(","hooks":[{"type":"command","command":"x"}]}]}}`, "not a valid regular expression"},
		{`{"hooks":{"PreToolUse":[{"hooks":[{"type":"prompt","command":"x"}]}]}}`, `only "command" hooks`},
		{`{"hooks":{"PreToolUse":{}}}`, "should map an event to a list"},
		{`{"permissions":{}}`, ""},
	} {
		_, err := Parse([]byte(tc.in), "s.json")
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestSealedScripts: a project hook whose script changed after the seal
// does not run, and says why.
func TestSealedScripts(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "guard.sh", "cat >/dev/null; echo blocked >&2; exit 2")
	set, _ := Parse([]byte(hookJSON(PreToolUse, "", "$CLAUDE_PROJECT_DIR/guard.sh")), "x")
	set.Project = true
	var warned []string
	r := &Runner{Sets: []Set{set}, Dir: dir, ProjectDir: dir, Env: os.Environ(), Warn: func(m string) { warned = append(warned, m) }}
	r.Seal()
	if v := r.BeforeTool(context.Background(), shellCall("ls")); v.Decision != engine.HookBlock {
		t.Fatalf("the sealed script should run: %+v %v", v, warned)
	}
	script(t, dir, "guard.sh", "cat >/dev/null; exit 0 # changed by the run")
	if v := r.BeforeTool(context.Background(), shellCall("ls")); v.Decision != "" || len(warned) != 1 || !strings.Contains(warned[0], "changed since llmrt started") {
		t.Errorf("a changed script should not run: %+v %v", v, warned)
	}
	if got := Scripts(set, dir, dir); len(got) != 1 || got[0] != s {
		t.Errorf("Scripts = %v, want [%s]", got, s)
	}
}
