package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// TestAutoModeAsksWhenADenyRuleCannotBeChecked: in auto mode a command
// line whose program is decided only when it runs ($X, a glob, a script
// fed to a shell) may be what a deny rule forbids, so it does not run
// unasked: with no one to ask it is refused, naming the rule and why; with
// a person it is put to them. Without deny rules auto mode runs it.
func TestAutoModeAsksWhenADenyRuleCannotBeChecked(t *testing.T) {
	deny, _ := engine.ParseRule(engine.RuleDeny, "shell_cmd(command=rm *)")
	h := newHarness(t)
	victim := filepath.Join(h.dir, "victim.txt")
	run := func(perm engine.Permission, command string) engine.ToolOutcome {
		if err := os.WriteFile(victim, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		req := h.request("")
		req.BuiltIns = []string{"shell_cmd"}
		req.Permission = perm
		args, _ := json.Marshal(map[string]string{"command": command})
		return h.rt.ExecuteToolCall(context.Background(), engine.ToolCall{ID: "1", Name: "shell_cmd", Arguments: string(args)}, req)
	}
	gone := func() bool { _, err := os.Stat(victim); return err != nil }
	auto := engine.Permission{Mode: engine.ModeAuto, Rules: []engine.Rule{deny}}
	for _, line := range []string{"x=rm; $x victim.txt", "/bin/r? victim.txt", "$(echo rm) victim.txt", "echo rm victim.txt | sh", "${X:-rm} victim.txt"} {
		out := run(auto, line)
		if out.Code != engine.OutcomePermissionDenied || !strings.Contains(out.Content, "deny shell_cmd(command=rm *) cannot be checked") || gone() {
			t.Errorf("%q in auto mode under deny rm *: got %+v (removed: %v), want it refused naming the rule", line, out, gone())
		}
	}
	if out := run(auto, "ls $HOME > /dev/null"); out.IsError {
		t.Errorf("a line whose programs are known should run in auto mode: %+v", out)
	}
	if out := run(engine.Permission{Mode: engine.ModeAuto}, "x=rm; $x victim.txt"); out.IsError || !gone() {
		t.Errorf("without deny rules auto mode runs the line: %+v", out)
	}
	asked := 0
	person := auto
	person.Approver = engine.ApproverFunc(func(context.Context, engine.PermissionRequest) (engine.Decision, error) {
		asked++
		return engine.Decision{Action: engine.Deny}, nil
	})
	if out := run(person, "x=rm; $x victim.txt"); asked != 1 || out.Code != engine.OutcomePermissionDenied || gone() {
		t.Errorf("with a person: asked %d times, got %+v; want asked once and refused", asked, out)
	}
}
