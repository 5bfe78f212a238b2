package host

import (
	"fmt"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/engine/trace"
)

// recorder is where a conversation is recorded: the session file (unless
// it is not saved) and the trace. Its methods are safe from the run's
// goroutines and on absent writers.
type recorder struct {
	id string // the session id; empty when the conversation is not saved
	w  *session.Writer
	tr *trace.Writer

	mu     sync.Mutex
	warned bool
	// notes are what the records have to say, waiting for the turn's
	// sink to take them.
	notes []string
	// broken reports a failed session write: the session on disk lacks
	// part of the conversation, so it must not be offered for resuming.
	broken bool
	// held are answers to a paused run kept back until the run adds to
	// the conversation: a resumed run that fails before the model replies
	// leaves the session paused, its questions pending.
	held    []engine.Message
	holding bool
	// heldEvents are events worth keeping that came while holding: a
	// compaction before the run's first reply is written after the held
	// answers, which the compacted conversation already holds.
	heldEvents []engine.Event
}

// event persists one event.
func (r *recorder) event(ev engine.Event) {
	if r.tr != nil {
		r.check(r.tr.Write(ev))
	}
	if r.w == nil {
		return
	}
	r.mu.Lock()
	holding := r.holding && ev.ParentID == ""
	if holding && ev.Type == engine.EventAssistantMessage {
		held, events := r.held, r.heldEvents
		r.held, r.heldEvents, r.holding, holding = nil, nil, false, false
		r.mu.Unlock()
		r.add(held...)
		for _, e := range events {
			r.check(r.w.WriteEvent(e))
		}
	} else {
		if holding && ev.Compacted != nil {
			r.heldEvents = append(r.heldEvents, ev)
		}
		r.mu.Unlock()
	}
	switch {
	case holding && ev.Type.Terminal():
		r.note(fmt.Sprintf("session %s is left as it was, its questions still pending: resume it again once the problem is fixed", r.id))
		return
	case holding:
		return
	}
	r.checkSession(r.w.WriteEvent(ev))
}

// add persists messages the host appends (prompts, answers).
func (r *recorder) add(msgs ...engine.Message) {
	if r.w == nil {
		return
	}
	for _, m := range msgs {
		r.checkSession(r.w.WriteMessage(m))
	}
}

// hold keeps answers back until the run makes progress; see held.
func (r *recorder) hold(msgs ...engine.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.held = append(r.held, msgs...)
	r.holding = len(r.held) > 0
}

// checkSession is check for a session write, which also marks the session
// broken.
func (r *recorder) checkSession(err error) {
	if err != nil {
		r.mu.Lock()
		r.broken = true
		r.mu.Unlock()
	}
	r.check(err)
}

// resumable returns the session id when the whole conversation is on
// disk, and "" when it is not saved or a write failed.
func (r *recorder) resumable() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.broken {
		return ""
	}
	return r.id
}

// check reports the first write failure; the run goes on, since losing
// the record is better than losing the work.
func (r *recorder) check(err error) {
	if err == nil {
		return
	}
	r.mu.Lock()
	first := !r.warned
	r.warned = true
	r.mu.Unlock()
	if first {
		r.note(fmt.Sprintf("cannot record the run: %v", err))
	}
}

// note queues a note for the turn's sink.
func (r *recorder) note(msg string) {
	r.mu.Lock()
	r.notes = append(r.notes, msg)
	r.mu.Unlock()
}

// takeNotes returns the queued notes and forgets them.
func (r *recorder) takeNotes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.notes
	r.notes = nil
	return n
}

func (r *recorder) close() {
	if r.w != nil {
		r.check(r.w.Close())
	}
	if r.tr != nil {
		r.check(r.tr.Close())
	}
}
