package policy_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine/policy"
)

func rules(t *testing.T, specs ...string) []policy.Rule {
	t.Helper()
	var out []policy.Rule
	for _, spec := range specs {
		action, text, _ := strings.Cut(spec, " ")
		r, err := policy.ParseRule(policy.Action(action), text)
		if err != nil {
			t.Fatalf("rule %q: %v", spec, err)
		}
		out = append(out, r)
	}
	return out
}

// TestDecide runs calls through modes and rules in the order the policy
// promises: deny rules for every call, then read mode, allow rules, auto
// mode (or a sandboxed tool) and a person for mutating calls.
func TestDecide(t *testing.T) {
	write := func(path string) policy.Call {
		return policy.Call{Tool: "write_file", Args: map[string]any{"path": path}, Mutating: true}
	}
	shell := func(line string) policy.Call {
		return policy.Call{Tool: "shell_cmd", Args: map[string]any{"command": line}, Mutating: true}
	}
	read := policy.Call{Tool: "read_file", Args: map[string]any{"path": "secret/key"}}
	sandboxed := shell("make")
	sandboxed.Sandboxed = true
	sandboxedTouch := shell("touch x")
	sandboxedTouch.Sandboxed = true
	cases := []struct {
		name    string
		policy  policy.Policy
		call    policy.Call
		want    policy.Outcome
		rule    string // the verdict's rule, for Denied and Unchecked
		opaque  bool   // an Unchecked verdict says why
		spentIx []int
	}{
		{name: "read call, read mode", policy: policy.Policy{Mode: policy.ModeRead}, call: read, want: policy.Allowed},
		{name: "read call, deny rule", policy: policy.Policy{Mode: policy.ModeAuto, Rules: rules(t, "deny read_file(path=secret/**)")},
			call: read, want: policy.Denied, rule: "read_file(path=secret/**)"},
		{name: "read mode", policy: policy.Policy{Mode: policy.ModeRead, Rules: rules(t, "allow write_file")}, call: write("a.txt"), want: policy.ReadOnly},
		{name: "deny before read mode", policy: policy.Policy{Mode: policy.ModeRead, Rules: rules(t, "deny write_file")},
			call: write("a.txt"), want: policy.Denied, rule: "write_file"},
		{name: "deny wins over allow", policy: policy.Policy{Mode: policy.ModeAuto, Rules: rules(t, "allow write_file", "deny write_file(path=.git/**)")},
			call: write(".git/config"), want: policy.Denied, rule: "write_file(path=.git/**)"},
		{name: "ask mode, allowed by a rule", policy: policy.Policy{Mode: policy.ModeAsk, Rules: rules(t, "allow write_file(path=src/**)")},
			call: write("src/a.go"), want: policy.Allowed},
		{name: "ask mode, no rule", policy: policy.Policy{Mode: policy.ModeAsk, Rules: rules(t, "allow write_file(path=src/**)")},
			call: write("docs/a.md"), want: policy.Undecided},
		{name: "empty mode asks", policy: policy.Policy{}, call: write("a.txt"), want: policy.Undecided},
		{name: "auto mode", policy: policy.Policy{Mode: policy.ModeAuto}, call: shell("x=rm; $x victim"), want: policy.Allowed},
		{name: "auto mode, deny rule unchecked", policy: policy.Policy{Mode: policy.ModeAuto, Rules: rules(t, "deny shell_cmd(command=rm *)")},
			call: shell("x=rm; $x victim"), want: policy.Unchecked, rule: "shell_cmd(command=rm *)", opaque: true},
		{name: "auto mode, deny rule checked", policy: policy.Policy{Mode: policy.ModeAuto, Rules: rules(t, "deny shell_cmd(command=rm *)")},
			call: shell("ls $HOME > /dev/null"), want: policy.Allowed},
		{name: "auto mode, line that does not parse", policy: policy.Policy{Mode: policy.ModeAuto, Rules: rules(t, "deny shell_cmd(command=rm *)")},
			call: shell(`echo "`), want: policy.Unchecked, rule: "shell_cmd(command=rm *)", opaque: true},
		{name: "sandboxed tool", policy: policy.Policy{Mode: policy.ModeAsk, AllowSandboxed: true}, call: sandboxed, want: policy.Allowed},
		{name: "sandboxed tool, not allowed", policy: policy.Policy{Mode: policy.ModeAsk}, call: sandboxed, want: policy.Undecided},
		{name: "unsandboxed tool", policy: policy.Policy{Mode: policy.ModeAsk, AllowSandboxed: true}, call: shell("make"), want: policy.Undecided},
		{name: "allow_once spent by the call", policy: policy.Policy{Mode: policy.ModeAsk, Rules: rules(t, "allow shell_cmd(command=grep *)", "allow_once shell_cmd(command=go test *)")},
			call: shell("go test ./... | grep FAIL"), want: policy.Allowed, spentIx: []int{1}},
		{name: "allow_once already spent", policy: policy.Policy{Mode: policy.ModeAsk, Rules: rules(t, "allow_once write_file"), Spent: func(int) bool { return true }},
			call: write("a.txt"), want: policy.Undecided},
		{name: "plan mode refuses a write", policy: policy.Policy{Mode: policy.ModePlan, Rules: rules(t, "allow write_file")}, call: write("a.txt"), want: policy.ReadOnly},
		{name: "plan mode refuses edit_file", policy: policy.Policy{Mode: policy.ModePlan},
			call: policy.Call{Tool: "edit_file", Args: map[string]any{"path": "a.txt"}, Mutating: true}, want: policy.ReadOnly},
		{name: "plan mode refuses create_directory", policy: policy.Policy{Mode: policy.ModePlan},
			call: policy.Call{Tool: "create_directory", Args: map[string]any{"path": "d"}, Mutating: true}, want: policy.ReadOnly},
		{name: "plan mode refuses a writing command", policy: policy.Policy{Mode: policy.ModePlan, AllowSandboxed: true}, call: sandboxedTouch, want: policy.ReadOnly},
		{name: "plan mode refuses an unconfined command a rule allows", policy: policy.Policy{Mode: policy.ModePlan, Rules: rules(t, "allow shell_cmd(command=touch *)")},
			call: shell("touch x"), want: policy.ReadOnly},
		{name: "plan mode runs a confined command a rule allows", policy: policy.Policy{Mode: policy.ModePlan, Rules: rules(t, "allow shell_cmd(command=touch *)")},
			call: sandboxedTouch, want: policy.Allowed},
		{name: "plan mode reads", policy: policy.Policy{Mode: policy.ModePlan}, call: read, want: policy.Allowed},
		{name: "spent reported for an allow rule", policy: policy.Policy{Mode: policy.ModeAsk, Rules: rules(t, "allow write_file"), Spent: func(int) bool { return true }},
			call: write("a.txt"), want: policy.Allowed},
	}
	for _, tc := range cases {
		v := tc.policy.Decide(tc.call)
		if v.Outcome != tc.want {
			t.Errorf("%s: %s %v: got outcome %d, want %d", tc.name, tc.call.Tool, tc.call.Args, v.Outcome, tc.want)
			continue
		}
		if got := v.Rule.String(); tc.rule != "" && got != tc.rule {
			t.Errorf("%s: got rule %s, want %s", tc.name, got, tc.rule)
		}
		if (v.Opaque != "") != tc.opaque {
			t.Errorf("%s: got opaque %q, want one: %v", tc.name, v.Opaque, tc.opaque)
		}
		if !slices.Equal(v.Spent, tc.spentIx) {
			t.Errorf("%s: got spent %v, want %v", tc.name, v.Spent, tc.spentIx)
		}
	}
}

// TestCheck reports rules that can never apply to a surface's tools.
func TestCheck(t *testing.T) {
	surface := []policy.Tool{
		{Name: "shell_cmd", Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"args":{"type":"array"}}}`)},
		{Name: "write_file", Schema: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}},
		{Name: "free_form", Schema: json.RawMessage(`{"type":"object"}`)},
	}
	cases := []struct {
		rule string
		want string // substring of the one problem; empty for none
	}{
		{"shell_cmd(command=go test *)", ""},
		{"write_*(path=src/**)", ""},
		{"free_form(anything=x)", ""},
		{"*", ""},
		{"shel_cmd", "did you mean shell_cmd?"},
		{"shell_cmd(cmd=go test *)", `takes no parameter "cmd"`},
		{"mcp_github_*", `no tool of this run matches "mcp_github_*"`},
	}
	for _, tc := range cases {
		problems := policy.Check(rules(t, "deny "+tc.rule), surface)
		switch {
		case tc.want == "" && len(problems) != 0:
			t.Errorf("Check(%s): got %v, want none", tc.rule, problems)
		case tc.want != "" && (len(problems) != 1 || !strings.Contains(problems[0].Message, tc.want)):
			t.Errorf("Check(%s): got %v, want one saying %q", tc.rule, problems, tc.want)
		case tc.want != "" && problems[0].Rule.Action != policy.Deny:
			t.Errorf("Check(%s): got rule %+v, want the deny rule", tc.rule, problems[0].Rule)
		}
	}
}
