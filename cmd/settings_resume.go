package cmd

import (
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
)

// applyResumed restores the options a resumed session ran with, except
// those a flag sets now: flags over the session over configuration.
// Rules the session was given are kept, and rules given now are added.
func (s *settings) applyResumed(changed func(string) bool, o session.Options) error {
	if !changed("finish") && o.Finish != "" {
		s.finish = o.Finish
	}
	if !changed("permission") && o.Permission != "" {
		s.permission.Mode = o.Permission
	}
	if !changed("tools") && o.Tools != "" {
		sel, err := parseToolSelection(o.Tools)
		if err != nil {
			return err
		}
		s.builtIns = sel
	}
	for _, r := range []struct {
		action engine.RuleAction
		specs  []string
	}{{engine.RuleAllow, o.Allow}, {engine.RuleDeny, o.Deny}} {
		for _, spec := range r.specs {
			if rule, err := engine.ParseRule(r.action, spec); err == nil {
				s.permission.Rules = append(s.permission.Rules, rule)
			}
		}
	}
	if !changed("max-iterations") && o.MaxIterations > 0 {
		s.maxIter = o.MaxIterations
	}
	if !changed("max-tokens") && o.MaxTokens > 0 {
		s.maxTokens = o.MaxTokens
	}
	if !changed("budget") && o.Budget > 0 {
		s.budget = o.Budget
	}
	if !changed("reasoning-effort") && o.ReasoningEffort != "" {
		s.effort = providers.Effort(o.ReasoningEffort)
	}
	if !changed("web-search") && o.WebSearch != "" {
		s.webSearch = &providers.WebSearch{ContextSize: o.WebSearch}
	}
	if !changed("temperature") && o.Temperature != nil {
		s.temperature = o.Temperature
	}
	s.resumed = o
	return nil
}

// record keeps the options that shaped this run for its session. Rules
// from a resumed session stay recorded with those given now.
func (s *settings) record(changed func(string) bool, sf *sharedFlags) {
	o := session.Options{
		Finish: s.finish, Permission: s.permission.Mode,
		Allow:         append(append([]string(nil), s.resumed.Allow...), sf.allow...),
		Deny:          append(append([]string(nil), s.resumed.Deny...), sf.deny...),
		MaxIterations: s.maxIter, MaxTokens: s.maxTokens, Budget: s.budget,
		ReasoningEffort: string(s.effort), Temperature: s.temperature,
	}
	o.Tools = pick(changed("tools"), sf.tools, s.cfg.Tools)
	if o.Tools == "" {
		o.Tools = s.resumed.Tools
	}
	if s.webSearch != nil {
		o.WebSearch = s.webSearch.ContextSize
	}
	s.recorded = o
}
