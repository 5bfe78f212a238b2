package cmd

import (
	"context"
	"encoding/json"
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
		Description(approvalDescription(req)).
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
		reason = strings.TrimSpace(reason)
		p.echo(fmt.Sprintf("%s: denied (%q)", req.Tool, reason))
		return engine.Decision{Action: engine.Deny, Reason: reason}, nil
	}
	said := map[engine.DecisionAction]string{engine.AllowOnce: "allowed once", engine.AllowAlways: "allowed in this run: " + req.Suggested,
		engine.Deny: "denied", engine.Cancel: "run cancelled"}[choice]
	p.echo(req.Tool + ": " + said)
	return engine.Decision{Action: choice}, nil
}

// approvalDescription says what the call is and shows what it will do in
// full: the whole command of shell_cmd, the path and size of a write, so
// nothing dangerous hides past the edge of the screen.
func approvalDescription(req engine.PermissionRequest) string {
	d := fmt.Sprintf("%s is %s.", req.Tool, req.Kind.Describe())
	var args map[string]any
	if json.Unmarshal([]byte(req.Arguments), &args) != nil {
		return d
	}
	if c, ok := args["command"].(string); ok {
		d += "\n\n$ " + c
		if extra, ok := args["args"].([]any); ok {
			for _, a := range extra {
				d += " " + fmt.Sprint(a)
			}
		}
		if dir, ok := args["directory"].(string); ok && dir != "" {
			d += "\n(in " + dir + ")"
		}
		return d
	}
	if path, ok := args["path"].(string); ok {
		d += "\n\npath: " + path
		if content, ok := args["content"].(string); ok {
			d += fmt.Sprintf(" (%d bytes, %d lines)", len(content), strings.Count(content, "\n")+1)
		}
		if old, ok := args["old_string"].(string); ok {
			d += "\n- " + strings.ReplaceAll(old, "\n", "\n- ")
			if nw, ok := args["new_string"].(string); ok {
				d += "\n+ " + strings.ReplaceAll(nw, "\n", "\n+ ")
			}
		}
	}
	return d
}
