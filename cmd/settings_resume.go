package cmd

import (
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools/sandbox"
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
	if !changed("sandbox") && o.Sandbox != "" {
		if m, err := sandbox.ParseMode(o.Sandbox); err == nil && (m == sandbox.Off || sandbox.Available() == nil) {
			s.sandbox.Mode = m
		}
	}
	if !changed("sandbox-network") && o.SandboxNetwork {
		s.sandbox.Network = true
	}
	if !changed("mcp-config") {
		s.mcpConfigs = o.MCPConfigs
	}
	if !changed("skills-dir") {
		s.skillsDirs = append(s.skillsDirs, o.SkillsDirs...)
	}
	s.resumed = o
	return nil
}

// record keeps the written forms of the options a session stores as
// text (rules and the tool selection), the ones given now added to those
// of a resumed session.
func (s *settings) record(changed func(string) bool, sf *sharedFlags) {
	s.recorded = session.Options{
		Allow: append(append([]string(nil), s.resumed.Allow...), sf.allow...),
		Deny:  append(append([]string(nil), s.resumed.Deny...), sf.deny...),
		Tools: pick(changed("tools"), sf.tools, s.cfg.Tools),
	}
	if s.recorded.Tools == "" {
		s.recorded.Tools = s.resumed.Tools
	}
	s.recorded.MCPConfigs, s.recorded.SkillsDirs = s.resumed.MCPConfigs, s.resumed.SkillsDirs
	if changed("mcp-config") {
		s.recorded.MCPConfigs = absPaths(sf.mcpConfigs)
	}
	if changed("skills-dir") {
		s.recorded.SkillsDirs = absPaths(sf.skillsDirs)
	}
}

// sessionOptions returns the options a new session records.
func (s *settings) sessionOptions() session.Options {
	o := s.recorded
	o.Finish, o.Permission = s.finish, s.permission.Mode
	o.MaxIterations, o.MaxTokens, o.Budget = s.maxIter, s.maxTokens, s.budget
	o.ReasoningEffort, o.Temperature = string(s.effort), s.temperature
	if s.webSearch != nil {
		o.WebSearch = s.webSearch.ContextSize
	}
	o.Sandbox, o.SandboxNetwork = string(s.sandbox.Mode), s.sandbox.Network
	return o
}
