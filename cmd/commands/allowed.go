package commands

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/llmrt/llmrt/engine"
)

// claudeTools maps Claude Code's tool names to llmrt's, with the
// parameter a pattern in parentheses is matched against ("" when the
// tool takes none llmrt can match).
var claudeTools = map[string]struct{ tool, param string }{
	"Bash":      {"shell_cmd", "command"},
	"Read":      {"read_file", "path"},
	"Write":     {"write_file", "path"},
	"Edit":      {"edit_file", "path"},
	"MultiEdit": {"edit_file", "path"},
	"Glob":      {"search_files", ""},
	"Grep":      {"search_files", ""},
	"LS":        {"list_files", "path"},
	"WebFetch":  {"web_fetch", ""},
	"Task":      {"spawn_agent", ""},
}

// toolPattern is a Claude Code permission rule: Tool or Tool(pattern).
var toolPattern = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))?$`)

// mcpName is an MCP tool as Claude Code and llmrt both name them.
var mcpName = regexp.MustCompile(`^mcp__[A-Za-z0-9_-]+(?:__[A-Za-z0-9_-]+)?$`)

// AllowRules turns a command's allowed-tools, in Claude Code's syntax,
// into llmrt allow rules. A pattern llmrt cannot express exactly is left
// out with a problem saying why: a rule is never made wider than the
// one written.
func AllowRules(allowed []string) ([]engine.Rule, []string) {
	var rules []engine.Rule
	var problems []string
	for _, a := range allowed {
		rs, err := allowRule(strings.TrimSpace(a))
		if err != nil {
			problems = append(problems, fmt.Sprintf("allowed-tools %q is not applied: %v", a, err))
			continue
		}
		rules = append(rules, rs...)
	}
	return rules, problems
}

func allowRule(a string) ([]engine.Rule, error) {
	if mcpName.MatchString(a) {
		return []engine.Rule{{Action: engine.RuleAllow, Tool: a}}, nil
	}
	m := toolPattern.FindStringSubmatch(a)
	if m == nil {
		return nil, fmt.Errorf("not a tool name or Tool(pattern)")
	}
	name, pattern, hasPattern := m[1], strings.TrimSpace(m[2]), strings.Contains(a, "(")
	t, ok := claudeTools[name]
	if !ok {
		return nil, fmt.Errorf("llmrt has no tool like Claude Code's %s", name)
	}
	if !hasPattern || pattern == "*" || pattern == "" {
		return []engine.Rule{{Action: engine.RuleAllow, Tool: t.tool}}, nil
	}
	rule := engine.Rule{Action: engine.RuleAllow, Tool: t.tool}
	switch {
	case name == "Bash":
		cmd, err := commandPattern(pattern)
		if err != nil {
			return nil, err
		}
		rule.Params = map[string]string{"command": cmd}
	case name == "WebFetch":
		host, ok := strings.CutPrefix(pattern, "domain:")
		if !ok || host == "" || strings.ContainsAny(host, "/*?") {
			return nil, fmt.Errorf("only WebFetch(domain:HOST) has an llmrt equivalent")
		}
		return []engine.Rule{
			{Action: engine.RuleAllow, Tool: t.tool, Params: map[string]string{"url": "https://" + host + "/*"}},
			{Action: engine.RuleAllow, Tool: t.tool, Params: map[string]string{"url": "http://" + host + "/*"}},
		}, nil
	case t.param == "path":
		p, err := pathPattern(pattern)
		if err != nil {
			return nil, err
		}
		rule.Params = map[string]string{"path": p}
	default:
		return nil, fmt.Errorf("llmrt cannot match %s by a pattern; write %s alone to allow it", name, name)
	}
	return []engine.Rule{rule}, nil
}

// commandPattern turns a Bash pattern into a shell_cmd command glob:
// "git status:*" (a prefix) is "git status *", which llmrt matches
// against each command of a line, with or without more arguments.
func commandPattern(p string) (string, error) {
	if strings.ContainsAny(p, "?") {
		return "", fmt.Errorf("? would match any character in an llmrt rule")
	}
	if prefix, ok := strings.CutSuffix(p, ":*"); ok {
		prefix = strings.TrimSpace(prefix)
		if prefix == "" || strings.Contains(prefix, "*") {
			return "", fmt.Errorf("a prefix rule needs a command before :*")
		}
		return prefix + " *", nil
	}
	return p, nil
}

// pathPattern turns a Claude Code path pattern into a workspace-relative
// llmrt glob. Claude Code reads //path as absolute, ~/path in the home
// directory and /path relative to the settings file; none of those means
// the same in a command file, so they are refused.
func pathPattern(p string) (string, error) {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return "", fmt.Errorf("only paths relative to the project (src/**, ./docs/*.md) have an llmrt equivalent")
	}
	p = strings.TrimPrefix(p, "./")
	if p == "" || strings.HasPrefix(p, "../") || p == ".." {
		return "", fmt.Errorf("the path leaves the project")
	}
	return p, nil
}
