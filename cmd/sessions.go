package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/ui"
)

func newSessionsCmd(f *Factory) *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List saved sessions (of this directory; --all for every one)",
		Long: `List the saved sessions of the current directory, newest first: id, age,
size, status and title (the first prompt); --json adds the model. --all lists every
directory's, with the directory. llmrt run --resume ID or llmrt chat --resume ID
continues one; llmrt sessions show ID prints it; llmrt sessions rm ID... deletes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st := f.Sessions()
			list, err := st.List()
			if err != nil {
				return err
			}
			dir, err := workDir("")
			if err != nil {
				return err
			}
			if !all {
				list = slices.DeleteFunc(list, func(s session.Summary) bool { return s.WorkDir != dir })
			}
			if asJSON {
				if list == nil {
					list = []session.Summary{}
				}
				return printJSON(f, list)
			}
			if len(list) == 0 {
				where := "for " + dir + " (--all lists every directory's)"
				if all {
					where = "in " + st.Dir
				}
				fmt.Fprintf(f.IO.ErrOut, "no saved sessions %s\n", where)
				return nil
			}
			head := []string{"ID", "AGE", "SIZE", "STATUS", "TITLE"}
			if all {
				head = []string{"ID", "AGE", "SIZE", "STATUS", "DIRECTORY", "TITLE"}
			}
			now := time.Now()
			rows := make([][]string, 0, len(list))
			for _, s := range list {
				row := []string{s.ID, ui.Ago(now.Sub(s.Updated)), ui.FileSize(s.Bytes), orDash(s.Status)}
				if all {
					row = append(row, ui.ShortHome(s.WorkDir, f.Getenv("HOME")))
				}
				rows = append(rows, append(row, orDash(s.Title)))
			}
			return printTable(f.IO.Out, f.IO.Width, head, rows)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVarP(&all, "all", "a", false, "every directory's sessions")
	cmd.AddCommand(newSessionsShowCmd(f), newSessionsRmCmd(f))
	return cmd
}

func newSessionsRmCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "rm ID...",
		Short:             "Delete saved sessions",
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeSessions(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			st := f.Sessions()
			var failed []string
			for _, id := range args {
				err := st.Remove(cmd.Context(), id)
				switch {
				case errors.Is(err, session.ErrNotFound):
					failed = append(failed, fmt.Sprintf("no session %q", id))
				case errors.Is(err, session.ErrLocked):
					failed = append(failed, fmt.Sprintf("session %s is in use by another llmrt; stop it first", id))
				case err != nil:
					failed = append(failed, err.Error())
				default:
					fmt.Fprintf(f.IO.Out, "Removed session %s\n", id)
				}
			}
			if len(failed) > 0 {
				return withHint(usageErrorf("%s", strings.Join(failed, "; ")), "llmrt sessions --all lists them")
			}
			return nil
		},
	}
}

func newSessionsShowCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show a saved session's conversation",
		Args:  cobra.ExactArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return completeSessions(f)(cmd, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			st := f.Sessions()
			s, err := st.Load(args[0])
			if errors.Is(err, session.ErrNotFound) {
				return withHint(usageErrorf("no session %q", args[0]), "list saved sessions with llmrt sessions")
			}
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(f, s)
			}
			printTranscript(f, s)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func printTranscript(f *Factory, s *session.Session) {
	w := ui.NewTextWriter(f.IO.Out) // the model's words and the tools' output
	fmt.Fprintf(w, "session %s  %s/%s  %s\n", s.Meta.ID, s.Meta.Provider, s.Meta.Model, s.Meta.WorkDir)
	if s.Meta.Parent != "" {
		fmt.Fprintf(w, "branched from %s before turn %d (llmrt rewind)\n", s.Meta.Parent, s.Meta.ParentTurn)
	}
	for _, m := range s.History {
		switch m.Role {
		case providers.RoleTool:
			mark := "✓"
			if m.IsError {
				mark = "✗"
			}
			fmt.Fprintf(w, "\n  %s %s: %s\n", mark, m.ToolName, oneLine(m.Text(), 200))
		default:
			if t := strings.TrimSpace(m.Text()); t != "" {
				fmt.Fprintf(w, "\n%s:\n%s\n", m.Role, t)
			}
			for _, c := range m.ToolCalls {
				if answer, ok := finalAnswerText(c); ok {
					// The answer is what the session was for: all of it.
					fmt.Fprintf(w, "\nanswer:\n%s\n", answer)
					continue
				}
				if arg := ui.KeyArgument(c.Name, c.Arguments); arg != "" {
					fmt.Fprintf(w, "\n→ %s  %s\n", c.Name, oneLine(arg, 200))
				} else {
					fmt.Fprintf(w, "\n→ %s\n", c.Name)
				}
			}
		}
	}
	if s.Last != nil {
		fmt.Fprintf(w, "\n[%s after %d model calls, %d tokens]\n", s.Last.Status, s.Last.Iterations, s.Last.Usage.Total())
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(f.IO.ErrOut, "warning: %s\n", ui.Sanitize(warn))
	}
}

func printJSON(f *Factory, v any) error {
	enc := json.NewEncoder(f.IO.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// finalAnswerText is the answer a final_answer call gave.
func finalAnswerText(c engine.ToolCall) (string, bool) {
	if c.Name != engine.FinalAnswerTool {
		return "", false
	}
	var a struct {
		Answer string `json:"answer"`
	}
	if json.Unmarshal([]byte(c.Arguments), &a) != nil || a.Answer == "" {
		return "", false
	}
	return strings.TrimSpace(a.Answer), true
}
