package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/skills"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// skillsOptions are the dependencies and flag values of `llmrt skills`.
type skillsOptions struct {
	f    *Factory
	cwd  string
	dirs []string
	json bool
	name string
}

func newSkillsCmd(f *Factory, runF func(*skillsOptions) error) *cobra.Command {
	opts := &skillsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "List the skills a run would offer the model",
		Long: `List the discovered skills: directories holding a SKILL.md with a name and a
description in YAML front matter. Roots, lowest precedence first:
~/.agents/skills, ~/.codex/skills ($CODEX_HOME/skills), ~/.claude/skills,
$XDG_CONFIG_HOME/llmrt/skills; then, in each folder from the repository root
down to the project directory, .agents/skills, .codex/skills, .claude/skills
and .llmrt/skills; then each --skills-dir. A skill from a later root
replaces one of the same name from an earlier root. Files that do not parse
are reported as warnings on stderr.`,
		Example: `  llmrt skills
  llmrt skills --json | jq '.skills[].name'
  llmrt skills show pdf`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runSkills(cmd.Context(), opts)
		},
	}
	opts.register(cmd)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.AddCommand(newSkillsShowCmd(f, nil))
	return cmd
}

func (opts *skillsOptions) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&opts.cwd, "cwd", "", "project directory (default: the current directory)")
	cmd.Flags().StringArrayVar(&opts.dirs, "skills-dir", nil, "also load skills from this directory; repeatable")
}

func newSkillsShowCmd(f *Factory, runF func(*skillsOptions) error) *cobra.Command {
	opts := &skillsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Print a skill's instructions and files",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runSkillsShow(cmd.Context(), opts)
		},
	}
	opts.register(cmd)
	return cmd
}

// skillRoots returns the skill roots of a run in workDir: the user's, the
// project folders' from the repository root down to workDir, and the
// --skills-dir ones. trusted says the project's skills may widen a run's
// permissions (their allowed-tools).
func skillRoots(getenv func(string) string, workDir string, extra []string, trusted bool) []skills.Root {
	home := getenv("HOME")
	return skills.Roots(skills.RootOptions{
		Home: home, ConfigHome: getenv("XDG_CONFIG_HOME"), CodexHome: getenv("CODEX_HOME"),
		Projects: config.ProjectDirs(workDir, home), ProjectTrusted: trusted, Extra: extra,
	})
}

// projectSkillGrants finds the project's skills whose allowed-tools would
// let tools run without asking, which only a trusted folder allows. It
// returns their SKILL.md files, which the folder's trust fingerprint
// covers (so a later edit asks again), and one line for each saying what
// it would allow, for the trust prompt.
func projectSkillGrants(getenv func(string) string, dir string) (files, wants []string) {
	cat := skills.Discover(skills.Roots(skills.RootOptions{Projects: config.ProjectDirs(dir, getenv("HOME"))}))
	for _, s := range cat.Skills() {
		if len(s.AllowRules) == 0 {
			continue
		}
		files = append(files, s.Path)
		wants = append(wants, fmt.Sprintf("%s: skill %s would let %s run without asking", s.Path, s.Name, strings.Join(s.AllowRules, ", ")))
	}
	return files, wants
}

// discover finds the skills and prints their diagnostics as warnings.
func (opts *skillsOptions) discover() ([]skills.Root, *skills.Catalogue, error) {
	dir, err := workDir(opts.cwd)
	if err != nil {
		return nil, nil, err
	}
	roots := skillRoots(opts.f.Getenv, dir, opts.dirs, false)
	cat := skills.Discover(roots)
	printDiagnostics(opts.f.IO.ErrOut, cat.Diagnostics())
	return roots, cat, nil
}

// printDiagnostics shows tool diagnostics as warnings.
func printDiagnostics(w io.Writer, diags []tools.Diagnostic) {
	w = ui.NewTextWriter(w) // file names and what they hold
	for _, d := range diags {
		fmt.Fprintf(w, "llmrt: warning: %s: %s\n", d.Source, d.Message)
	}
}

func runSkills(_ context.Context, opts *skillsOptions) error {
	roots, cat, err := opts.discover()
	if err != nil {
		return err
	}
	out := io.Writer(opts.f.IO.Out)
	if opts.json {
		list := cat.Skills()
		if list == nil {
			list = []skills.Skill{}
		}
		diags := cat.Diagnostics()
		if diags == nil {
			diags = []tools.Diagnostic{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"skills": list, "roots": roots, "diagnostics": diags})
	}
	out = ui.NewTextWriter(out) // names, descriptions and paths from skill files
	if cat.Len() == 0 {
		fmt.Fprintln(out, "No skills found. Looked in, lowest precedence first:")
		for _, r := range roots {
			fmt.Fprintf(out, "  %s (%s)\n", r.Dir, r.Scope)
		}
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tDESCRIPTION\tPATH")
	var shadowed []string
	for _, s := range cat.Skills() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Root.Scope, oneLine(s.Description, 60), s.Path)
		for _, sh := range s.Shadowed {
			shadowed = append(shadowed, fmt.Sprintf("  %s: %s (%s)", s.Name, sh.Path, sh.Root.Scope))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(shadowed) > 0 {
		fmt.Fprintln(out, "\nShadowed by a root of higher precedence:")
		fmt.Fprintln(out, strings.Join(shadowed, "\n"))
	}
	return nil
}

func runSkillsShow(_ context.Context, opts *skillsOptions) error {
	_, cat, err := opts.discover()
	if err != nil {
		return err
	}
	s, ok := cat.Lookup(opts.name)
	if !ok {
		known := "none were found"
		if cat.Len() > 0 {
			names := cat.Names()
			known = "known: " + strings.Join(names[:min(len(names), 50)], ", ")
			if len(names) > 50 {
				known += fmt.Sprintf(" and %d more", len(names)-50)
			}
		}
		return &exitError{code: exitFailed, err: fmt.Errorf("unknown skill %q (%s)", opts.name, known), hint: "llmrt skills lists the skills and where they were looked for"}
	}
	l, err := cat.Load(s.Name)
	if err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	out := ui.NewTextWriter(opts.f.IO.Out) // the skill file's text
	fmt.Fprintf(out, "name: %s\ndescription: %s\npath: %s\nroot: %s (%s)\n", s.Name, oneLine(s.Description, 1024), s.Path, s.Root.Dir, s.Root.Scope)
	for _, sh := range s.Shadowed {
		fmt.Fprintf(out, "shadows: %s (%s)\n", sh.Path, sh.Root.Scope)
	}
	if len(s.AllowedTools) > 0 {
		fmt.Fprintf(out, "allowed-tools: %s\n", strings.Join(s.AllowedTools, ", "))
		rules := "none"
		if len(s.AllowRules) > 0 {
			rules = strings.Join(s.AllowRules, ", ")
		}
		fmt.Fprintf(out, "allows once loaded: %s (a project's skills only in a trusted folder)\n", rules)
	}
	fmt.Fprintf(out, "\n%s\n", l.Body)
	if len(l.Files) > 0 {
		fmt.Fprintf(out, "\nfiles (in %s):\n", l.Root)
		for _, f := range l.Files {
			fmt.Fprintf(out, "  %s\n", f)
		}
		if l.FilesTruncated {
			fmt.Fprintln(out, "  ...")
		}
	}
	return nil
}
