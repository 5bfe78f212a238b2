package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/catalog"
)

// Shell completion of flag values and arguments, beyond the flag names
// cobra completes by itself: providers, modes, formats, tool names and the
// ids of saved sessions.

// fixed completes from a fixed list of values.
func fixed(values ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeShared registers value completion for the shared run flags.
func completeShared(cmd *cobra.Command, f *Factory) {
	reg := func(flag string, fn cobra.CompletionFunc) {
		if cmd.Flags().Lookup(flag) != nil {
			_ = cmd.RegisterFlagCompletionFunc(flag, fn)
		}
	}
	reg("provider", fixed(catalog.Names()...))
	reg("api", fixed(catalog.APIResponses, catalog.APIChat))
	reg("permission", fixed(string(engine.ModeAsk), string(engine.ModeAuto), string(engine.ModeRead), string(engine.ModePlan)))
	reg("reasoning-effort", fixed("none", "low", "medium", "high"))
	reg("web-search", fixed("low", "medium", "high"))
	reg("finish", fixed("evidence", "text"))
	reg("sandbox", fixed("off", "read-only", "workspace-write"))
	reg("output", fixed("text", "json", "stream-json"))
	reg("tools", completeToolList)
	if f != nil {
		reg("resume", completeSessions(f))
	}
}

// completeToolList completes --tools: a preset, or a comma list of
// built-in names, one element at a time.
func completeToolList(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	done := ""
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done = toComplete[:i+1]
	}
	var out []string
	if done == "" {
		out = append(out, "all", "none", "read-only")
	}
	for _, n := range engine.AllBuiltIns() {
		if !strings.Contains(","+done, ","+n+",") {
			out = append(out, done+n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeSessions completes a session id, newest first, with its title.
func completeSessions(f *Factory) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		list, err := f.Sessions().List()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		out := make([]string, 0, len(list))
		for _, s := range list {
			out = append(out, s.ID+"\t"+oneLine(s.Title, 60))
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// completeToolName completes the NAME of `llmrt tools call`.
func completeToolName(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return engine.AllBuiltIns(), cobra.ShellCompDirectiveNoFileComp
}
