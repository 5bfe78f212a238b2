package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/tools"
)

// applyTools checks the tool selection, the permission mode and the
// rules.
func (s *settings) applyTools() error {
	c := s.cfg
	sel, err := parseToolSelection(deref(c.Tools))
	if err != nil {
		return usageErrorf("%s: %v", c.Where("tools"), err)
	}
	s.builtIns = sel
	mode := deref(c.Permission)
	if mode == "" {
		mode = string(engine.ModeAsk) // the CLI asks; the library's default is auto
	}
	m, err := engine.ParseMode(mode)
	if err != nil {
		return usageErrorf("%s: %v", c.Where("permission"), err)
	}
	s.permission.Mode = m
	for _, r := range []struct {
		action engine.RuleAction
		key    string
		specs  []string
	}{{engine.RuleAllow, "allow", c.Allow}, {engine.RuleDeny, "deny", c.Deny}} {
		for _, spec := range r.specs {
			rule, err := engine.ParseRule(r.action, spec)
			if err != nil {
				return usageErrorf("%s: %v", c.Where(r.key), err)
			}
			s.permission.Rules = append(s.permission.Rules, rule)
		}
	}
	return nil
}

// parseToolSelection reads --tools: all (the default), none (empty),
// read-only, or a comma list of built-in names.
func parseToolSelection(v string) ([]string, error) {
	switch strings.TrimSpace(v) {
	case "", "all":
		return engine.AllBuiltIns(), nil
	case "none":
		return []string{}, nil
	case "read-only":
		var names []string
		for _, t := range tools.Builtins(nil, tools.Options{}) {
			if !t.Kind.Mutating() {
				names = append(names, t.Name)
			}
		}
		// run_code and spawn_agent only reach the other selected tools;
		// load_skill reads the skills.
		return append(names, engine.RunCodeTool, engine.SpawnAgentTool, engine.LoadSkillTool), nil
	}
	known := map[string]bool{}
	for _, n := range engine.AllBuiltIns() {
		known[n] = true
	}
	var names []string
	for _, n := range strings.Split(v, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !known[n] {
			return nil, fmt.Errorf("unknown built-in %q (known: %s; or all, none, read-only)", n, strings.Join(engine.AllBuiltIns(), ", "))
		}
		names = append(names, n)
	}
	return names, nil
}

// applyShellEnv resolves the shell_env config key into the environment
// policy of shell_cmd. Provider key variables are dropped whatever their
// names, unless shell_env passes them by name.
func (s *settings) applyShellEnv() error {
	var p tools.EnvPolicy
	if e := s.cfg.ShellEnv; e != nil {
		p = tools.EnvPolicy{Inherit: e.Inherit, IgnoreDefaultExcludes: e.IgnoreDefaultExcludes, Pass: e.Pass,
			Exclude: e.Exclude, IncludeOnly: e.IncludeOnly, Set: e.Set}
	}
	if err := p.Check(); err != nil {
		return usageErrorf("config key shell_env: %v", err)
	}
	for _, name := range catalog.Names() {
		spec, _ := catalog.Lookup(name)
		for _, v := range spec.KeyVars {
			if !slices.Contains(p.Pass, v) {
				p.Exclude = append(p.Exclude, v)
			}
		}
	}
	s.shellEnv = p
	return nil
}
