package cmd

import (
	"fmt"
	"io"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/engine/trace"
)

// recorder is where a run is recorded: the session file (unless the run
// is not saved) and the --trace file. Its methods are safe on a nil
// recorder's absent writers and from the run's goroutines.
type recorder struct {
	id     string // the session id; empty when the run is not saved
	w      *session.Writer
	tr     *trace.Writer
	errOut io.Writer

	mu     sync.Mutex
	warned bool
	// broken reports a failed session write: the session on disk lacks
	// part of the run, so it must not be offered for resuming.
	broken bool
	// held are host messages (answers to a paused run) kept back until
	// the run adds to the conversation: a resumed run that fails before
	// the model replies leaves the session paused, its questions pending.
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
		fmt.Fprintf(r.errOut, "llmrt: session %s is left as it was, its questions still pending: run the same --resume command again once the problem is fixed\n", r.id)
		return
	case holding:
		return
	}
	r.checkSession(r.w.WriteEvent(ev))
}

// add persists messages the host appends (prompts).
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

// resumable returns the session id when the whole run is on disk, and ""
// when the run is not saved or a write failed.
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
	if err != nil {
		r.warn(fmt.Sprintf("cannot record the run: %v", err))
	}
}

func (r *recorder) warn(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.warned {
		r.warned = true
		fmt.Fprintf(r.errOut, "llmrt: warning: %s\n", msg)
	}
}

func (r *recorder) close() {
	if r.w != nil {
		r.check(r.w.Close())
	}
	if r.tr != nil {
		r.check(r.tr.Close())
	}
}
