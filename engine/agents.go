package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// AgentDef is a named kind of sub-agent that spawn_agent can start: a
// system prompt, the tools it may use and the model it runs on. Hosts
// read them from agent files (Claude Code's .claude/agents/*.md and the
// like) and hand them over as data in Config.Agents.
type AgentDef struct {
	// Name is what the model passes as spawn_agent's agent argument.
	Name string
	// Description tells the model when to choose the agent.
	Description string
	// Instructions are the sub-run's system text, in place of the
	// parent's; the managed parts of the system prompt (the loop's
	// contract, the environment, the sources' instructions) stay.
	Instructions string
	// Tools names the tools the agent may use. nil means every tool of
	// the run that starts it; a name that run does not have is left out,
	// so an agent never has more tools than its parent.
	Tools []string
	// Provider names the provider the sub-run uses; empty means the
	// parent's. A provider the runtime was not given is asked of
	// Config.OpenProvider.
	Provider string
	// Model is the sub-run's model; empty means the parent's (or, with
	// Provider set, that provider's default from Config.Defaults).
	Model string
}

// checkAgents reports the first unusable definition.
func checkAgents(defs []AgentDef) error {
	seen := make(map[string]bool, len(defs))
	for i, d := range defs {
		switch {
		case strings.TrimSpace(d.Name) == "":
			return configError("agent %d has no name: give every AgentDef a Name", i)
		case seen[d.Name]:
			return configError("agent %q is defined twice: give each agent its own name", d.Name)
		case strings.TrimSpace(d.Description) == "":
			return configError("agent %q has no description: the model needs one to choose it", d.Name)
		}
		seen[d.Name] = true
	}
	return nil
}

// agent returns the definition named name.
func (rt *Runtime) agent(name string) (AgentDef, bool) {
	i := slices.IndexFunc(rt.cfg.Agents, func(d AgentDef) bool { return d.Name == name })
	if i < 0 {
		return AgentDef{}, false
	}
	return rt.cfg.Agents[i], true
}

func (rt *Runtime) agentNames() string {
	if len(rt.cfg.Agents) == 0 {
		return "none are defined"
	}
	names := make([]string, len(rt.cfg.Agents))
	for i, d := range rt.cfg.Agents {
		names[i] = d.Name
	}
	return strings.Join(names, ", ")
}

// applyAgent narrows child, the parent's request for a sub-run, to def:
// its system text in place of the parent's, its model and provider. It
// returns the tools the sub-run may use: those of names (the tools the
// call allows) that def names too; names is returned as it is when def
// names no tools.
func (r *run) applyAgent(child *Request, def AgentDef, names []string) []string {
	var msgs []Message
	if strings.TrimSpace(def.Instructions) != "" {
		msgs = append(msgs, providers.TextMessage(providers.RoleSystem, def.Instructions))
	}
	for _, m := range child.Messages {
		if m.Role != providers.RoleSystem {
			msgs = append(msgs, m)
		}
	}
	child.Messages = msgs
	if def.Provider != "" && def.Provider != child.Provider {
		child.Provider, child.Model = def.Provider, ""
	}
	if def.Model != "" {
		child.Model = def.Model
	}
	if child.Model != r.req.Model || child.Provider != r.req.Provider {
		child.ContextWindow = 0 // the host's window was for the parent's model
	}
	if def.Tools == nil {
		return names
	}
	// A name ending in * names every tool it is the start of (all of an
	// MCP server's tools: github_*).
	var out []string
	for _, want := range def.Tools {
		prefix, all := strings.CutSuffix(want, "*")
		for _, name := range names {
			if (name == want || all && strings.HasPrefix(name, prefix)) && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// surfaceNames are the names of the parent's tools a sub-run may be
// given: all but the control tools, which come with every run.
func (r *run) surfaceNames() []string {
	var out []string
	for _, t := range r.tools.list {
		if t.Source != tools.SourceControl {
			out = append(out, t.Name)
		}
	}
	return out
}

// narrow gives child only the named tools of the parent's surface, all of
// which exist. With sources, the runtime's sources' tools (MCP, skills)
// are narrowed too; otherwise they reach the sub-run whatever it names.
func (r *run) narrow(child *Request, names []string, sources bool) {
	var builtins []string
	var host []Tool
	only := make(map[string]bool, len(names))
	for _, name := range names {
		t, _ := r.tools.get(name)
		only[name] = true
		switch {
		case slices.ContainsFunc(r.req.Tools, func(h Tool) bool { return h.Name == name }):
			host = append(host, *t)
		case t.Source == tools.SourceBuiltin, name == LoadSkillTool:
			builtins = append(builtins, name)
		}
	}
	child.BuiltIns, child.Tools = builtins, host
	if child.BuiltIns == nil {
		child.BuiltIns = []string{}
	}
	if sources {
		child.only = only
	}
}

// openedProviders holds the providers Config.OpenProvider built, so each
// is built once per Runtime.
type openedProviders struct {
	mu sync.Mutex
	m  map[string]providers.Provider
}

// open returns the provider name from Config.OpenProvider, building it on
// first use.
func (rt *Runtime) open(name string) (providers.Provider, error) {
	if rt.cfg.OpenProvider == nil {
		return nil, noProvider("unknown provider %q (configured: %s)", name, providerNames(rt.providers))
	}
	rt.opened.mu.Lock()
	defer rt.opened.mu.Unlock()
	if p, ok := rt.opened.m[name]; ok {
		return p, nil
	}
	p, err := rt.cfg.OpenProvider(name)
	if err == nil && p == nil {
		err = fmt.Errorf("the host returned no provider")
	}
	if err != nil {
		e := noProvider("provider %q is not available: %v", name, err)
		return nil, e
	}
	if rt.opened.m == nil {
		rt.opened.m = make(map[string]providers.Provider)
	}
	rt.opened.m[name] = p
	return p, nil
}
