package cmd

import (
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools/mcp"
)

// TestUpgradeMCPRules: rules naming MCP tools the old way are read with
// the mcp__ names, one warning each; a built-in's rule is untouched, and
// a pattern that also matches a built-in is kept besides its new form.
func TestUpgradeMCPRules(t *testing.T) {
	var s settings
	for _, spec := range []string{"calc_get-sum(a=1)", "shell_cmd(command=ls)", "read_*", "mcp__calc__fail", "x_b_c"} {
		r, err := engine.ParseRule(engine.RuleDeny, spec)
		if err != nil {
			t.Fatal(err)
		}
		s.permission.Rules = append(s.permission.Rules, r)
	}
	s.upgradeMCPRules([]mcp.Server{{Name: "calc"}, {Name: "shell"}, {Name: "read"}, {Name: "x"}, {Name: "x_b"}})
	var got []string
	for _, r := range s.permission.Rules {
		got = append(got, r.String())
	}
	want := "mcp__calc__get-sum(a=1) shell_cmd(command=ls) read_* mcp__read__* mcp__calc__fail mcp__x__b_c mcp__x_b__c"
	if strings.Join(got, " ") != want {
		t.Errorf("rules: got %q, want %q", strings.Join(got, " "), want)
	}
	if len(s.diagnostics) != 3 || !strings.Contains(s.diagnostics[0], "calc_get-sum") || !strings.Contains(s.diagnostics[0], "mcp__calc__get-sum(a=1)") {
		t.Errorf("warnings: got %q, want one for each of the 3 rules rewritten", s.diagnostics)
	}
}
