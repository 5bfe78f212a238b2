package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// TestPermissionPolicy runs one mutating call through each policy and checks
// whether it ran, what the model was told and which warnings appeared.
func TestPermissionPolicy(t *testing.T) {
	allow := func(s string) engine.Rule { r, _ := engine.ParseRule(engine.RuleAllow, s); return r }
	deny := func(s string) engine.Rule { r, _ := engine.ParseRule(engine.RuleDeny, s); return r }
	once := func(s string) engine.Rule { r, _ := engine.ParseRule(engine.RuleAllowOnce, s); return r }
	decide := func(d engine.Decision) engine.Approver {
		return engine.ApproverFunc(func(context.Context, engine.PermissionRequest) (engine.Decision, error) { return d, nil })
	}
	cases := []struct {
		name    string
		perm    engine.Permission
		runs    int
		result  string // substring of the second result
		warning string
		status  engine.Status
	}{
		{name: "auto allows", perm: engine.Permission{Mode: engine.ModeAuto}, runs: 2},
		{name: "read refuses", perm: engine.Permission{Mode: engine.ModeRead, Rules: []engine.Rule{allow("poke")}}, runs: 0, result: "read-only"},
		{name: "ask without a person denies and names the rule", perm: engine.Permission{Mode: engine.ModeAsk}, runs: 0,
			result: "needs a person's approval", warning: "poke(path=out/**)"},
		{name: "an allow rule settles ask", perm: engine.Permission{Mode: engine.ModeAsk, Rules: []engine.Rule{allow("poke(path=out/**)")}}, runs: 2},
		{name: "an allow rule for another path does not", perm: engine.Permission{Mode: engine.ModeAsk, Rules: []engine.Rule{allow("poke(path=src/**)")}}, runs: 0},
		{name: "deny wins over allow", perm: engine.Permission{Mode: engine.ModeAuto, Rules: []engine.Rule{allow("poke"), deny("poke(path=out/b*)")}}, runs: 1, result: "deny poke(path=out/b*)"},
		{name: "allow_once is used once", perm: engine.Permission{Mode: engine.ModeAsk, Rules: []engine.Rule{once("poke")}}, runs: 1, result: "needs a person's approval"},
		{name: "a person allows once", perm: engine.Permission{Mode: engine.ModeAsk, Approver: decide(engine.Decision{Action: engine.AllowOnce})}, runs: 2},
		{name: "a person denies with a reason", perm: engine.Permission{Mode: engine.ModeAsk, Approver: decide(engine.Decision{Action: engine.Deny, Reason: "not on Fridays"})},
			runs: 0, result: "not on Fridays"},
		{name: "a person cancels", perm: engine.Permission{Mode: engine.ModeAsk, Approver: decide(engine.Decision{Action: engine.Cancel})}, runs: 0, status: engine.StatusCancelled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, calls(c("poke", `{"path":"out/a.txt"}`), c("poke", `{"path":"out/b.txt"}`)), answer("done"))
			ct := &counterTool{}
			req := h.request("go")
			tl := ct.tool("poke", tools.KindWrite)
			tl.Schema = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
			req.Tools = []engine.Tool{tl}
			req.Permission = tc.perm
			res := h.complete(req)
			want := tc.status
			if want == "" {
				want = engine.StatusCompleted
			}
			if res.Status != want {
				t.Fatalf("status: got %s, want %s", res.Status, want)
			}
			if ct.count() != tc.runs {
				t.Errorf("poke ran %d times, want %d", ct.count(), tc.runs)
			}
			if tc.result != "" && !strings.Contains(res.Messages[3].Text(), tc.result) {
				t.Errorf("second result: got %q, want it to mention %q", res.Messages[3].Text(), tc.result)
			}
			var warns []string
			for _, w := range res.Warnings {
				warns = append(warns, w.Message)
			}
			if tc.warning != "" && !strings.Contains(strings.Join(warns, "|"), tc.warning) {
				t.Errorf("warnings %q should name %q", warns, tc.warning)
			}
			assertReplayable(t, res.Messages, nil)
		})
	}
}

// TestAllowAlwaysAddsARule checks that "allow always" covers later calls of
// the suggested shape without asking again.
func TestAllowAlwaysAddsARule(t *testing.T) {
	h := newHarness(t, call("poke", `{"path":"out/a.txt"}`), call("poke", `{"path":"out/b.txt"}`), call("poke", `{"path":"src/c.txt"}`), answer("done"))
	ct := &counterTool{}
	asked := 0
	req := h.request("go")
	tl := ct.tool("poke", tools.KindWrite)
	tl.Schema = json.RawMessage(`{"type":"object"}`)
	req.Tools = []engine.Tool{tl}
	req.Permission = engine.Permission{Mode: engine.ModeAsk, Approver: engine.ApproverFunc(
		func(_ context.Context, pr engine.PermissionRequest) (engine.Decision, error) {
			asked++
			if pr.Suggested != "poke(path=out/**)" && asked == 1 {
				t.Errorf("suggested rule: got %s", pr.Suggested)
			}
			return engine.Decision{Action: engine.AllowAlways}, nil
		})}
	h.complete(req)
	if asked != 2 || ct.count() != 3 {
		t.Errorf("asked %d times (want 2: out/a and src/c), ran %d (want 3)", asked, ct.count())
	}
}

// TestReplyViaEvents answers a permission request through the event's
// reply channel.
func TestReplyViaEvents(t *testing.T) {
	h := newHarness(t, call("poke", `{}`), answer("done"))
	ct := &counterTool{}
	req := h.request("go")
	req.Tools = []engine.Tool{ct.tool("poke", tools.KindWrite)}
	req.Permission = engine.Permission{Mode: engine.ModeAsk, ReplyViaEvents: true}
	seen := false
	for ev := range h.rt.Stream(context.Background(), req) {
		if ev.Type == engine.EventPermissionRequest {
			seen = true
			ev.Permission.Reply <- engine.Decision{Action: engine.AllowOnce}
		}
	}
	if !seen || ct.count() != 1 {
		t.Fatalf("permission request seen %v, runs %d", seen, ct.count())
	}
}

// TestPostAnswer: after the user answered ask_user_input, final_answer is
// accepted at once; an unverified text finish gets one recovery note and is
// accepted the next time; asking the same question again is refused once.
func TestPostAnswer(t *testing.T) {
	askArgs := `{"questions":[{"id":"lang","header":"Language","question":"Which?","options":[{"id":"go","label":"Go"},{"id":"rs","label":"Rust"}]}]}`
	ask := providers.ToolCall{ID: "ask1", Name: "ask_user_input", Arguments: askArgs}
	history := []engine.Message{
		providers.TextMessage(providers.RoleUser, "write hello world"),
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{ask}},
		providers.ToolResultMessage(ask, `{"answers":{"lang":"go"},"skipped":false,"other":{}}`, false),
	}
	t.Run("a final answer after the answer is accepted at once", func(t *testing.T) {
		h := newHarness(t, say("unused"), answer("Go it is"))
		req := h.request("")
		req.Messages = history
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || res.Output != "Go it is" || h.rec.calls() != 1 {
			t.Fatalf("got %s %q after %d calls, want completed after 1", res.Status, res.Output, h.rec.calls())
		}
	})
	t.Run("an unverified text finish gets one note, then is accepted", func(t *testing.T) {
		h := newHarness(t, say("unused"), say("Go it is."), say("Go it is, as you chose."), answer("never"))
		req := h.request("")
		req.Messages = history
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || res.Output != "Go it is, as you chose." || h.rec.calls() != 2 {
			t.Fatalf("got %s %q after %d calls, want the second text accepted", res.Status, res.Output, h.rec.calls())
		}
		if got := lastSystem(h.rec.request(1)); !strings.Contains(got, "answered") {
			t.Errorf("note: got %q", got)
		}
	})
	t.Run("a verified final answer is accepted at once", func(t *testing.T) {
		h := newHarness(t, say("unused"), call("list_files", `{}`), answer("done"))
		req := h.request("")
		req.Messages = history
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || h.rec.calls() != 2 {
			t.Fatalf("got %s after %d calls", res.Status, h.rec.calls())
		}
	})
	t.Run("asking the same question again is refused once", func(t *testing.T) {
		h := newHarness(t, say("unused"), call("ask_user_input", askArgs), answer("Go"))
		req := h.request("")
		req.Messages = history
		res := h.complete(req)
		if res.Status != engine.StatusCompleted {
			t.Fatalf("got %s, want the re-ask refused and the run completed", res.Status)
		}
		if got := toolResults(res.Messages); !strings.Contains(strings.Join(got, "|"), "already answered") {
			t.Errorf("results %q should refuse the repeated question", got)
		}
	})
}

// TestCheckRules reports rules that can never apply to the run's tools.
func TestCheckRules(t *testing.T) {
	h := newHarness(t)
	surface, err := h.rt.ResolveTools(context.Background(), h.request("x"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		rule string
		want string // substring of the one diagnostic; empty for none
	}{
		{"shell_cmd(command=go test *)", ""},
		{"write_file(path=src/**)", ""},
		{"read_*", ""},
		{"*", ""},
		{"shel_cmd(command=go test *)", "did you mean shell_cmd?"},
		{"shell_cmd(cmd=go test *)", `takes no parameter "cmd"`},
		{"mcp_github_*", `no tool of this run matches "mcp_github_*"`},
		{"write_*(path=src/**)", ""},
		{"write_*(url=x)", `takes no parameter "url"`},
	}
	for _, tc := range cases {
		r, err := engine.ParseRule(engine.RuleAllow, tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		diags := engine.CheckRules([]engine.Rule{r}, surface)
		switch {
		case tc.want == "" && len(diags) != 0:
			t.Errorf("CheckRules(%s): got %v, want none", tc.rule, diags)
		case tc.want != "" && (len(diags) != 1 || !strings.Contains(diags[0].Message, tc.want)):
			t.Errorf("CheckRules(%s): got %v, want one saying %q", tc.rule, diags, tc.want)
		case tc.want != "" && !strings.Contains(diags[0].Source, "allow "+tc.rule[:4]):
			t.Errorf("CheckRules(%s): source %q should name the rule", tc.rule, diags[0].Source)
		}
	}
}

// TestShellRulesThroughTheRuntime runs the real shell_cmd under rules:
// a compound line is not allowed by a rule for its first command, a deny
// rule holds against a later command, and "allow always" for a compound
// line approves that line only.
func TestShellRulesThroughTheRuntime(t *testing.T) {
	rule := func(a engine.RuleAction, s string) engine.Rule { r, _ := engine.ParseRule(a, s); return r }
	run := func(h *harness, perm engine.Permission, command string) engine.ToolOutcome {
		req := h.request("")
		req.BuiltIns = []string{"shell_cmd"}
		req.Permission = perm
		args, _ := json.Marshal(map[string]string{"command": command})
		return h.rt.ExecuteToolCall(context.Background(), engine.ToolCall{ID: "1", Name: "shell_cmd", Arguments: string(args)}, req)
	}
	exists := func(h *harness, name string) bool {
		_, err := os.Stat(filepath.Join(h.dir, name))
		return err == nil
	}

	h := newHarness(t)
	ask := engine.Permission{Mode: engine.ModeAsk, Rules: []engine.Rule{rule(engine.RuleAllow, "shell_cmd(command=echo *)")}}
	if out := run(h, ask, "echo ok"); out.IsError || !strings.Contains(out.Content, "ok") {
		t.Errorf("echo ok under allow echo *: got %+v, want it run", out)
	}
	for _, line := range []string{"echo ok ; touch pwned", "echo ok && touch pwned", "echo $(touch pwned)", "echo ok > pwned", "bash -c 'echo ok; touch pwned'"} {
		out := run(h, ask, line)
		if out.Code != engine.OutcomePermissionDenied || exists(h, "pwned") {
			t.Errorf("%q under allow echo *: got %+v (pwned exists: %v), want it refused", line, out, exists(h, "pwned"))
		}
	}

	if err := os.WriteFile(filepath.Join(h.dir, "victim.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	auto := engine.Permission{Mode: engine.ModeAuto, Rules: []engine.Rule{rule(engine.RuleDeny, "shell_cmd(command=rm *)")}}
	for _, line := range []string{"true && rm victim.txt", "echo hi | xargs rm", "sh -c 'rm victim.txt'", "timeout 5 rm victim.txt"} {
		out := run(h, auto, line)
		if out.Code != engine.OutcomePermissionDenied || !strings.Contains(out.Content, "deny shell_cmd(command=rm *)") || !exists(h, "victim.txt") {
			t.Errorf("%q under deny rm *: got %+v, want it refused by the rule", line, out)
		}
	}

	var suggested []string
	always := engine.Permission{Mode: engine.ModeAsk, Approver: engine.ApproverFunc(
		func(_ context.Context, pr engine.PermissionRequest) (engine.Decision, error) {
			suggested = append(suggested, pr.Suggested)
			return engine.Decision{Action: engine.Deny}, nil
		})}
	run(h, always, "echo hi && touch pwned")
	run(h, always, "git status")
	want := []string{"shell_cmd(command=echo hi && touch pwned)", "shell_cmd(command=git status *)"}
	if strings.Join(suggested, "|") != strings.Join(want, "|") {
		t.Errorf("suggested rules: got %q, want %q", suggested, want)
	}
}

// TestPermissionRequestCarriesPreview: a person asked about a write sees
// the diff it would make.
func TestPermissionRequestCarriesPreview(t *testing.T) {
	h := newHarness(t, call("write_file", `{"path":"notes.txt","content":"hello\n"}`), answer("done"))
	req := h.request("go")
	var got string
	req.Permission = engine.Permission{Mode: engine.ModeAsk, Approver: engine.ApproverFunc(
		func(_ context.Context, pr engine.PermissionRequest) (engine.Decision, error) {
			got = pr.Preview
			return engine.Decision{Action: engine.Deny}, nil
		})}
	h.complete(req)
	if !strings.Contains(got, "+++ b/notes.txt") || !strings.Contains(got, "+hello") {
		t.Fatalf("preview: %q", got)
	}
}
