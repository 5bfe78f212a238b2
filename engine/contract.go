package engine

import "strings"

// contract is the managed block of instructions every loop call carries
// (the loop contract of docs/design.md). It is recomputed per call and
// never stored in Messages.
func contract(canAsk bool) string {
	var b strings.Builder
	b.WriteString("## How to work\n")
	b.WriteString("- Keep working until the task is done, you are blocked, or you need the user. Saying what you will do is not doing it: act through tools.\n")
	b.WriteString("- Inspect with tools instead of guessing about files, commands or state.\n")
	if canAsk {
		b.WriteString("- Ask the user (ask_user_input) only for what you cannot find out safely yourself.\n")
	}
	b.WriteString("- When several tool calls do not depend on each other, make them in one reply.\n")
	b.WriteString("- Finish by calling final_answer with the complete answer for the user, or blocked with what stops you. Either must be the only tool call in its reply.")
	return b.String()
}

// Recovery notes (docs/design.md, "Recovery notes"): sent once, as
// transient system text on the next call only.
const (
	noteViolation  = "Your last reply combined final_answer or blocked with other tool calls, so none of them ran. Make the other calls first; call final_answer or blocked alone in a later reply."
	noteEmpty      = "Your last reply was empty. Continue the task: call a tool, or finish with final_answer or blocked."
	noteRepeat     = "You repeated a tool call you had already made with the same arguments, so it was not run again. Use the earlier result, try something different, or finish with final_answer or blocked."
	noteNarration  = "Your last reply was text without a tool call, so the task is not finished. If you are done, call final_answer with the complete answer. If you meant to act, make the tool calls now. If you cannot go on, call blocked."
	notePostAnswer = "The user has answered your question; the answer is in the tool result above. Act on it now without asking again, then finish with final_answer."
	noteTruncated  = "Your last reply was cut off by the output token limit. Continue in smaller steps: make tool calls without long preambles, and split large content across several calls."
	// noteTruncatedCall follows a reply cut inside a tool call's arguments.
	noteTruncatedCall = "Your last reply was cut off by the output token limit in the middle of a tool call's arguments, so none of its calls ran. Make the call again with smaller arguments: split large content across several calls (write a first part, then add the rest with edits)."
)
