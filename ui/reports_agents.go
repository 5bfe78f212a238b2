package ui

import (
	"slices"
	"strings"
)

// AgentList is the agents spawn_agent can start (/agents).
type AgentList struct {
	Agents []AgentInfo
}

// AgentInfo is one agent of an AgentList.
type AgentInfo struct {
	Name string
	// Scope is where it was found: "project" or "user".
	Scope       string
	Description string
	// Tools are its tools; nil means all of the chat's.
	Tools []string
	// Model is its model, "" for the chat's; Provider likewise.
	Model, Provider string
}

func (r AgentList) clean() AgentList {
	r.Agents = slices.Clone(r.Agents)
	for i, a := range r.Agents {
		tools := make([]string, len(a.Tools))
		for j, t := range a.Tools {
			tools[j] = Sanitize(t)
		}
		if a.Tools == nil {
			tools = nil
		}
		r.Agents[i] = AgentInfo{Name: Sanitize(a.Name), Scope: Sanitize(a.Scope), Description: Sanitize(a.Description),
			Tools: tools, Model: Sanitize(a.Model), Provider: Sanitize(a.Provider)}
	}
	return r
}

func (r AgentList) draw(l *look, width int) []string {
	p := l.pal
	if len(r.Agents) == 0 {
		return para("No agents defined; "+p.Code.Render("llmrt agents")+" lists where they are looked for.", width)
	}
	t := table{cols: []column{{title: "agent"}, {title: "scope", optional: true}, {title: "model", optional: true},
		{title: "tools"}, {title: "description", style: p.Dim}}}
	for _, a := range r.Agents {
		model := a.Model
		switch {
		case a.Provider != "" && model != "":
			model = a.Provider + "/" + model
		case a.Provider != "":
			model = a.Provider
		case model == "":
			model = "inherit"
		}
		tools := "all"
		if a.Tools != nil {
			tools = strings.Join(a.Tools, ",")
			if tools == "" {
				tools = "none"
			}
		}
		t.add(a.Name, a.Scope, model, tools, oneLine(a.Description))
	}
	return t.lines(p, width)
}
