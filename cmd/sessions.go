package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/ui"
)

func newSessionsCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List saved sessions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st := f.Sessions()
			list, err := st.List()
			if err != nil {
				return err
			}
			if asJSON {
				if list == nil {
					list = []session.Summary{}
				}
				return printJSON(f, list)
			}
			if len(list) == 0 {
				fmt.Fprintf(f.IO.ErrOut, "no saved sessions in %s\n", st.Dir)
				return nil
			}
			rows := make([][]string, 0, len(list))
			for _, s := range list {
				rows = append(rows, []string{s.ID, s.Updated.Local().Format("01-02 15:04"), orDash(string(s.Status)),
					oneLine(s.Provider+"/"+s.Model, 18), s.Title})
			}
			return printTable(f.IO.Out, f.IO.Width, []string{"ID", "UPDATED", "STATUS", "MODEL", "TITLE"}, rows)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(newSessionsShowCmd(f))
	return cmd
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
