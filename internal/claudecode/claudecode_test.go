package claudecode

import (
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine/policy"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Read, Grep, Bash(git status:*)", []string{"Read", "Grep", "Bash(git status:*)"}},
		{"Read Grep Bash(git diff:*)", []string{"Read", "Grep", "Bash(git diff:*)"}},
		{"  Bash(npm run a, b) ,,Edit\n", []string{"Bash(npm run a, b)", "Edit"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Split(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAllowRules: each Claude Code entry becomes the llmrt rule that
// allows what it allows and no more, and an entry without an exact
// equivalent is skipped with a reason. Every rule parses.
func TestAllowRules(t *testing.T) {
	tests := []struct {
		entry string
		want  []string // nil: skipped
		why   string   // part of the reason when skipped
	}{
		{"Bash", []string{"shell_cmd"}, ""},
		{"Bash(git status:*)", []string{"shell_cmd(command=git status *)"}, ""},
		{"Bash(npm run build)", []string{"shell_cmd(command=npm run build)"}, ""},
		{"Bash(git * main)", []string{"shell_cmd(command=git * main)"}, ""},
		{"Read", []string{"read_file"}, ""},
		{"Read(./src/**)", []string{"read_file(path=src/**)"}, ""},
		{"Write", []string{"write_file"}, ""},
		{"Edit(docs/**)", []string{"edit_file(path=docs/**)"}, ""},
		{"MultiEdit", []string{"edit_file"}, ""},
		{"Glob", []string{"search_files"}, ""},
		{"Grep", []string{"search_files"}, ""},
		{"LS", []string{"list_files"}, ""},
		{"WebFetch", []string{"web_fetch"}, ""},
		{"WebFetch(domain:go.dev)", []string{"web_fetch(url=https://go.dev/*)", "web_fetch(url=http://go.dev/*)"}, ""},
		{"Task", []string{"spawn_agent"}, ""},
		{"mcp__github__create_issue", []string{"mcp__github__create_issue"}, ""},
		{"mcp__github", []string{"mcp__github__*"}, ""},
		{"shell_cmd", []string{"shell_cmd"}, ""},
		{"NotebookEdit", nil, "no tool"},
		{"Bash(git status", nil, "parenthesis"},
		{"Bash(ls ?)", nil, "'?'"},
		{"Bash(:*)", nil, "must follow a command"},
		{"Bash(a:* b)", nil, "only end"},
		{"Read(~/.ssh/**)", nil, "relative to the project"},
		{"Edit(//etc/**)", nil, "relative to the project"},
		{"Edit(../x)", nil, "relative to the project"},
		{"WebFetch(domain:*.evil.com)", nil, "plain host"},
		{"WebFetch(https://x)", nil, "domain:HOST"},
		{"Task(reviewer)", nil, "cannot limit"},
		{"mcp__github__x(a)", nil, "no pattern"},
	}
	for _, tt := range tests {
		rules, skipped := AllowRules([]string{tt.entry})
		if !reflect.DeepEqual(rules, tt.want) {
			t.Errorf("%s: got rules %q, want %q", tt.entry, rules, tt.want)
		}
		if tt.want == nil && (len(skipped) != 1 || !strings.Contains(skipped[0], tt.why) || !strings.Contains(skipped[0], tt.entry)) {
			t.Errorf("%s: got warnings %q, want one naming the entry and saying %q", tt.entry, skipped, tt.why)
		}
		if tt.want != nil && len(skipped) != 0 {
			t.Errorf("%s: got warnings %q, want none", tt.entry, skipped)
		}
		for _, r := range rules {
			if _, err := policy.ParseRule(policy.Allow, r); err != nil {
				t.Errorf("%s: rule %q does not parse: %v", tt.entry, r, err)
			}
		}
	}
}

// TestBashPrefixRuleAllowsNoMore: the rule made from Bash(git status:*)
// allows git status with and without arguments, and nothing else.
func TestBashPrefixRuleAllowsNoMore(t *testing.T) {
	rules, _ := AllowRules([]string{"Bash(git status:*)"})
	r, err := policy.ParseRule(policy.Allow, rules[0])
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]bool{
		"git status": true, "git status --short": true,
		"git push": false, "rm -rf x": false, "git status; rm -rf x": false, "git statusx": false,
	} {
		if got := r.Matches("shell_cmd", map[string]any{"command": cmd}); got != want {
			t.Errorf("%s against %q: got %v, want %v", rules[0], cmd, got, want)
		}
	}
}

// TestMCPNames: Claude Code's mcp__server__tool is the name llmrt gives
// the server's tool (the same name, sanitised as the MCP client does), a
// whole server is a pattern for its tools, and back again.
func TestMCPNames(t *testing.T) {
	for in, want := range map[string]string{
		"mcp__github__create_issue": "mcp__github__create_issue",
		"mcp__my.server__do":        "mcp__my_server__do",
		"mcp__github":               "mcp__github__*",
	} {
		if got, ok := MCPTool(in); !ok || got != want {
			t.Errorf("MCPTool(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"mcp__", "mcp____x", "mcp__a*", "Bash"} {
		if got, ok := MCPTool(bad); ok {
			t.Errorf("MCPTool(%q) = %q, want not ok", bad, got)
		}
	}
	if got := MCPName("calc", "mcp__calc__get-sum"); got != "mcp__calc__get-sum" {
		t.Errorf("MCPName = %q", got)
	}
}
