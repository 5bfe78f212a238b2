package cmd

import (
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
	// do; elsewhere it prints the help.
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 || !f.IO.InTTY || !f.IO.OutTTY {
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
		newMCPCmd(f),
		newTrustCmd(f),
		newSessionsCmd(f),
		newVersionCmd(f),
	)
	return root
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
