package engine

import (
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// The evidence rule of host actions (docs/design.md, "Finishing"): when
// a request exposes host tools that change things (Request.Tools of kind
// write or external_action), a run under FinishEvidence finishes, by
// final_answer or by text, only once one of them has succeeded in this
// run. A premature finish is refused and the next call carries a note
// naming those tools. The rule is bounded like the loop's other rules: the
// third finishing attempt, or one repeating the refused finish, is
// accepted, with an unconfirmed_finish warning. A spawn_agent sub-run is
// exempt: its actions count for its parent, which the rule holds to them.

// WarningUnconfirmedFinish is the code of the warning of a run that
// finished although none of the host actions it exposes succeeded: the
// evidence rule had refused a finish before and then let one through.
const WarningUnconfirmedFinish = "unconfirmed_finish"

// OutcomeNoEvidence is the code of a final_answer result refused because
// none of the request's host actions has succeeded yet.
const OutcomeNoEvidence = "no_evidence"

// maxRefusedFinishes is how many finishes a run refuses for want of a
// host action before it accepts one.
const maxRefusedFinishes = 2

// hostActions returns the names of the host tools among own that change
// things: the tools whose success the evidence rule asks for. A host's
// own ask_user_input asks; it does not act.
func hostActions(own []tools.Tool) []string {
	var names []string
	for _, t := range own {
		if t.Source != tools.SourceBuiltin && t.Kind.Mutating() && t.Name != AskUserTool {
			names = append(names, t.Name)
		}
	}
	return names
}

// finishProven decides a finishing attempt (a final_answer's answer or a
// text reply) under the evidence rule of host actions. It reports whether
// the run may end on it; when it may not, the next call gets the note.
func (r *run) finishProven(text string) bool {
	actions := r.tools.actions
	if r.req.Finish != FinishEvidence || len(actions) == 0 || r.delegate || r.tally.acted() {
		return true
	}
	t := strings.TrimSpace(text)
	g := &r.guard
	if g.refusedFinishes >= maxRefusedFinishes || g.refusedFinishes > 0 && t == g.refusedFinish {
		r.warn(WarningUnconfirmedFinish, fmt.Sprintf("the run finished although none of %s succeeded in it", strings.Join(actions, ", ")))
		return true
	}
	g.refusedFinishes++
	g.refusedFinish = t
	g.note = noteNoAction(actions)
	return false
}

// noteNoAction is the recovery note after a refused finish.
func noteNoAction(actions []string) string {
	return fmt.Sprintf("You tried to finish, but none of the tools that carry out this task (%s) has succeeded in this run, so the work is not done. "+
		"Make the calls it needs, then finish with final_answer; if you cannot, call blocked and say why.", strings.Join(actions, ", "))
}

// refusedAnswer is the result of a final_answer the rule refused.
func refusedAnswer(actions []string) ToolOutcome {
	return ToolOutcome{IsError: true, Code: OutcomeNoEvidence,
		Content: fmt.Sprintf("not accepted: none of %s has succeeded in this run yet", strings.Join(actions, ", "))}
}

// adoptAnsweredActions counts as this run's evidence the successful
// results of host actions the host appended after the last assistant
// message: the answers to the host-owned calls a paused run handed over,
// which are the same task's work.
func (r *run) adoptAnsweredActions() {
	if len(r.tools.actions) == 0 {
		return
	}
	msgs := r.conv.msgs
	last := len(msgs) - 1
	for last >= 0 && msgs[last].Role == providers.RoleTool {
		last--
	}
	if last < 0 || msgs[last].Role != providers.RoleAssistant {
		return
	}
	names := make(map[string]string, len(msgs[last].ToolCalls))
	for _, c := range msgs[last].ToolCalls {
		names[c.ID] = c.Name
	}
	for _, m := range msgs[last+1:] {
		if !m.IsError && r.tools.isAction(names[m.ToolCallID]) {
			r.tally.prove(tools.KindExternalAction, true)
		}
	}
}

// noteEvidence records what a successful result proves: a mutating result
// lets a text reply end a run under FinishEvidence.
// A result whose action failed (a command that exited non-zero) proves
// nothing: the model sees it, but narration after it is not completion.
// A host action the permission policy or a person refused settles the
// evidence rule of host actions: the model can do no more about it.
func (r *run) noteEvidence(p *plan) {
	if p.tool == nil || p.outcome == nil {
		return
	}
	if p.outcome.Code == OutcomePermissionDenied && r.tools.isAction(p.tool.Name) {
		r.tally.settleActions()
	}
	if p.outcome.IsError || p.outcome.Code != "" || p.failed {
		return
	}
	switch p.tool.Kind {
	case tools.KindNone, tools.KindInteraction:
		return
	}
	r.tally.prove(p.tool.Kind, r.tools.isAction(p.tool.Name))
}
