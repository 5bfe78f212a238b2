package policy

import (
	"path"
	"slices"
	"strings"
)

// callView is a call as rules see it; its command line is parsed once,
// when a rule needs it.
type callView struct {
	tool string
	args map[string]any
	// raw is the command line (exec form: program and arguments joined);
	// hasCommand reports a string command argument.
	raw        string
	hasCommand bool
	line       *shellLine
	// paths gives the forms of a path argument (Policy.Paths); forms
	// keeps them, by argument.
	paths func(string) []string
	forms map[string][]string
}

func newCallView(tool string, args map[string]any) *callView {
	c := &callView{tool: tool, args: args}
	if _, ok := args["command"].(string); ok {
		c.hasCommand = true
		c.raw = strings.TrimSpace(paramValue("command", args["command"], args))
	}
	return c
}

// commands returns what the command line runs: a shell line, or in exec
// form (an args list) one command.
func (c *callView) commands() *shellLine {
	if c.line != nil {
		return c.line
	}
	cmd, _ := c.args["command"].(string)
	if list, ok := c.args["args"].([]any); ok {
		words := []string{cmd}
		for _, a := range list {
			words = append(words, argString(a))
		}
		c.line = execLine(words)
	} else {
		c.line = parseShellLine(cmd)
	}
	return c.line
}

// matchesExcept reports whether the rule's tool pattern and its
// parameters, other than skip, match the call.
func (r Rule) matchesExcept(c *callView, skip string) bool {
	if ok, _ := path.Match(r.Tool, c.tool); !ok {
		return false
	}
	for k, glob := range r.Params {
		if k == skip {
			continue
		}
		v, ok := c.args[k]
		if !ok || !r.matchParam(c, k, glob, v) {
			return false
		}
	}
	return true
}

// matchParam matches one parameter of the rule against the call's
// argument. A path is matched in each of its forms of the glob's kind
// (relative, or absolute for an absolute glob): a deny rule holds when
// any form matches, other rules only when all do.
func (r Rule) matchParam(c *callView, key, glob string, v any) bool {
	s, isString := v.(string)
	if !pathParams[key] || !isString {
		return wildcard(glob, paramValue(key, v, c.args))
	}
	for _, f := range formsFor(glob, c.pathForms(s)) {
		ok := matchPath(glob, f)
		if ok && r.Action == Deny {
			return true
		}
		if !ok && r.Action != Deny {
			return false
		}
	}
	return r.Action != Deny
}

// formsFor picks the forms a glob is matched against: the absolute ones
// for an absolute glob, otherwise the relative ones (a path outside the
// workspace has none: then all of them).
func formsFor(glob string, forms []string) []string {
	abs := path.IsAbs(strings.ReplaceAll(glob, "\\", "/"))
	var out []string
	for _, f := range forms {
		if path.IsAbs(strings.ReplaceAll(f, "\\", "/")) == abs {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return forms
	}
	return out
}

// pathForms returns the forms in which a path argument is matched.
func (c *callView) pathForms(p string) []string {
	if c.paths == nil {
		return []string{p}
	}
	if f, ok := c.forms[p]; ok {
		return f
	}
	f := c.paths(p)
	if len(f) == 0 {
		f = []string{p}
	}
	if c.forms == nil {
		c.forms = make(map[string][]string)
	}
	c.forms[p] = f
	return f
}

// denies reports whether a deny rule matches the call: its command
// pattern may match the whole line or any command the line runs.
func (r Rule) denies(c *callView) bool {
	glob, hasGlob := r.Params["command"]
	if !hasGlob || !c.hasCommand {
		return r.matchesExcept(c, "")
	}
	if !r.matchesExcept(c, "command") {
		return false
	}
	if wildcard(glob, c.raw) {
		return true
	}
	l := c.commands()
	for _, p := range l.parts {
		if matchCommand(glob, p.text) {
			return true
		}
	}
	for _, f := range l.denyForms {
		if matchCommand(glob, f) {
			return true
		}
	}
	return false
}

// allowedBy reports whether allow rules cover a call, and which rules it
// used: one rule without a command pattern that matches the call, one
// whose command pattern is exactly the command line (a line a person
// approved as written), or, for every command the line runs, a rule whose
// pattern matches that command. A line that does not parse, redirects
// into a file or runs a program known only at run time is covered only
// the first two ways. skip, when set, hides rules already used up.
func allowedBy(rules []Rule, skip func(int) bool, c *callView) (bool, []int) {
	var patterns []int
	for i, r := range rules {
		if r.Action == Deny || (skip != nil && skip(i)) {
			continue
		}
		glob, hasGlob := r.Params["command"]
		if !hasGlob || !c.hasCommand {
			if r.matchesExcept(c, "") {
				return true, []int{i}
			}
			continue
		}
		if !r.matchesExcept(c, "command") {
			continue
		}
		if !strings.ContainsAny(glob, "*?") && glob == c.raw {
			return true, []int{i}
		}
		patterns = append(patterns, i)
	}
	if len(patterns) == 0 {
		return false, nil
	}
	l := c.commands()
	if !l.allowable() {
		return false, nil
	}
	var used []int
	for _, p := range l.parts {
		covered := false
		for _, i := range patterns {
			if matchCommand(rules[i].Params["command"], p.text) {
				covered = true
				if !slices.Contains(used, i) {
					used = append(used, i)
				}
				break
			}
		}
		if !covered {
			return false, nil
		}
	}
	return true, used
}

// matchCommand matches one command against a command pattern. A pattern
// ending in " *" also matches the program with no arguments, so `rm *`
// holds against `xargs rm` and `rm` alone.
func matchCommand(glob, cmd string) bool {
	return wildcard(glob, cmd) || (strings.HasSuffix(glob, " *") && wildcard(glob, cmd+" "))
}
