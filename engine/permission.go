package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/llmrt/llmrt/tools"
)

// Mode is a permission mode: auto runs every offered tool, ask needs a
// decision for each mutating call no rule settles, read refuses mutating
// calls.
type Mode string

// Permission modes. The library default (empty) is auto; the CLI's is ask.
const (
	ModeAuto Mode = "auto"
	ModeAsk  Mode = "ask"
	ModeRead Mode = "read"
)

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeAuto, ModeAsk, ModeRead:
		return m, nil
	}
	return "", fmt.Errorf("unknown permission mode %q (use auto, ask or read)", s)
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

// RuleAction is what a rule does to the calls it matches.
type RuleAction string

// Rule actions.
const (
	RuleAllow     RuleAction = "allow"
	RuleAllowOnce RuleAction = "allow_once"
	RuleDeny      RuleAction = "deny"
)

// Rule matches tool calls by tool name and argument globs:
// `shell_cmd(command=go test *)`, `write_file(path=src/**)`, `mcp_github_*`.
//
// A command pattern is matched against each command a shell line runs
// (after ;, && and ||, in pipes, subshells, $(...), functions, loops and
// `sh -c` strings, behind wrappers such as timeout, nice, sudo, env and
// xargs): a deny rule forbids the line when any command matches it; allow
// rules allow the line only when every command is matched by one of them.
// Sudo, doas, xargs and env with assignments need rules of their own, as
// does a VAR=value prefix. A line that writes a file with a redirection,
// runs a program known only at run time, or does not parse is never
// allowed by a command pattern, except by one that is the exact line.
type Rule struct {
	Action RuleAction        `json:"action"`
	Tool   string            `json:"tool"`
	Params map[string]string `json:"params,omitempty"`
}

var paramStart = regexp.MustCompile(`(?:^|,)\s*([A-Za-z_][A-Za-z0-9_]*)\s*=`)

// ParseRule parses a rule in the form name or name(param=glob, ...).
func ParseRule(action RuleAction, s string) (Rule, error) {
	s = strings.TrimSpace(s)
	r := Rule{Action: action}
	name, params, hasParams := strings.Cut(s, "(")
	r.Tool = strings.TrimSpace(name)
	if r.Tool == "" {
		return r, fmt.Errorf("rule %q: missing tool name (write e.g. write_file(path=src/**))", s)
	}
	if _, err := path.Match(r.Tool, ""); err != nil {
		return r, fmt.Errorf("rule %q: bad tool pattern: %v", s, err)
	}
	if !hasParams {
		return r, nil
	}
	if !strings.HasSuffix(params, ")") {
		return r, fmt.Errorf("rule %q: missing closing parenthesis", s)
	}
	params = strings.TrimSuffix(params, ")")
	locs := paramStart.FindAllStringSubmatchIndex(params, -1)
	if len(locs) == 0 || locs[0][0] != 0 {
		return r, fmt.Errorf("rule %q: parameters must be written name=glob", s)
	}
	r.Params = make(map[string]string, len(locs))
	for i, loc := range locs {
		end := len(params)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		r.Params[params[loc[2]:loc[3]]] = strings.TrimSpace(params[loc[1]:end])
	}
	return r, nil
}

// String returns the rule in the form ParseRule reads.
func (r Rule) String() string {
	if len(r.Params) == 0 {
		return r.Tool
	}
	keys := make([]string, 0, len(r.Params))
	for k := range r.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + r.Params[k]
	}
	return r.Tool + "(" + strings.Join(parts, ", ") + ")"
}

// Matches reports whether the rule, on its own, covers a call of tool
// with args. A command line is split into the commands it runs (see
// shellLine): a deny rule matches when it matches the whole line or any
// command in it; an allow rule only when it matches every command in it
// (or is the exact line), and never a line that redirects into a file.
func (r Rule) Matches(tool string, args map[string]any) bool {
	c := newCallView(tool, args)
	if r.Action == RuleDeny {
		return r.denies(c)
	}
	ok, _ := allowedBy([]Rule{r}, nil, c)
	return ok
}

// paramValue is the text a rule parameter is matched against. A command
// given in exec form (command plus an args list) is matched as the whole
// command line, so shell_cmd(command=go test *) covers both forms.
func paramValue(key string, v any, args map[string]any) string {
	s := argString(v)
	if key != "command" {
		return s
	}
	list, ok := args["args"].([]any)
	if !ok {
		return s
	}
	for _, a := range list {
		s += " " + argString(a)
	}
	return s
}

// pathParams are matched as paths: `*` stays within a directory, `**`
// crosses them. Other parameters use `*` for any run of characters.
var pathParams = map[string]bool{"path": true, "directory": true, "file": true, "cwd": true}

func matchParam(key, glob, value string) bool {
	if pathParams[key] {
		value = path.Clean(strings.ReplaceAll(value, "\\", "/"))
		ok, _ := doublestar.Match(glob, value)
		return ok
	}
	return wildcard(glob, value)
}

// wildcard matches s against a pattern where * is any run of characters and
// ? is one character.
func wildcard(pattern, s string) bool {
	var b strings.Builder
	b.WriteString("(?s)^") // * crosses line breaks too
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}

func argString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// SuggestRule proposes a rule that allows a call and ones like it, from
// the shape of its arguments: the program of a single command (the exact
// line when it runs more than one command or writes to a file), the
// directory of a path, the host of a URL; otherwise the whole tool.
func SuggestRule(tool string, args map[string]any) Rule {
	r := Rule{Action: RuleAllow, Tool: tool}
	if _, ok := args["command"].(string); ok {
		if cmd := suggestCommand(newCallView(tool, args)); cmd != "" {
			r.Params = map[string]string{"command": cmd}
		}
		return r
	}
	if p, ok := args["path"].(string); ok {
		dir := path.Dir(path.Clean(strings.ReplaceAll(p, "\\", "/")))
		if dir == "." || dir == "/" {
			r.Params = map[string]string{"path": "**"}
		} else {
			r.Params = map[string]string{"path": dir + "/**"}
		}
		return r
	}
	if u, ok := args["url"].(string); ok {
		if scheme, rest, ok := strings.Cut(u, "://"); ok {
			host, _, _ := strings.Cut(rest, "/")
			r.Params = map[string]string{"url": scheme + "://" + host + "/*"}
		}
	}
	return r
}

// suggestCommand is the narrowest useful command pattern for a line: every
// use of its program (of its subcommand, for programs made of
// subcommands: `go test *`, `git push *`) when the line is one plain
// command, otherwise the line exactly as written.
func suggestCommand(c *callView) string {
	l := c.commands()
	if !l.allowable() || len(l.parts) != 1 {
		return c.raw
	}
	p := l.parts[0]
	if p.env || !strings.HasPrefix(p.text, p.prog) || strings.ContainsAny(p.prog, "*?") {
		return c.raw
	}
	if p.text == p.prog {
		return p.prog
	}
	rest := strings.TrimPrefix(p.text, p.prog+" ")
	if sub, _, _ := strings.Cut(rest, " "); subcommands[path.Base(p.prog)] && isSubcommand(sub) {
		return p.prog + " " + sub + " *"
	}
	return p.prog + " *"
}

// subcommands are programs whose first argument names what they do, so
// that a rule for one subcommand (go test) does not allow another (go
// run).
var subcommands = map[string]bool{
	"apt": true, "az": true, "brew": true, "bun": true, "cargo": true, "composer": true, "conda": true, "deno": true,
	"docker": true, "dotnet": true, "gcloud": true, "gh": true, "git": true, "go": true, "helm": true, "kubectl": true,
	"npm": true, "pip": true, "pip3": true, "pnpm": true, "podman": true, "poetry": true, "rustup": true, "swift": true,
	"systemctl": true, "terraform": true, "uv": true, "yarn": true, "aws": true, "nix": true, "bundle": true, "mix": true,
}

// isSubcommand reports a word shaped like a subcommand: lower-case
// letters, digits and inner dashes.
func isSubcommand(w string) bool {
	if w == "" || len(w) > 32 || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
