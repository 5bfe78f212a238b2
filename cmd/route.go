package cmd

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/llmrt/llmrt/cmd/config"
)

// route turns what people type at the top level into the command they
// mean, as claude and codex take it: `llmrt "why does it fail?"` and
// `llmrt --model m` open the chat (with the words as its first prompt),
// and `llmrt -p "..."` is llmrt run. A first word that is a command, a
// help or version flag, or anything that is not the shared flags and
// words is left for the command tree to handle. tty says a chat can open;
// without one a lone unknown word stays an unknown command.
func route(root *cobra.Command, args []string, tty bool) []string {
	if len(args) == 0 {
		return args
	}
	var (
		layer      config.Layer
		sess       sessionFlags
		prompt     string
		help, vers bool
	)
	fs := pflag.NewFlagSet("llmrt", pflag.ContinueOnError)
	fs.Usage = func() {}
	config.RegisterFlags(fs, &layer)
	sess.register(fs, "")
	fs.StringVarP(&prompt, "prompt", "p", "", "")
	fs.BoolVarP(&help, "help", "h", false, "")
	fs.BoolVar(&vers, "version", false, "")
	if fs.Parse(args) != nil || help || vers {
		return args
	}
	words := fs.Args()
	if len(words) > 0 {
		if c, _, err := root.Find(words[:1]); err == nil && c != root {
			return args
		}
		if words[0] == "help" || strings.HasPrefix(words[0], "__complete") {
			return args
		}
	}
	switch {
	case fs.Changed("prompt"):
		return append([]string{"run"}, args...)
	case !tty && fs.NFlag() == 0 && len(words) == 1 && !strings.ContainsAny(words[0], " \t"):
		return args
	}
	return append([]string{"chat"}, args...)
}

// unknownCommand refuses words the root command does not know (exit 2),
// suggesting the command meant.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	err := usageErrorf("unknown command %q", args[0])
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		return withHint(err, "did you mean llmrt "+s[0]+"?")
	}
	return withHint(err, `llmrt --help lists the commands; llmrt "a question" opens the chat on a terminal, llmrt run "..." answers in scripts`)
}
