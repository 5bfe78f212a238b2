package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/ui"
)

// approve asks whether a call may run. A rule allowed for the project is
// saved to the project config before the call runs; if it cannot be
// saved, it still holds for this run and a warning says why.
func (p termPrompts) approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
	r, err := ui.Permit(ctx, p.terminal(), req)
	switch {
	case errors.Is(err, ui.ErrCancelled):
		return engine.Decision{Action: engine.Cancel}, errAborted
	case err != nil:
		return engine.Decision{Action: engine.Cancel}, err
	}
	if r.Project {
		if err := config.AddProjectAllow(p.workDir, r.Decision.Rule); err != nil {
			fmt.Fprintf(p.errOut, "llmrt: warning: the rule %s holds for this run only: %v\n", r.Decision.Rule, err)
		}
	}
	return r.Decision, nil
}
