package policy

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Mode is a permission mode: auto runs every call no deny rule refuses,
// ask needs a decision for each mutating call no rule settles, read
// refuses mutating calls, plan refuses them as read does but for
// commands an allow rule names that run confined by the read-only
// sandbox, and ends with a plan instead of work.
type Mode string

// Permission modes. A Policy with an empty Mode decides as ModeAsk does;
// the engine fills in its own default (auto) before deciding.
const (
	ModeAuto Mode = "auto"
	ModeAsk  Mode = "ask"
	ModeRead Mode = "read"
	ModePlan Mode = "plan"
)

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeAuto, ModeAsk, ModeRead, ModePlan:
		return m, nil
	}
	return "", fmt.Errorf("unknown permission mode %q (use auto, ask, read or plan)", s)
}

// Action is what a rule does to the calls it matches.
type Action string

// Rule actions. An allow_once rule is used up by the first call it
// allows (see Verdict.Spent).
const (
	Allow     Action = "allow"
	AllowOnce Action = "allow_once"
	Deny      Action = "deny"
)

// Rule matches tool calls by tool name and argument globs:
// `shell_cmd(command=go test *)`, `write_file(path=src/**)`, `mcp__github__*`.
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
	Action Action            `json:"action"`
	Tool   string            `json:"tool"`
	Params map[string]string `json:"params,omitempty"`
}

var paramStart = regexp.MustCompile(`(?:^|,)\s*([A-Za-z_][A-Za-z0-9_]*)\s*=`)

// ParseRule parses a rule in the form name or name(param=glob, ...).
func ParseRule(action Action, s string) (Rule, error) {
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
	if r.Action == Deny {
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

// matchPath matches a path, cleaned, against a path glob.
func matchPath(glob, value string) bool {
	value = path.Clean(strings.ReplaceAll(value, "\\", "/"))
	ok, _ := doublestar.Match(glob, value)
	return ok
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
