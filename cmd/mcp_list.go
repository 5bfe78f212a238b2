package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/tools/mcp"
	"github.com/llmrt/llmrt/ui"
)

// mcpListOptions are the flag values of `llmrt mcp list`.
type mcpListOptions struct {
	f      *Factory
	json   bool
	strict bool
}

func newMCPListCmd(f *Factory) *cobra.Command {
	opts := &mcpListOptions{f: f}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the configured MCP servers",
		Long: `List the configured MCP servers with their scope. Problems with the config files
(a file that does not parse, an unset ${VAR}) are warnings on stderr, errors
under --strict. --json also starts each enabled server of a trusted folder,
lists its tools and says how it stands (a health check), then stops it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCPList(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON, with each server's health")
	cmd.Flags().BoolVar(&opts.strict, "strict", false, "exit 2 when a config file has a problem")
	return cmd
}

// mcpListEntry is one server as `llmrt mcp list --json` shows it.
type mcpListEntry struct {
	Name      string   `json:"name"`
	Scope     string   `json:"scope"`
	Transport string   `json:"transport"`
	Target    string   `json:"target"`
	Origin    string   `json:"origin"`
	Enabled   bool     `json:"enabled"`
	Status    string   `json:"status"`
	Error     string   `json:"error,omitempty"`
	Tools     []string `json:"tools"`
}

func runMCPList(ctx context.Context, opts *mcpListOptions) error {
	f := opts.f
	list, diags, trusted, err := mcpServers(f)
	if err != nil {
		return err
	}
	if opts.strict && len(diags) > 0 {
		return usageErrorf("--strict: %s", strings.Join(diags, "; "))
	}
	for _, d := range diags {
		fmt.Fprintln(ui.NewTextWriter(f.IO.ErrOut), "llmrt: warning:", d)
	}
	dir, _ := workDir("")
	if opts.json {
		return printMCPHealth(ctx, opts, list, dir, trusted)
	}
	if len(list) == 0 {
		_, err := fmt.Fprintln(f.IO.Out, "No MCP servers configured. Add one with: llmrt mcp add NAME -- COMMAND ARGS...")
		return err
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tTRANSPORT\tTARGET\tSOURCE")
	for _, s := range list {
		t, _ := s.Transport()
		if !s.IsEnabled() {
			t += " (disabled)"
		}
		scope := mcpScope(f, dir, s.Origin)
		if scope == "project" && !trusted {
			scope += " (not trusted)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Name, scope, t, oneLine(ui.Sanitize(mcpTarget(s)), 60), ui.Sanitize(s.Origin))
	}
	return tw.Flush()
}

func mcpTarget(s mcp.Server) string {
	if t, _ := s.Transport(); t == mcp.TransportStdio {
		return strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
	}
	return s.URL
}

// printMCPHealth starts the servers a run would start, as a run would
// (the folder's trust and the sandbox applied), and prints every
// configured server with how it stands.
func printMCPHealth(ctx context.Context, opts *mcpListOptions, list []mcp.Server, dir string, trusted bool) error {
	f := opts.f
	states := map[string]mcpStatus{}
	if len(list) > 0 {
		s, err := f.resolveSettings(ctx, config.Layer{}, false, nil)
		if err != nil {
			return err
		}
		if s.mcp != nil {
			if err := s.mcp.Start(ctx); err != nil {
				return err
			}
			defer s.mcp.Close()
		}
		for _, st := range mcpStatuses(s) {
			states[st.Name] = st
		}
	}
	out := make([]mcpListEntry, 0, len(list))
	for _, s := range list {
		t, _ := s.Transport()
		e := mcpListEntry{Name: s.Name, Scope: mcpScope(f, dir, s.Origin), Transport: t, Target: mcpTarget(s), Origin: s.Origin,
			Enabled: s.IsEnabled(), Tools: []string{}}
		st, ok := states[s.Name]
		switch {
		case ok:
			e.Status, e.Error = st.Status, st.Error
			if st.Tools != nil {
				e.Tools = st.Tools
			}
		case !s.IsEnabled():
			e.Status = mcp.StateDisabled
		default:
			e.Status = "not started"
		}
		if e.Scope == "project" && !trusted {
			e.Scope += " (not trusted)"
		}
		out = append(out, e)
	}
	enc := json.NewEncoder(f.IO.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Servers []mcpListEntry `json:"servers"`
	}{out})
}
