package engine

import (
	"encoding/json"

	"github.com/llmrt/llmrt/tools"
)

// Names of the reserved control tools, which every loop run offers and no
// host tool may take.
const (
	FinalAnswerTool = "final_answer"
	BlockedTool     = "blocked"
	// AskUserTool is the host-owned question tool.
	AskUserTool = tools.AskUserName
)

func isControl(name string) bool { return name == FinalAnswerTool || name == BlockedTool }

// controlTools are always added to a Complete or Stream run. They have no
// executor: the loop interprets them.
var controlTools = []tools.Tool{
	{
		Name:        FinalAnswerTool,
		Description: "Finish the task and give the user the final answer. Call it alone, once the work is done.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"answer":{"type":"string","description":"The complete answer for the user, in Markdown"},` +
			`"evidenceRefs":{"type":"array","items":{"type":"string"},"description":"Optional references (files, tool results) backing the answer"}},` +
			`"required":["answer"],"additionalProperties":false}`),
		Kind:   tools.KindNone,
		Source: tools.SourceControl,
	},
	{
		Name:        BlockedTool,
		Description: "Stop because the task cannot be completed; explain what blocks it. Call it alone.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"reason":{"type":"string","description":"What blocks the task and what would unblock it"}},` +
			`"required":["reason"],"additionalProperties":false}`),
		Kind:   tools.KindNone,
		Source: tools.SourceControl,
	},
}

// planNote is the part of the system prompt of a run in plan mode.
const planNote = "## Planning mode\n" +
	"You are in planning mode: investigate with read tools and change nothing. Writing tools are refused, and commands, where they run, run read-only. " +
	"Finish with final_answer, whose answer is the plan in Markdown: the steps, the files to change and how, and the risks. " +
	"The user will approve or edit the plan before anything is carried out."

// planAnswerDescription is final_answer's description in plan mode.
const planAnswerDescription = "Finish planning and give the user the plan in Markdown: the steps, the files to change and how, and the risks. " +
	"Call it alone, once you have investigated enough to plan; nothing is changed until the user approves the plan."

// planning describes final_answer of a surface as the plan a run in plan
// mode ends with.
func (ts *toolset) planning() {
	i, ok := ts.index[FinalAnswerTool]
	if !ok {
		return
	}
	ts.list[i].Description = planAnswerDescription
	ts.specs[i] = ts.list[i].Spec()
}
