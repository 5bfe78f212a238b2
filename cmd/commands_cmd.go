package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/commands"
	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// commandsOptions are the dependencies and flag values of `llmrt
// commands`.
type commandsOptions struct {
	f    *Factory
	cwd  string
	json bool
}

func newCommandsCmd(f *Factory, runF func(*commandsOptions) error) *cobra.Command {
	opts := &commandsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "commands",
		Short: "List the custom slash commands the chat and run offer",
		Long: `List the custom slash commands: Markdown files in Claude Code's format.
Roots, lowest precedence first: ~/.claude/commands, $XDG_CONFIG_HOME/llmrt/commands,
then for each directory from the repository root down to the working directory
its .claude/commands and its .llmrt/commands. A later root wins a name; a
subfolder is a namespace (frontend/component.md is /frontend:component). The
project's commands load only in a trusted folder (llmrt trust).`,
		Example: `  llmrt commands
  llmrt commands --json | jq '.commands[].name'
  llmrt run /review src/main.go`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runCommands(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.cwd, "cwd", "", "project directory (default: the current directory)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.AddCommand(&cobra.Command{Use: "list", Short: "List the custom slash commands (the same as llmrt commands)", Args: cobra.NoArgs,
		RunE: func(sub *cobra.Command, _ []string) error { return runCommands(sub.Context(), opts) }})
	return cmd
}

func runCommands(_ context.Context, opts *commandsOptions) error {
	dir, err := workDir(opts.cwd)
	if err != nil {
		return err
	}
	getenv := opts.f.Getenv
	trusted, _, _ := config.TrustStore{Path: config.TrustPath(getenv)}.Check(projectFolder(getenv, dir))
	roots := commandRoots(getenv, dir, trusted)
	cat := commands.Discover(roots, builtInCommand)
	var skipped []string
	if !trusted {
		skipped = untrustedCommands(getenv, dir)
	}
	if opts.json {
		list, diags := cat.Commands(), cat.Diagnostics()
		if list == nil {
			list = []commands.Command{}
		}
		if diags == nil {
			diags = []tools.Diagnostic{}
		}
		enc := json.NewEncoder(opts.f.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"commands": list, "roots": roots, "trusted": trusted, "diagnostics": diags})
	}
	printDiagnostics(opts.f.IO.ErrOut, cat.Diagnostics())
	out := ui.NewTextWriter(opts.f.IO.Out) // names, descriptions and paths from command files
	if len(cat.Commands()) == 0 {
		fmt.Fprintln(out, "No custom commands found. Looked in, lowest precedence first:")
		for _, r := range roots {
			fmt.Fprintf(out, "  %s (%s)\n", r.Dir, r.Scope)
		}
	} else if err := printCommandTable(out, cat); err != nil {
		return err
	}
	if len(skipped) > 0 {
		fmt.Fprintf(out, "\nNot loaded: the folder is not trusted (llmrt trust %s trusts it):\n", shellQuote(dir))
		printList(out, skipped)
	}
	return nil
}

func printCommandTable(out io.Writer, cat *commands.Catalogue) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "COMMAND\tSCOPE\tDESCRIPTION\tPATH")
	var shadowed []string
	for _, c := range cat.Commands() {
		fmt.Fprintf(tw, "/%s\t%s\t%s\t%s\n", oneLine(c.Name+" "+c.ArgumentHint, 40), c.Scope, oneLine(c.Description, 60), c.Path)
		for _, sh := range c.Shadowed {
			shadowed = append(shadowed, fmt.Sprintf("  /%s: %s", c.Name, sh))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(shadowed) > 0 {
		fmt.Fprintln(out, "\nShadowed by a file of higher precedence:")
		for _, s := range shadowed {
			fmt.Fprintln(out, s)
		}
	}
	return nil
}
