package ui

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// queue carries one turn's events and prompts to the screen. Putting
// never blocks: the engine's emitter must not wait for drawing. The
// screen takes everything queued at once, so a burst of deltas costs one
// update, not one per delta.
type queue struct {
	turn   int
	mu     sync.Mutex
	items  []any // engine.Event, askRequest or permitRequest
	done   bool
	err    error
	status *Status       // the host's facts after the turn, when it tells them
	ready  chan struct{} // signalled, without blocking, when items arrive
}

func newQueue(turn int) *queue { return &queue{turn: turn, ready: make(chan struct{}, 1)} }

func (q *queue) put(item any) {
	q.mu.Lock()
	q.items = append(q.items, item)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

func (q *queue) event(ev engine.Event) { q.put(ev) }

// finish marks the turn over; err is what Host.Turn returned, status
// the host's facts after it (nil: unchanged).
func (q *queue) finish(err error, status *Status) {
	q.mu.Lock()
	q.done, q.err, q.status = true, err, status
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// batchMsg is what was queued since the last one.
type batchMsg struct {
	turn  int
	items []any
}

// turnDoneMsg says a turn is over and everything it queued was delivered.
type turnDoneMsg struct {
	turn   int
	err    error
	status *Status
}

// wait is the command the screen re-arms after each batch: it returns
// the next batch, or turnDoneMsg once the turn is over and drained.
func (q *queue) wait() tea.Msg {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			items := q.items
			q.items = nil
			q.mu.Unlock()
			return batchMsg{turn: q.turn, items: items}
		}
		if q.done {
			q.mu.Unlock()
			return turnDoneMsg{turn: q.turn, err: q.err, status: q.status}
		}
		q.mu.Unlock()
		<-q.ready
	}
}

// askRequest is an ask_user_input call waiting for the person.
type askRequest struct {
	in    tools.AskInput
	reply chan askReply
}

type askReply struct {
	answer tools.Answer
	err    error
}

// permitRequest is a permission request waiting for the person.
type permitRequest struct {
	req   engine.PermissionRequest
	reply chan permitReply
}

type permitReply struct {
	res PermitResult
	err error
}

// Ask puts a question on the screen through the queue and waits.
func (q *queue) Ask(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	r := askRequest{in: in, reply: make(chan askReply, 1)}
	q.put(r)
	select {
	case a := <-r.reply:
		return a.answer, a.err
	case <-ctx.Done():
		return tools.Answer{}, ctx.Err()
	}
}

// Permit puts a permission request on the screen through the queue and
// waits.
func (q *queue) Permit(ctx context.Context, req engine.PermissionRequest) (PermitResult, error) {
	r := permitRequest{req: req, reply: make(chan permitReply, 1)}
	q.put(r)
	select {
	case a := <-r.reply:
		return a.res, a.err
	case <-ctx.Done():
		return PermitResult{}, ctx.Err()
	}
}
