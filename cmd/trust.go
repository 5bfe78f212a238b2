package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/mcp"
	"github.com/llmrt/llmrt/ui"
)

// projectWants lists what a folder's untrusted files would add: the
// settings a config file would change, the .env it would load and the
// MCP servers it would start, one line each. Nothing is run to find out.
func projectWants(cfg *config.Config, servers []mcp.Server) []string {
	wants := append([]string(nil), cfg.Skipped...)
	for _, s := range servers {
		wants = append(wants, fmt.Sprintf("%s: MCP server %s would start: %s", s.Origin, s.Name, serverTarget(s)))
	}
	return wants
}

// serverTarget is what a server runs or where it connects.
func serverTarget(s mcp.Server) string {
	if t, _ := s.Transport(); t != mcp.TransportStdio {
		return s.URL
	}
	return strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
}

// trustChoice is what to do about an untrusted folder.
type trustChoice int

const (
	skipProject trustChoice = iota
	trustProject
	quit
)

// askTrust asks a person on the terminal whether to trust folder, after
// listing what its files want. Esc or Ctrl-C quits.
func askTrust(ctx context.Context, o *IO, folder config.Folder, wants []string, changed bool) (trustChoice, error) {
	w := o.ErrOut
	what := "has files that can run programs or change how llmrt works"
	if changed {
		what = "has changed since you trusted it: its files can run programs or change how llmrt works"
	}
	fmt.Fprintf(w, "llmrt: %s %s:\n", folder.Dir, what)
	for _, line := range wants {
		fmt.Fprintf(w, "  - %s\n", ui.Sanitize(line))
	}
	in := tools.AskInput{Questions: []tools.Question{{ID: "trust", Header: "Trust", Question: "Trust this folder's project files?",
		Options: []tools.Choice{
			{ID: "trust", Label: "Trust this folder", Description: "remembered until its files change; llmrt trust --revoke forgets it"},
			{ID: "skip", Label: "Continue without the project's settings"},
			{ID: "quit", Label: "Quit"},
		}}}}
	a, err := ui.Terminal{In: o.promptIn(), Out: o.ErrOut, Palette: ui.NewPalette(o.ErrColor, true)}.Ask(ctx, in)
	if err != nil {
		if ctx.Err() != nil {
			return quit, ctx.Err()
		}
		return quit, nil
	}
	switch first(a.Selected["trust"]) {
	case "trust":
		return trustProject, nil
	case "skip":
		return skipProject, nil
	}
	return quit, nil
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// untrustedNote is the one warning of a run that skipped a folder's files.
func untrustedNote(folder config.Folder, wants []string) string {
	return fmt.Sprintf("this folder's project files are not trusted, so llmrt skipped them: %s; to use them, run llmrt trust %s (or pass --trust)",
		strings.Join(wants, "; "), shellQuote(folder.Dir))
}

// shellQuote quotes a path for a command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// exposedWorkspace warns about a workspace that holds the user's home or
// the whole file system: every file there is the model's to change.
func exposedWorkspace(dir string, getenv func(string) string) string {
	home := getenv("HOME")
	switch {
	case dir == string(filepath.Separator):
		return "the working directory is / : the model's commands and file tools can reach every file you can"
	case home != "" && config.Inside(dir, home):
		return fmt.Sprintf("the working directory %s holds your home directory: the model's commands can change your own configuration; work in a project directory instead", dir)
	}
	return ""
}

// trustOptions are the flags of llmrt trust.
type trustOptions struct {
	f      *Factory
	revoke bool
	list   bool
	dir    string
}

func newTrustCmd(f *Factory) *cobra.Command {
	opts := &trustOptions{f: f}
	cmd := &cobra.Command{
		Use:   "trust [DIR]",
		Short: "Trust a folder's project files (MCP servers, .env, settings)",
		Long: `A folder's .mcp.json, .llmrt/config.json and .env can start programs, load keys
and loosen permissions. llmrt honours them only for a folder you trust, and
only as they were when you trusted it: once any of them changes, llmrt asks
again (on a terminal) or skips them with a warning.

llmrt trust DIR shows what the folder's files want and trusts them as they are
now. --revoke forgets a folder; --list shows the trusted ones. Where keys are
sent (base_url, providers) is never taken from a project's config file.`,
		Example: `  llmrt trust                 # this folder
  llmrt trust ~/src/project
  llmrt trust --revoke
  llmrt trust --list`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.dir = args[0]
			}
			return runTrust(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.revoke, "revoke", false, "forget the folder")
	cmd.Flags().BoolVar(&opts.list, "list", false, "list the trusted folders")
	return cmd
}

func runTrust(_ context.Context, opts *trustOptions) error {
	f := opts.f
	store := config.TrustStore{Path: config.TrustPath(f.Getenv)}
	out := f.IO.Out
	if opts.list {
		list, err := store.List()
		if err != nil {
			return err
		}
		if len(list) == 0 {
			_, err := fmt.Fprintln(out, "No trusted folders.")
			return err
		}
		for _, t := range list {
			state := "trusted"
			if ok, _, _ := store.Check(projectFolder(f.Getenv, t.Dir)); !ok {
				state = "changed since trusted"
			}
			fmt.Fprintf(out, "%s  %s  %s\n", t.At.Local().Format("2006-01-02 15:04"), t.Dir, state)
		}
		return nil
	}
	dir, err := workDir(opts.dir)
	if err != nil {
		return err
	}
	if opts.revoke {
		found, err := store.Revoke(dir)
		if err != nil {
			return err
		}
		if !found {
			return usageErrorf("%s is not trusted; llmrt trust --list shows the trusted folders", dir)
		}
		_, err = fmt.Fprintf(out, "%s is no longer trusted.\n", dir)
		return err
	}
	cfg, servers, err := inspectFolder(f.Getenv, dir)
	if err != nil {
		return err
	}
	folder := projectFolder(f.Getenv, dir)
	if err := store.Trust(folder); err != nil {
		return err
	}
	wants := append(projectWants(cfg, servers), projectHooks(f.Getenv, dir)...)
	wants = append(wants, untrustedCommands(f.Getenv, dir)...)
	if len(wants) == 0 {
		_, err = fmt.Fprintf(out, "Trusted %s (it has no project files that need trust yet; a change to them will ask again).\n", folder.Dir)
		return err
	}
	fmt.Fprintf(out, "Trusted %s as its files are now:\n", folder.Dir)
	printList(out, wants)
	return nil
}

func printList(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintf(w, "  - %s\n", ui.Sanitize(l))
	}
}

// inspectFolder reads what dir's project files want, untrusted: nothing
// is started.
func inspectFolder(getenv func(string) string, dir string) (*config.Config, []mcp.Server, error) {
	cfg, err := config.Load(config.Options{Dir: dir, Getenv: getenv, UserInWorkspace: len(userConfigIfInside(getenv, dir)) > 0})
	if err != nil {
		return nil, nil, err
	}
	_, skipped, _ := loadMCPServers(getenv, dir, nil, false)
	return cfg, skipped, nil
}

// userConfigIfInside returns the user config when dir holds it.
func userConfigIfInside(getenv func(string) string, dir string) []string {
	if p := config.UserPath(getenv); config.Inside(dir, p) {
		if _, err := os.Stat(p); err == nil || !errors.Is(err, os.ErrNotExist) {
			return []string{p}
		}
	}
	return nil
}

// decideTrust says whether the folder's project files apply to this run:
// trusted as they are now, trusted for this run by --trust, or trusted by
// a person asked on the terminal (only by commands that run a model:
// listing asks nothing). An untrusted folder whose files want something
// adds one diagnostic naming it all (a warning; exit 2 under --strict).
func (f *Factory) decideTrust(ctx context.Context, s *settings, o config.Options, ask bool) (bool, error) {
	store := s.trustStore
	ok, changed, err := store.Check(s.folder)
	if err != nil {
		s.diagnostics = append(s.diagnostics, err.Error())
	}
	if ok {
		return true, nil
	}
	o.Trusted = false
	cfg, err := config.Load(o)
	if err != nil {
		return false, err
	}
	_, skipped, _ := loadMCPServers(f.Getenv, s.workDir, s.mcpConfigs, false)
	_, skillWants := projectSkillGrants(f.Getenv, s.workDir)
	wants := append(projectWants(cfg, skipped), projectHooks(f.Getenv, s.workDir)...)
	wants = append(wants, untrustedCommands(f.Getenv, s.workDir)...)
	wants = append(wants, agentWants(f.Getenv, s.workDir)...)
	wants = append(wants, skillWants...)
	switch {
	case len(wants) == 0:
		return false, nil
	case isTrue(o.Flags.Trust):
		return true, nil
	case ask && f.IO.Interactive():
		choice, err := askTrust(ctx, f.IO, s.folder, wants, changed)
		switch {
		case err != nil:
			return false, err
		case choice == quit:
			return false, &exitError{code: exitCancelled, err: errors.New("stopped: the folder is not trusted"),
				hint: "llmrt trust " + shellQuote(s.folder.Dir) + " trusts it; --trust trusts it for one run"}
		case choice == trustProject:
			if err := store.Trust(s.folder); err != nil {
				s.diagnostics = append(s.diagnostics, fmt.Sprintf("the folder is trusted for this run only: %v", err))
			}
			return true, nil
		}
	}
	s.diagnostics = append(s.diagnostics, untrustedNote(s.folder, wants))
	return false, nil
}

// vetMCPConfigs returns the --mcp-config files to load: those the command
// line gives now, and those a resumed session recorded, unless one inside
// the workspace (where the session's commands could rewrite it) changed
// since the session recorded it, which is said in a diagnostic instead.
// The recorded layer keeps their fingerprints for the next resume.
func (s *settings) vetMCPConfigs(flags, session config.Layer) []string {
	out := append([]string(nil), flags.MCPConfigs...)
	for _, p := range session.MCPConfigs {
		if slices.Contains(out, p) {
			continue
		}
		if config.Inside(s.workDir, p) && config.Sum(p) != session.MCPConfigSums[p] {
			s.diagnostics = append(s.diagnostics, fmt.Sprintf("--mcp-config %s changed since the session recorded it, so it is not loaded; give --mcp-config %s to use it as it is now", p, shellQuote(p)))
			continue
		}
		out = append(out, p)
	}
	s.recorded.MCPConfigs, s.recorded.MCPConfigSums = out, nil
	for _, p := range out {
		if config.Inside(s.workDir, p) {
			if s.recorded.MCPConfigSums == nil {
				s.recorded.MCPConfigSums = map[string]string{}
			}
			s.recorded.MCPConfigSums[p] = config.Sum(p)
		}
	}
	return out
}
