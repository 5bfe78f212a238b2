package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

func newRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "llmrt",
		Short: "An LLM agent runtime and terminal agent",
		Long: `llmrt runs LLM agents: a bounded model/tool loop with workspace tools,
permissions and structured questions, on OpenAI, Anthropic, Google, Azure,
xAI, OpenAI-compatible servers, Ollama, or an offline scripted provider.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version(),
	}
	root.SetFlagErrorFunc(flagErrorFunc)
	// Declared here so cobra does not add its -v shorthand: -v is no
	// shorthand anywhere (--verbose and --version are spelled out).
	root.Flags().Bool("version", false, "print the llmrt version")
	chat := newChatCmd(f, nil)
	// llmrt alone opens the chat on a terminal, as claude, codex and crush
	// do; elsewhere it prints the help. Words and shared flags at the top
	// level were routed to chat or run already (route).
	root.Args = unknownCommand
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if !f.IO.InTTY || !f.IO.OutTTY {
			return cmd.Help()
		}
		if err := chat.ParseFlags(nil); err != nil {
			return err
		}
		chat.SetContext(cmd.Context())
		return chat.RunE(chat, nil)
	}
	root.AddCommand(
		chat,
		newRunCmd(f, nil),
		newToolsCmd(f, nil),
		newSkillsCmd(f, nil),
		newCommandsCmd(f, nil),
		newAgentsCmd(f, nil),
		newMCPCmd(f),
		newACPCmd(f, nil),
		newTrustCmd(f),
		newSessionsCmd(f),
		newRewindCmd(f),
		newVersionCmd(f),
	)
	usageErrors(root)
	return root
}

// usageErrors makes every argument error of the tree a usage error (exit
// 2, naming the command's help), and a command that only groups others
// (llmrt mcp) refuse a subcommand it does not have instead of printing
// its help and succeeding.
func usageErrors(c *cobra.Command) {
	for _, sub := range c.Commands() {
		usageErrors(sub)
	}
	if c.HasParent() && !c.Runnable() && c.HasSubCommands() {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return withHint(usageErrorf("unknown command %q for %q", args[0], cmd.CommandPath()), cmd.CommandPath()+" --help lists them")
			}
			return cmd.Help()
		}
	}
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			err := check(cmd, args)
			var ee *exitError
			if err == nil || errors.As(err, &ee) {
				return err
			}
			return withHint(usageErrorf("%s: %v", cmd.CommandPath(), err), "see "+cmd.CommandPath()+" --help")
		}
	}
}

func newVersionCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the llmrt version, commit and build date",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(f.IO.Out, versionText())
			return err
		},
	}
}
