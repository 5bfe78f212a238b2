package cmd

import (
	"context"
	"fmt"
	"strings"

	"charm.land/huh/v2"

	"github.com/llmrt/llmrt/engine"
)

// approver returns the Approver for a run: a select list on the terminal,
// or nil when no person is there (the engine then denies undecided calls
// and names the rule that would allow them).
func (opts *runOptions) approver(s *settings) engine.Approver {
	if !opts.f.IO.Interactive() || s.permission.Mode != engine.ModeAsk {
		return nil
	}
	return engine.ApproverFunc(opts.approve)
}

func (opts *runOptions) approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
	title := fmt.Sprintf("Allow %s%s?", req.Tool, argSummary(req.Arguments))
	var choice engine.DecisionAction
	field := huh.NewSelect[engine.DecisionAction]().
		Title(title).
		Description(fmt.Sprintf("%s is %s.", req.Tool, req.Kind.Describe())).
		Options(
			huh.NewOption("Allow once", engine.AllowOnce),
			huh.NewOption("Allow always in this run: "+req.Suggested, engine.AllowAlways),
			huh.NewOption("Deny", engine.Deny),
			huh.NewOption("Deny and tell the model why", engine.DecisionAction("deny_reason")),
			huh.NewOption("Cancel the run", engine.Cancel),
		).Value(&choice)
	if err := opts.runForm(ctx, field); err != nil {
		return engine.Decision{Action: engine.Cancel}, nil
	}
	if choice == "deny_reason" {
		var reason string
		if err := opts.runForm(ctx, huh.NewInput().Title("Why? (the model will see this)").Value(&reason)); err != nil {
			return engine.Decision{Action: engine.Cancel}, nil
		}
		return engine.Decision{Action: engine.Deny, Reason: strings.TrimSpace(reason)}, nil
	}
	return engine.Decision{Action: choice}, nil
}
