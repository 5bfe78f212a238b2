package acpbridge

import (
	acp "github.com/coder/acp-go-sdk"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// The option ids of a permission request, one for each of llmrt's
// choices.
const (
	OptionAllowOnce   = "allow_once"
	OptionAllowAlways = "allow_always"
	OptionDeny        = "deny"
)

// PermissionOptions are the choices a permission request offers: allow
// once, allow always (for the rest of the session), deny.
func PermissionOptions() []acp.PermissionOption {
	return []acp.PermissionOption{
		{OptionId: OptionAllowOnce, Name: "Allow once", Kind: acp.PermissionOptionKindAllowOnce},
		{OptionId: OptionAllowAlways, Name: "Allow always (this session)", Kind: acp.PermissionOptionKindAllowAlways},
		{OptionId: OptionDeny, Name: "Deny", Kind: acp.PermissionOptionKindRejectOnce},
	}
}

// PermissionCall is the tool call a permission request is about.
func PermissionCall(root, callID string, req engine.PermissionRequest) acp.ToolCallUpdate {
	title := Title(req.Tool, req.Arguments)
	kind := Kind(req.Tool, req.Kind)
	status := acp.ToolCallStatusPending
	u := acp.ToolCallUpdate{ToolCallId: acp.ToolCallId(callID), Title: &title, Kind: &kind, Status: &status,
		Locations: Locations(root, req.Arguments), RawInput: rawJSON(req.Arguments)}
	if d := Proposed(root, req.Tool, req.Arguments); d != nil {
		u.Content = d
	}
	return u
}

// Decision is llmrt's decision for a client's answer. A cancelled request
// (the prompt turn was cancelled) and an unknown option cancel: a client
// that sends what was not offered is not taken to allow anything.
func Decision(out acp.RequestPermissionOutcome) engine.Decision {
	if out.Selected == nil {
		return engine.Decision{Action: engine.Cancel}
	}
	switch out.Selected.OptionId {
	case OptionAllowOnce:
		return engine.Decision{Action: engine.AllowOnce}
	case OptionAllowAlways:
		return engine.Decision{Action: engine.AllowAlways}
	case OptionDeny:
		return engine.Decision{Action: engine.Deny, Reason: "the user denied this call in the editor"}
	}
	return engine.Decision{Action: engine.Cancel}
}

// skipOption is the option id of a question's "skip".
const skipOption = "\x00skip"

// QuestionOptions are a question of ask_user_input as permission-style
// options: one per choice, and a skip when the input allows it.
func QuestionOptions(in tools.AskInput, q tools.Question) []acp.PermissionOption {
	var out []acp.PermissionOption
	for _, c := range q.Options {
		name := c.Label
		if c.Description != "" {
			name += " — " + c.Description
		}
		out = append(out, acp.PermissionOption{OptionId: acp.PermissionOptionId(c.ID), Name: name, Kind: acp.PermissionOptionKindAllowOnce})
	}
	if in.AllowSkip {
		out = append(out, acp.PermissionOption{OptionId: skipOption, Name: "Skip", Kind: acp.PermissionOptionKindRejectOnce})
	}
	return out
}

// QuestionCall is the tool call a question is shown as.
func QuestionCall(callID string, q tools.Question) acp.ToolCallUpdate {
	title := q.Question
	if q.Header != "" {
		title = q.Header + ": " + q.Question
	}
	kind := acp.ToolKindThink
	status := acp.ToolCallStatusPending
	return acp.ToolCallUpdate{ToolCallId: acp.ToolCallId(callID + "/" + q.ID), Title: &title, Kind: &kind, Status: &status}
}

// Choice is the option a client picked for a question; skip says the
// person skipped, ok false that the request was cancelled or the option
// is not one offered.
func Choice(q tools.Question, out acp.RequestPermissionOutcome) (id string, skip, ok bool) {
	if out.Selected == nil {
		return "", false, false
	}
	picked := string(out.Selected.OptionId)
	if picked == skipOption {
		return "", true, true
	}
	for _, c := range q.Options {
		if c.ID == picked {
			return picked, false, true
		}
	}
	return "", false, false
}
