package engine

import (
	"context"
	"fmt"

	"github.com/llmrt/llmrt/engine/policy"
	"github.com/llmrt/llmrt/tools"
)

// Mode is a permission mode (policy.Mode): auto runs every offered tool,
// ask needs a decision for each mutating call no rule settles, read
// refuses mutating calls, plan refuses them as read does (commands an
// allow rule names run confined read-only) and asks for a plan as the
// final answer.
type Mode = policy.Mode

// Permission modes. The library default (empty) is auto; the CLI's is ask.
const (
	ModeAuto = policy.ModeAuto
	ModeAsk  = policy.ModeAsk
	ModeRead = policy.ModeRead
	ModePlan = policy.ModePlan
)

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) { return policy.ParseMode(s) }

// RuleAction is what a rule does to the calls it matches (policy.Action).
type RuleAction = policy.Action

// Rule actions.
const (
	RuleAllow     = policy.Allow
	RuleAllowOnce = policy.AllowOnce
	RuleDeny      = policy.Deny
)

// Rule matches tool calls by tool name and argument globs:
// `shell_cmd(command=go test *)`, `write_file(path=src/**)`,
// `mcp__github__*`. policy.Rule says how a command pattern holds against a
// shell line.
type Rule = policy.Rule

// ParseRule parses a rule in the form name or name(param=glob, ...).
func ParseRule(action RuleAction, s string) (Rule, error) { return policy.ParseRule(action, s) }

// SuggestRule proposes a rule that allows a call and ones like it
// (policy.Suggest): the program of a single command, the directory of a
// path, the host of a URL; otherwise the whole tool.
func SuggestRule(tool string, args map[string]any) Rule { return policy.Suggest(tool, args) }

// CheckRules reports permission rules that cannot match any tool of a
// surface (as ResolveTools returns it): a tool name or pattern no tool
// has, or a parameter none of the named tools takes. Such a rule is almost
// always a typo that would otherwise pass silently; hosts show these
// diagnostics as warnings.
func CheckRules(rules []Rule, surface []ToolInfo) []tools.Diagnostic {
	ts := make([]policy.Tool, len(surface))
	for i, t := range surface {
		ts[i] = policy.Tool{Name: t.Name, Schema: t.Schema}
	}
	var out []tools.Diagnostic
	for _, p := range policy.Check(rules, ts) {
		out = append(out, tools.Diagnostic{Level: DiagnosticWarning, Kind: DiagRule, Source: fmt.Sprintf("rule %s %s", p.Rule.Action, p.Rule), Message: p.Message})
	}
	return out
}

// Permission is a request's permission policy.
type Permission struct {
	Mode  Mode
	Rules []Rule
	// Approver decides calls no rule settles in ask mode. Nil means no
	// person is available: such calls are denied with a reason the model
	// sees, unless ReplyViaEvents is set.
	Approver Approver
	// AllowSandboxed lets ask mode run calls of tools whose processes the
	// OS sandbox confines (Tool.Sandboxed) without asking.
	AllowSandboxed bool
	// ReplyViaEvents makes undecided calls wait for a Decision sent on the
	// Reply channel of the permission_request event (Stream consumers that
	// own the user interaction).
	ReplyViaEvents bool
}

// Approver asks a person about a tool call.
type Approver interface {
	Approve(ctx context.Context, req PermissionRequest) (Decision, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req PermissionRequest) (Decision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req PermissionRequest) (Decision, error) {
	return f(ctx, req)
}

// PermissionRequest is a question about one tool call.
type PermissionRequest struct {
	Tool      string     `json:"tool"`
	Kind      tools.Kind `json:"kind"`
	Arguments string     `json:"arguments"`
	// Suggested is a rule that would allow this call and calls like it.
	Suggested string `json:"suggested_rule"`
	// Preview shows what the call would change, when its tool can say
	// (a unified diff for write_file and edit_file).
	Preview string `json:"preview,omitempty"`
	// Reply receives the decision when Permission.ReplyViaEvents is set;
	// it is buffered, so sending never blocks.
	Reply chan<- Decision `json:"-"`
}

// DecisionAction is a person's answer to a permission request.
type DecisionAction string

// Decision actions.
const (
	AllowOnce   DecisionAction = "allow_once"
	AllowAlways DecisionAction = "allow_always"
	Deny        DecisionAction = "deny"
	Cancel      DecisionAction = "cancel"
)

// Decision answers a PermissionRequest.
type Decision struct {
	Action DecisionAction `json:"action"`
	// Reason, on deny, is shown to the model.
	Reason string `json:"reason,omitempty"`
	// Rule, on allow_always, replaces the suggested rule.
	Rule string `json:"rule,omitempty"`
}
