package commands

import (
	"fmt"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/policy"
	"github.com/llmrt/llmrt/internal/claudecode"
)

// AllowRules turns a command's allowed-tools, in Claude Code's syntax,
// into llmrt allow rules (see claudecode.AllowRules): a pattern llmrt
// cannot express exactly is left out with a problem saying why, never
// made wider than the one written.
func AllowRules(allowed []string) ([]engine.Rule, []string) {
	texts, problems := claudecode.AllowRules(allowed)
	rules := make([]engine.Rule, 0, len(texts))
	for _, s := range texts {
		r, err := policy.ParseRule(policy.Allow, s)
		if err != nil {
			problems = append(problems, fmt.Sprintf("allowed-tools rule %q is not applied: %v", s, err))
			continue
		}
		rules = append(rules, r)
	}
	return rules, problems
}
