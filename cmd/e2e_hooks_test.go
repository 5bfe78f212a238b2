package cmd_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// bashValidator behaves as Claude Code's published example hook
// bash_command_validator_example.py (examples/hooks in the claude-code
// repository): a PreToolUse hook for Bash that reads the call as JSON on
// stdin and, for a command starting with grep (not piped) or find -name,
// prints why on stderr and exits 2. CI cannot fetch the published file;
// set LLMRT_CLAUDE_HOOK_EXAMPLE to its path to run these tests with it.
const bashValidator = `#!/usr/bin/env python3
import json, re, sys

RULES = [
    (r"^grep\b(?!.*\|)", "Use 'rg' (ripgrep) instead of 'grep' for better performance and features"),
    (r"^find\s+\S+\s+-name\b", "Use 'rg --files -g pattern' instead of 'find -name'"),
]

def main():
    try:
        data = json.load(sys.stdin)
    except json.JSONDecodeError as e:
        print(f"invalid JSON input: {e}", file=sys.stderr)
        sys.exit(1)
    if data.get("tool_name") != "Bash":
        sys.exit(0)
    command = data.get("tool_input", {}).get("command", "")
    problems = [msg for pat, msg in RULES if re.search(pat, command)]
    for msg in problems:
        print(f"• {msg}", file=sys.stderr)
    sys.exit(2 if problems else 0)

main()
`

// claudeHooks writes the project's .claude/settings.json with the bash
// validator as a PreToolUse hook and the given extra events, in Claude
// Code's format.
func (sb *sandbox) claudeHooks(extra map[string]any) {
	sb.t.Helper()
	validator := bashValidator
	if p := os.Getenv("LLMRT_CLAUDE_HOOK_EXAMPLE"); p != "" {
		b, err := os.ReadFile(p)
		if err != nil {
			sb.t.Fatal(err)
		}
		validator = string(b)
	}
	sb.write(".claude/hooks/bash_validator.py", validator)
	hooks := map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{
		map[string]any{"type": "command", "command": `python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/bash_validator.py`}}}}}
	for k, v := range extra {
		hooks[k] = v
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	sb.write(".claude/settings.json", string(b))
}

func commandHook(matcher, command string) []any {
	return []any{map[string]any{"matcher": matcher, "hooks": []any{map[string]any{"type": "command", "command": command}}}}
}

// TestClaudeCodeHooks: in a trusted folder, Claude Code's example hook in
// .claude/settings.json blocks a grep command and its message reaches the
// model; a PostToolUse hook sees the command's output; a JSON
// permissionDecision of deny denies; updatedInput changes the command
// that runs.
func TestClaudeCodeHooks(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.write(".claude/hooks/policy.sh", `#!/bin/sh
in=$(cat)
case "$in" in
*'"command":"curl'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no network from this project"}}' ;;
*'"command":"echo original"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten"}}}' ;;
esac
`)
	sb.claudeHooks(map[string]any{
		"PostToolUse": commandHook("Bash", `cat >> "$CLAUDE_PROJECT_DIR/post.log"; echo >> "$CLAUDE_PROJECT_DIR/post.log"; env > "$CLAUDE_PROJECT_DIR/hook.env"`),
	})
	settings, _ := os.ReadFile(filepath.Join(sb.work, ".claude/settings.json"))
	var s map[string]map[string][]any
	_ = json.Unmarshal(settings, &s)
	s["hooks"]["PreToolUse"] = append(s["hooks"]["PreToolUse"], commandHook("Bash", `sh "$CLAUDE_PROJECT_DIR/.claude/hooks/policy.sh"`)...)
	b, _ := json.Marshal(s)
	sb.write(".claude/settings.json", string(b))
	sb.trust()
	srv := fake(t, fakellm.OpenAI,
		shellTurn("grep -r TODO ."),
		shellTurn("echo hello from the command"),
		shellTurn("curl http://example.com"),
		shellTurn("echo original"),
		finalAnswer("done"))
	o := openaiRun(sb, srv, "--permission", "auto", "--sandbox", "off", "-p", "look")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("want 5 model calls, got %d\nstderr: %s", len(reqs), o.stderr)
	}
	if body := string(reqs[1].Body); !strings.Contains(body, "blocked by a hook") || !strings.Contains(body, "Use 'rg' (ripgrep) instead of 'grep'") {
		t.Errorf("the hook's message should reach the model:\n%s", body)
	}
	post, _ := os.ReadFile(filepath.Join(sb.work, "post.log"))
	if !strings.Contains(string(post), `"hook_event_name":"PostToolUse"`) || !strings.Contains(string(post), `"stdout":"hello from the command`) {
		t.Errorf("the PostToolUse hook should see the result:\n%s", post)
	}
	if strings.Contains(string(post), "TODO") {
		t.Errorf("the blocked grep ran (PostToolUse saw it):\n%s", post)
	}
	// Hooks get the environment commands get: no provider key.
	if env, _ := os.ReadFile(filepath.Join(sb.work, "hook.env")); !strings.Contains(string(env), "PATH=") || strings.Contains(string(env), "sk-test") {
		t.Errorf("a hook's environment should hold PATH and no provider key:\n%s", env)
	}
	if body := string(reqs[3].Body); !strings.Contains(body, "no network from this project") {
		t.Errorf("permissionDecision deny should refuse the call with its reason:\n%s", body)
	}
	if body := string(reqs[4].Body); !strings.Contains(body, `output\":\"rewritten`) || strings.Contains(body, `output\":\"original`) {
		t.Errorf("updatedInput should change the command that runs:\n%s", body)
	}
}

// TestUntrustedFolderHooksDoNotRun: the same settings in a folder never
// trusted run nothing: grep runs, the PostToolUse hook writes nothing.
func TestUntrustedFolderHooksDoNotRun(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	sb.claudeHooks(map[string]any{"PostToolUse": commandHook("", `touch "$CLAUDE_PROJECT_DIR/ran"`)})
	sb.write("notes.txt", "TODO: one\n")
	srv := fake(t, fakellm.OpenAI, shellTurn("grep -r TODO notes.txt"), finalAnswer("done"))
	o := openaiRun(sb, srv, "--permission", "auto", "--sandbox", "off", "-p", "look")
	o.want(t, 0)
	if body := string(srv.Requests()[1].Body); strings.Contains(body, "blocked by a hook") || !strings.Contains(body, "TODO: one") {
		t.Errorf("an untrusted folder's hook should not run:\n%s", body)
	}
	if _, err := os.Stat(filepath.Join(sb.work, "ran")); err == nil {
		t.Error("an untrusted folder's PostToolUse hook ran")
	}
	if !strings.Contains(o.stderr, "hook command(s) would run") || !strings.Contains(o.stderr, "llmrt trust") {
		t.Errorf("the run should say the folder's hooks did not run, and how to trust it:\n%s", o.stderr)
	}
}

// TestHooksFireForMCPTools: a user hook in ~/.claude/settings.json
// matching mcp__calc__.* sees an MCP server's call under Claude Code's
// name and blocks it.
func TestHooksFireForMCPTools(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	user, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": commandHook("mcp__calc__.*",
		`in=$(cat); echo "$in" > "$HOME/mcp-hook.json"; echo "calc is off limits" >&2; exit 2`)}})
	if err := os.MkdirAll(filepath.Join(sb.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.home, ".claude", "settings.json"), user, 0o644); err != nil {
		t.Fatal(err)
	}
	sb.mcpConfig(fmt.Sprintf(`"calc":{"command":%q}`, mcpServer))
	srv := fake(t, fakellm.OpenAI, toolCall("mcp__calc__get-sum", `{"a":2,"b":3}`), finalAnswer("done"))
	o := openaiRun(sb, srv, "--permission", "auto", "-p", "add")
	o.want(t, 0)
	if body := string(srv.Requests()[1].Body); !strings.Contains(body, "calc is off limits") || strings.Contains(body, "The sum of 2 and 3") {
		t.Errorf("the hook should block the MCP call:\n%s", body)
	}
	in, _ := os.ReadFile(filepath.Join(sb.home, "mcp-hook.json"))
	if !strings.Contains(string(in), `"tool_name":"mcp__calc__get-sum"`) || !strings.Contains(string(in), `"a":2`) {
		t.Errorf("the hook should see Claude Code's MCP name and the input:\n%s", in)
	}
}

// TestPromptAndStopHooks: SessionStart's and UserPromptSubmit's output
// goes to the model with the prompt; a UserPromptSubmit exit 2 refuses
// the prompt before any model call, saying why; a Stop hook keeps the run
// going once, with its reason for the model.
func TestPromptAndStopHooks(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	user, _ := json.Marshal(map[string]any{"hooks": map[string]any{
		"SessionStart":     commandHook("startup", `echo "the session started here"`),
		"UserPromptSubmit": commandHook("", `in=$(cat); case "$in" in *forbidden*) echo "that topic is off limits" >&2; exit 2;; esac; echo "current branch: feature-x"`),
		"Stop":             commandHook("", `in=$(cat); case "$in" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"run the linter before finishing"}';; esac`),
	}})
	if err := os.MkdirAll(filepath.Join(sb.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.home, ".claude", "settings.json"), user, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fake(t, fakellm.OpenAI, finalAnswer("early"), finalAnswer("linted and done"))
	o := openaiRun(sb, srv, "-p", "fix the bug")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 2 || strings.TrimSpace(o.stdout) != "linted and done" {
		t.Fatalf("the Stop hook should keep the run going once: %d calls, stdout %q\nstderr: %s", len(reqs), o.stdout, o.stderr)
	}
	first := string(reqs[0].Body)
	if !strings.Contains(first, "fix the bug") || !strings.Contains(first, "current branch: feature-x") || !strings.Contains(first, "the session started here") {
		t.Errorf("the prompt should carry the hooks' context:\n%s", first)
	}
	if !strings.Contains(string(reqs[1].Body), "run the linter before finishing") {
		t.Errorf("the Stop hook's reason should reach the model:\n%s", reqs[1].Body)
	}

	srv = fake(t, fakellm.OpenAI, finalAnswer("never"))
	o = openaiRun(sb, srv, "-p", "tell me the forbidden thing")
	if o.code == 0 || !strings.Contains(o.stderr, "that topic is off limits") || len(srv.Requests()) != 0 {
		t.Errorf("a blocked prompt should fail before any model call, saying why: exit %d, %d calls\nstderr: %s", o.code, len(srv.Requests()), o.stderr)
	}
}
