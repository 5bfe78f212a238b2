package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/llmrt/llmrt/tools"
)

// Asker puts the questions of an ask_user_input call to a person and
// returns the answer, so the run goes on without pausing. A request with
// no Asker (and AskViaEvents unset) pauses with status tool_calls instead,
// and the host answers by appending a tool message and calling again.
//
// The engine emits a question event first, then calls Ask on the run's
// goroutine; questions are put one at a time, in model order. The answer is
// checked with tools.AskInput.Resolve: one that does not fit the questions
// reaches the model as an error result (it may ask again). An error from
// Ask ends the run cancelled, as QuestionReply.Cancel does.
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

// canAsk reports whether ask_user_input calls are answered inline.
func (r *run) canAsk() bool { return r.req.Asker != nil || r.req.AskViaEvents }

// askUser puts an ask_user_input call to the request's Asker, or to the
// event consumer through the question event's Reply channel, and turns
// the answer into the tool result the model sees. A failed or cancelled
// question cancels the run; an answer that does not fit the questions is
// an error result, so the model may ask again.
func (r *run) askUser(ctx context.Context, p *plan) (tools.Result, error) {
	in, err := tools.ParseAskInput(json.RawMessage(p.call.Arguments))
	if err != nil { // validated already; kept for safety
		return tools.Errorf("invalid ask_user_input arguments: %v", err), nil
	}
	r.answers.asking.Lock()
	defer r.answers.asking.Unlock()
	q := Question{CallID: p.call.ID, Input: in}
	var reply chan QuestionReply
	if r.req.Asker == nil {
		reply = make(chan QuestionReply, 1)
		q.Reply = reply
	}
	r.out.emit(Event{Type: EventQuestion, Call: r.callInfo(p, true), Question: &q})
	var qr QuestionReply
	if r.req.Asker != nil {
		qr.Answer, err = r.req.Asker.Ask(ctx, q)
	} else {
		select {
		case qr = <-reply:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err == nil && qr.Cancel {
		err = errors.New("the user cancelled the question")
	}
	if err != nil {
		r.cancel()
		return tools.Result{}, fmt.Errorf("the question was not answered: %w", err)
	}
	res, err := in.Resolve(qr.Answer)
	if err != nil {
		return tools.Errorf("the answer could not be used (%v); ask again if you still need it", err), nil
	}
	p.answered = make(map[string]bool, len(in.Questions))
	for _, qq := range in.Questions {
		p.answered[qq.ID] = true
	}
	return tools.Text(res.Content()), nil
}

// noteAnswer enters the post-answer state after an inline answer, as a
// run resumed with an answered question starts in it: the next unverified
// finish gets one note, and asking the same question again is refused once.
func (r *run) noteAnswer(p *plan) {
	if p.answered == nil || p.outcome == nil || p.outcome.IsError {
		return
	}
	r.answers.ids, r.answers.noted = p.answered, false
	r.tally.unverify()
}

// answers is a run's state around a person's answers to ask_user_input.
// ids holds the question ids of the latest answer, given before this run
// (the host answered a paused call) or inline: the post-answer state, in
// which one note at most is sent for an unverified finish and asking the
// same question again is refused once; noted reports that this was done.
// Only the loop goroutine touches ids and noted. asking is held while a
// question is put to a person, so the loop and running tools put them one
// at a time.
type answers struct {
	asking sync.Mutex
	ids    map[string]bool
	noted  bool
}

// reasks reports a first attempt, after the user answered, to ask one of
// the same questions again.
func (a *answers) reasks(args map[string]any) bool {
	if a.ids == nil || a.noted {
		return false
	}
	qs, _ := args["questions"].([]any)
	for _, q := range qs {
		if m, ok := q.(map[string]any); ok && a.ids[argString(m["id"])] {
			return true
		}
	}
	return false
}
