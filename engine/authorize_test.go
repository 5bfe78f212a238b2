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

// TestFileRulesMatchTheResolvedPath: a file tool's rule matches the
// workspace-relative clean path of its target however the model spelled
// it (absolute, ./, //, x/.., through a symlinked directory); an allow
// rule must hold for the path as written and as it resolves; and the
// rule suggested to a person names the workspace-relative path.
func TestFileRulesMatchTheResolvedPath(t *testing.T) {
	h := newHarness(t)
	for name, body := range map[string]string{"secrets/s.txt": "the launch code", "out/a.txt": "a"} {
		p := filepath.Join(h.dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("secrets", filepath.Join(h.dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secrets", filepath.Join(h.dir, "out", "up")); err != nil {
		t.Fatal(err)
	}
	call := func(perm engine.Permission, tool string, args map[string]string) engine.ToolOutcome {
		req := h.request("")
		req.Permission = perm
		raw, _ := json.Marshal(args)
		return h.rt.ExecuteToolCall(context.Background(), engine.ToolCall{ID: "1", Name: tool, Arguments: string(raw)}, req)
	}
	deny, _ := engine.ParseRule(engine.RuleDeny, "read_file(path=secrets/**)")
	auto := engine.Permission{Mode: engine.ModeAuto, Rules: []engine.Rule{deny}}
	for _, p := range []string{"secrets/s.txt", filepath.Join(h.dir, "secrets", "s.txt"), h.dir + "//secrets/./s.txt",
		"./secrets//s.txt", "x/../secrets/s.txt", "link/s.txt", filepath.Join(h.dir, "link", "s.txt"), "out/up/s.txt"} {
		out := call(auto, "read_file", map[string]string{"path": p})
		if out.Code != engine.OutcomePermissionDenied || strings.Contains(out.Content, "launch code") {
			t.Errorf("read_file %s under deny read_file(path=secrets/**): got %+v, want denied", p, out)
		}
	}
	if out := call(auto, "read_file", map[string]string{"path": filepath.Join(h.dir, "out", "a.txt")}); out.IsError {
		t.Errorf("read_file of another file should run: %+v", out)
	}
	absDeny, _ := engine.ParseRule(engine.RuleDeny, "read_file(path="+filepath.Join(h.dir, "secrets")+"/**)")
	if out := call(engine.Permission{Mode: engine.ModeAuto, Rules: []engine.Rule{absDeny}}, "read_file", map[string]string{"path": "link/s.txt"}); out.Code != engine.OutcomePermissionDenied {
		t.Errorf("read_file link/s.txt under an absolute deny rule: got %+v, want denied", out)
	}

	var suggested []string
	allow, _ := engine.ParseRule(engine.RuleAllow, "write_file(path=out/**)")
	ask := engine.Permission{Mode: engine.ModeAsk, Rules: []engine.Rule{allow},
		Approver: engine.ApproverFunc(func(_ context.Context, req engine.PermissionRequest) (engine.Decision, error) {
			suggested = append(suggested, req.Suggested)
			return engine.Decision{Action: engine.Deny}, nil
		})}
	if out := call(ask, "write_file", map[string]string{"path": filepath.Join(h.dir, "out", "b.txt"), "content": "b"}); out.IsError || len(suggested) != 0 {
		t.Errorf("write_file of an absolute path under out/ with out/** allowed: got %+v, asked %v; want it written unasked", out, suggested)
	}
	if out := call(ask, "write_file", map[string]string{"path": "out/up/c.txt", "content": "c"}); out.Code != engine.OutcomePermissionDenied || len(suggested) != 1 {
		t.Errorf("write_file out/up/c.txt (resolving to secrets/c.txt) with out/** allowed: got %+v, asked %v; want it asked and refused", out, suggested)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "secrets", "c.txt")); err == nil {
		t.Error("secrets/c.txt was written through out/up")
	}
	if len(suggested) == 1 && suggested[0] != "write_file(path=secrets/**)" {
		t.Errorf("suggested rule: got %s, want write_file(path=secrets/**)", suggested[0])
	}
}
