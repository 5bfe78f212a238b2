package engine

import (
	"context"

	"github.com/llmrt/llmrt/tools"
)

// Asker puts the questions of an ask_user_input call to a person and
// returns the answer, so the run goes on without pausing. A request with
// no Asker (and AskViaEvents unset) pauses with status tool_calls instead,
// and the host answers by appending a tool message and calling again.
type Asker interface {
	Ask(ctx context.Context, q Question) (tools.Answer, error)
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, q Question) (tools.Answer, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, q Question) (tools.Answer, error) { return f(ctx, q) }

// Question is one ask_user_input call put to a person.
type Question struct {
	// CallID is the id of the ask_user_input call.
	CallID string `json:"call_id"`
	// Input is the validated payload: the questions and their options.
	Input tools.AskInput `json:"input"`
	// Reply receives the answer when Request.AskViaEvents is set; it is
	// buffered, so sending never blocks.
	Reply chan<- QuestionReply `json:"-"`
}

// QuestionReply answers a Question sent through an event.
type QuestionReply struct {
	Answer tools.Answer
	// Cancel ends the run as cancelled instead of answering.
	Cancel bool
}
