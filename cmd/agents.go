package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/agents"
	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/ui"
)

// agentsOptions are the dependencies and flag values of `llmrt agents`.
type agentsOptions struct {
	f    *Factory
	cwd  string
	json bool
}

func newAgentsCmd(f *Factory, runF func(*agentsOptions) error) *cobra.Command {
	opts := &agentsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "List the agents spawn_agent can start",
		Long: `List the agent definitions the model can hand tasks to with spawn_agent: Markdown
files with YAML front matter (name, description, tools, model) whose body is the
agent's system prompt, and Codex's TOML custom agents. Directories, lowest
precedence first: ~/.codex/agents, ~/.claude/agents, $XDG_CONFIG_HOME/llmrt/agents,
then for each folder from the repository root down to the working directory its
.codex/agents, .claude/agents and .llmrt/agents. A later directory's agent
replaces one of the same name. A project's agents are used only when the folder
is trusted (llmrt trust). Files that cannot be used are warnings on stderr.`,
		Example: `  llmrt agents
  llmrt agents --json | jq '.agents[].name'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runAgents(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.cwd, "cwd", "", "project directory (default: the current directory)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runAgents(ctx context.Context, opts *agentsOptions) error {
	var flags config.Layer
	if opts.cwd != "" {
		flags.Cwd = &opts.cwd
	}
	s, err := opts.f.resolveSettings(ctx, flags, false, nil)
	if err != nil {
		return err
	}
	errOut := ui.NewTextWriter(opts.f.IO.ErrOut)
	for _, d := range s.diagnostics {
		fmt.Fprintf(errOut, "llmrt: warning: %s\n", d)
	}
	out := io.Writer(opts.f.IO.Out)
	if opts.json {
		list := s.agents
		if list == nil {
			list = []agents.Agent{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"agents": list, "project_trusted": s.trusted})
	}
	if len(s.agents) == 0 {
		fmt.Fprintln(out, "No agents found. Add Markdown files to .claude/agents or .llmrt/agents (see llmrt agents --help).")
		return nil
	}
	tw := tabwriter.NewWriter(ui.NewTextWriter(out), 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tMODEL\tTOOLS\tDESCRIPTION")
	for _, a := range s.agents {
		info := agentInfo(a)
		tools := "all"
		if info.Tools != nil {
			tools = orElse(strings.Join(info.Tools, ","), "none")
		}
		model := strings.Trim(info.Provider+"/"+info.Model, "/")
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", a.Name, a.Scope, orElse(model, "inherit"), tools, oneLine(a.Description, 80))
	}
	return tw.Flush()
}

// orElse is s, or fallback when s is empty.
func orElse(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// agentDirs are the agent directories of a run in dir; the project's only
// when trusted.
func agentDirs(getenv func(string) string, dir string, trusted bool) []agents.Dir {
	home := getenv("HOME")
	return agents.Dirs(agents.DirOptions{Home: home, ConfigHome: getenv("XDG_CONFIG_HOME"),
		Project: config.ProjectDirs(dir, home), Trusted: trusted})
}

// loadAgents reads the agents of the settings' folder; files that cannot
// be used are diagnostics.
func (s *settings) loadAgents(getenv func(string) string) {
	list, diags := agents.Load(agentDirs(getenv, s.workDir, s.trusted), agents.LoadOptions{Provider: s.provider})
	s.agents = list
	for _, d := range diags {
		s.diagnostics = append(s.diagnostics, d.Source+": "+d.Message)
	}
}

// trustFiles are the files of dir, beside its config, .mcp.json, .env and
// hooks, whose contents trusting it covers: the user config when dir
// holds it, the project's command files, the skills that would allow
// tools and the agent files, so a changed one asks again.
func trustFiles(getenv func(string) string, dir string) []string {
	files := append(userConfigIfInside(getenv, dir), commandFiles(dir)...)
	skillFiles, _ := projectSkillGrants(getenv, dir)
	files = append(files, skillFiles...)
	return append(files, agents.ProjectFiles(config.ProjectDirs(dir, getenv("HOME")))...)
}

// agentWants says what an untrusted folder's agent files would add.
func agentWants(getenv func(string) string, dir string) []string {
	var out []string
	for _, f := range agents.ProjectFiles(config.ProjectDirs(dir, getenv("HOME"))) {
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			rel = f
		}
		out = append(out, fmt.Sprintf("%s: an agent spawn_agent could start with its own instructions and tools", rel))
	}
	return out
}

// agentDefs are the settings' agents as the engine takes them. An agent
// on the chat's own provider runs on its adapter; one naming another
// provider without a model gets that provider's default model.
func (s *settings) agentDefs() []engine.AgentDef {
	defs := make([]engine.AgentDef, 0, len(s.agents))
	for _, a := range s.agents {
		d := engine.AgentDef{Name: a.Name, Description: a.Description, Instructions: a.Instructions,
			Tools: a.Tools, Provider: a.Provider, Model: a.Model}
		if d.Provider == s.provider {
			d.Provider = ""
		}
		if spec, ok := catalog.Lookup(d.Provider); ok && d.Provider != "" && d.Model == "" {
			d.Model = spec.DefaultModel
		}
		defs = append(defs, d)
	}
	return defs
}

// agentInfo is how /agents and llmrt agents show an agent.
func agentInfo(a agents.Agent) ui.AgentInfo {
	return ui.AgentInfo{Name: a.Name, Scope: a.Scope, Description: a.Description, Tools: a.Tools, Model: a.Model, Provider: a.Provider}
}
