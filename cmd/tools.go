package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/ui"
)

// toolsOptions are the dependencies and flag values of `llmrt tools`.
type toolsOptions struct {
	f       *Factory
	cmd     *cobra.Command
	options config.Layer
	json    bool
	name    string
	args    string
}

func newToolsCmd(f *Factory, runF func(*toolsOptions) error) *cobra.Command {
	opts := &toolsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the tools a run would offer the model",
		Long: `List the resolved tool surface: the built-ins (as selected by --tools) and the
control tools, with their evidence kind and source.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.cmd = cmd
			if runF != nil {
				return runF(opts)
			}
			return runTools(cmd.Context(), opts)
		},
	}
	registerToolFlags(cmd, &opts.options)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.AddCommand(newToolsCallCmd(f, nil))
	return cmd
}

// registerToolFlags adds the shared flags that shape the tool surface.
func registerToolFlags(cmd *cobra.Command, l *config.Layer) {
	all := cmd.Flags()
	config.RegisterFlags(all, l)
	completeShared(cmd, nil)
	for _, name := range []string{"provider", "model", "base-url", "system", "system-file", "max-iterations",
		"max-tokens", "temperature", "reasoning-effort", "web-search", "finish", "timeout", "budget", "trace"} {
		_ = all.MarkHidden(name)
	}
}

func runTools(ctx context.Context, opts *toolsOptions) error {
	s, err := opts.f.resolveSettings(ctx, opts.options, false, nil)
	if err != nil {
		return err
	}
	rt, err := engine.New(engine.Config{BuiltinOptions: s.toolOptions(), Sources: s.sources()})
	if err != nil {
		return err
	}
	defer rt.Close()
	infos, err := rt.ResolveTools(ctx, s.request())
	if err != nil {
		return err
	}
	// What is wrong with the config (a broken .mcp.json, a missing
	// --mcp-config, a server that failed) goes to stderr, or fails the
	// command under --strict: this is the command for finding it.
	if err := newHost(opts.f.IO, s, nil, opts.f.secrets).checkStrict(ctx, rt, false); err != nil {
		return err
	}
	out := opts.f.IO.Out
	servers := mcpStatuses(s)
	if opts.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if servers != nil {
			return enc.Encode(struct {
				Tools      any         `json:"tools"`
				MCPServers []mcpStatus `json:"mcp_servers"`
			}{infos, servers})
		}
		return enc.Encode(infos)
	}
	rows := make([][]string, 0, len(infos))
	for _, t := range infos {
		rows = append(rows, []string{t.Name, string(t.Kind), t.Source, firstSentence(t.Description)})
	}
	if err := printTable(out, opts.f.IO.Width, []string{"NAME", "KIND", "SOURCE", "DESCRIPTION"}, rows); err != nil {
		return err
	}
	if len(servers) > 0 {
		fmt.Fprintln(out, "\nMCP servers:")
		for _, st := range servers {
			fmt.Fprintf(out, "  %s\n", ui.Sanitize(st.Name+": "+st.String())) // a server's error quotes its stderr
		}
	}
	_, err = fmt.Fprintf(out, "\ncommands: %s\n", commandsLine(s))
	return err
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i+1]
	}
	return strings.Join(strings.Fields(s), " ")
}

func newToolsCallCmd(f *Factory, runF func(*toolsOptions) error) *cobra.Command {
	opts := &toolsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "call NAME",
		Short: "Run one tool outside any model run",
		Long: `Run one tool with JSON arguments, under the same permissions as a run: in the
default ask mode a mutating tool asks on a terminal and is denied without one
(allow it with --allow or --permission auto).`,
		Example: `  llmrt tools call read_file --args '{"path":"README.md"}'
  llmrt tools call shell_cmd --args '{"command":"go version"}' --permission auto`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeToolName,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.cmd, opts.name = cmd, args[0]
			if runF != nil {
				return runF(opts)
			}
			return runToolsCall(cmd.Context(), opts)
		},
	}
	registerToolFlags(cmd, &opts.options)
	cmd.Flags().StringVar(&opts.args, "args", "{}", "the tool's arguments as a JSON object")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the outcome as JSON")
	return cmd
}

func runToolsCall(ctx context.Context, opts *toolsOptions) error {
	s, err := opts.f.resolveSettings(ctx, opts.options, false, nil)
	if err != nil {
		return err
	}
	if !json.Valid([]byte(opts.args)) {
		return usageErrorf("--args is not valid JSON: %s", opts.args)
	}
	rt, err := engine.New(engine.Config{BuiltinOptions: s.toolOptions(), Sources: s.sources()})
	if err != nil {
		return err
	}
	defer rt.Close()
	h := newHost(opts.f.IO, s, nil, opts.f.secrets)
	if err := h.checkStrict(ctx, rt, false); err != nil {
		return err
	}
	call := providers.ToolCall{ID: "cli", Name: opts.name, Arguments: opts.args}
	var denied []engine.Warning
	out, cause := h.call(ctx, rt, call, func(ev engine.Event) {
		if ev.Type == engine.EventWarning {
			denied = append(denied, *ev.Warning)
		}
	})
	if cause != nil {
		return &exitError{code: exitCancelled, err: fmt.Errorf("%s was not run: %v", opts.name, cause)}
	}
	if !s.quiet {
		printDenials(h.errOut, denied)
	}
	if out.Code == string(engine.CodeInvalidRequest) {
		return usageErrorf("%s", out.Content)
	}
	if opts.json {
		enc := json.NewEncoder(opts.f.IO.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else if !out.IsError {
		fmt.Fprintln(opts.f.IO.Out, ui.Sanitize(strings.TrimRight(out.Content, "\n")))
	}
	if out.IsError {
		if out.Code == engine.OutcomeUnknownTool || out.Code == engine.OutcomeInvalidArguments {
			return usageErrorf("%s", out.Content)
		}
		quiet := opts.json || (out.Code == engine.OutcomePermissionDenied && len(denied) > 0 && !s.quiet)
		return &exitError{code: exitFailed, err: fmt.Errorf("%s: %s", opts.name, out.Content), quiet: quiet}
	}
	return nil
}
