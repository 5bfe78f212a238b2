package cmd

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/llmrt/llmrt/engine"
)

// checkRules reports permission rules that can never apply to the tools of
// req (a misspelt tool or parameter name): a warning on w, recorded with
// the run's diagnostics, or with --strict an error before anything runs.
func checkRules(ctx context.Context, w io.Writer, sf *sharedFlags, s *settings, rt *engine.Runtime, req engine.Request) error {
	if len(req.Permission.Rules) == 0 {
		return nil
	}
	surface, err := rt.ResolveTools(ctx, req)
	if err != nil {
		return nil // the run itself reports a tool surface that does not resolve
	}
	var found []string
	for _, d := range engine.CheckRules(req.Permission.Rules, surface) {
		found = append(found, d.Source+": "+d.Message)
	}
	if len(found) == 0 {
		return nil
	}
	if sf.strict {
		return usageErrorf("--strict: %s", strings.Join(found, "; "))
	}
	s.diagnostics = append(s.diagnostics, found...)
	if !sf.quiet {
		for _, d := range found {
			fmt.Fprintf(w, "llmrt: warning: %s\n", d)
		}
	}
	return nil
}
