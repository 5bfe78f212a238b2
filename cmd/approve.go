package cmd

import (
	"context"
	"fmt"
	"strings"

	"charm.land/huh/v2"

	"github.com/llmrt/llmrt/engine"
)

// denyWithReason is the form's value for "deny and say why".
const denyWithReason = engine.DecisionAction("deny_reason")

// approve asks whether a call may run.
func (p formPrompts) approve(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
	title := fmt.Sprintf("Allow %s%s?", req.Tool, argSummary(req.Arguments))
	var choice engine.DecisionAction
	field := huh.NewSelect[engine.DecisionAction]().
		Title(title).
		Description(fmt.Sprintf("%s is %s.", req.Tool, req.Kind.Describe())).
		Options(
			huh.NewOption("Allow once", engine.AllowOnce),
			huh.NewOption("Allow always in this run: "+req.Suggested, engine.AllowAlways),
			huh.NewOption("Deny", engine.Deny),
			huh.NewOption("Deny and tell the model why", denyWithReason),
			huh.NewOption("Cancel the run", engine.Cancel),
		).Value(&choice)
	if err := p.form(ctx, field); err != nil {
		return engine.Decision{Action: engine.Cancel}, err
	}
	if choice == denyWithReason {
		var reason string
		if err := p.form(ctx, huh.NewInput().Title("Why? (the model will see this)").Value(&reason)); err != nil {
			return engine.Decision{Action: engine.Cancel}, err
		}
		return engine.Decision{Action: engine.Deny, Reason: strings.TrimSpace(reason)}, nil
	}
	return engine.Decision{Action: choice}, nil
}
