package cmd

import (
	"context"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// waitingPermission is a permission request waiting for its line.
type waitingPermission struct {
	reply     chan<- engine.Decision
	suggested string
}

// replies holds the questions and permission requests of the running
// turn that wait for a line of stdin, by call id. Once stdin has ended
// (closed), requests are denied and questions cancelled at once: nobody
// is left to answer.
type replies struct {
	mu     sync.Mutex
	perms  map[string]waitingPermission
	asks   map[string]chan<- engine.QuestionReply
	closed bool
	// stop cancels the running turn, saying why.
	stop context.CancelCauseFunc
}

// unanswered is why a turn whose question nobody can answer ends.
var unanswered = &engine.CancelError{At: "a question whose answer never came: the input ended"}

// turn sets the cancel function of the turn about to run.
func (r *replies) turn(stop context.CancelCauseFunc) {
	r.mu.Lock()
	r.stop = stop
	r.mu.Unlock()
}

// unanswerable cancels the running turn at a question; r.mu is held.
func (r *replies) unanswerable(reply chan<- engine.QuestionReply) {
	if r.stop != nil {
		r.stop(unanswered)
	}
	reply <- engine.QuestionReply{Cancel: true}
}

// noAnswer is the denial of a request made after stdin ended.
var noAnswer = engine.Decision{Action: engine.Deny, Reason: "no one can answer: the input ended"}

// see registers the reply channel of a question or permission request
// event. The engine's reply channels are buffered, so sending on them
// never blocks.
func (r *replies) see(ev engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case ev.Type == engine.EventPermissionRequest && ev.Permission != nil && ev.Permission.Reply != nil && ev.Call != nil:
		if r.closed {
			ev.Permission.Reply <- noAnswer
			return
		}
		r.perms[ev.Call.ID] = waitingPermission{reply: ev.Permission.Reply, suggested: ev.Permission.Suggested}
	case ev.Type == engine.EventQuestion && ev.Question != nil && ev.Question.Reply != nil:
		if r.closed {
			r.unanswerable(ev.Question.Reply)
			return
		}
		r.asks[ev.Question.CallID] = ev.Question.Reply
	}
}

// permission delivers a decision; ok is false when no request waits
// under id.
func (r *replies) permission(id string, d engine.Decision) (suggested string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, ok := r.perms[id]
	if !ok {
		return "", false
	}
	delete(r.perms, id)
	w.reply <- d
	return w.suggested, true
}

// answer delivers an answer; false when no question waits under id.
func (r *replies) answer(id string, a tools.Answer) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	reply, ok := r.asks[id]
	if ok {
		delete(r.asks, id)
		reply <- engine.QuestionReply{Answer: a}
	}
	return ok
}

// close answers everything that waits, and what will, for nobody.
func (r *replies) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for id, w := range r.perms {
		w.reply <- noAnswer
		delete(r.perms, id)
	}
	for id, reply := range r.asks {
		r.unanswerable(reply)
		delete(r.asks, id)
	}
}

// prompts are the user messages read and not yet run, in order.
type prompts struct {
	mu    sync.Mutex
	queue []engine.Message
	ended bool
	// wake is signalled (capacity 1) when a message is added or the
	// input ends.
	wake chan struct{}
}

func (p *prompts) push(m engine.Message) {
	p.mu.Lock()
	p.queue = append(p.queue, m)
	p.mu.Unlock()
	p.signal()
}

func (p *prompts) end() {
	p.mu.Lock()
	p.ended = true
	p.mu.Unlock()
	p.signal()
}

func (p *prompts) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// next returns the next message, waiting for one; false once the input
// ended with none left, or ctx ended.
func (p *prompts) next(ctx context.Context) (engine.Message, bool) {
	for {
		p.mu.Lock()
		if len(p.queue) > 0 {
			m := p.queue[0]
			p.queue = p.queue[1:]
			p.mu.Unlock()
			return m, true
		}
		ended := p.ended
		p.mu.Unlock()
		if ended {
			return engine.Message{}, false
		}
		select {
		case <-p.wake:
		case <-ctx.Done():
			return engine.Message{}, false
		}
	}
}
