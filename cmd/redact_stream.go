package cmd

import (
	"strings"
	"sync"

	"github.com/llmrt/llmrt/engine"
)

// streamRedactor redacts the text a run streams (text, reasoning and
// answer deltas, tool call arguments) for one consumer that writes events
// (stream-json output, a trace). Redacting each delta on its own lets a
// key streamed a few characters at a time through in pieces that join to
// the whole key, so the redactor holds back the end of a stream that
// could be the start of a secret until the next delta says whether it is
// one; what it holds goes out, redacted, before the next event of the same
// run that is not a delta of that stream, and at the latest with the
// run's terminal event. Streams are told apart by run id, event type and,
// for tool call arguments, the call's index.
//
// A nil *streamRedactor, or one over a nil redactor, passes events on
// untouched. Its methods may be called from any goroutine.
type streamRedactor struct {
	r  *redactor
	mu sync.Mutex
	// held are the streams that held text back since their run's last
	// other event (some may hold none now), in the order they began to;
	// there are rarely more than two at a time.
	held []*heldText
}

// heldText is the held-back end of one stream and the event that brought
// its last piece, the pattern of the event that carries it on.
type heldText struct {
	run   string
	typ   engine.EventType
	index int
	text  string
	last  engine.Event
}

// stream returns a streaming redactor over r's secrets, for one consumer.
func (r *redactor) stream() *streamRedactor { return &streamRedactor{r: r} }

// events hands write what to write for ev, in order: the redacted part
// of a delta that is known not to start a secret (nothing when all of it
// may), or the run's held text followed by ev itself. write is called
// with the redactor locked, so calls for one consumer stay in order; it
// must not call events.
func (s *streamRedactor) events(ev engine.Event, write func(engine.Event)) {
	if s == nil || s.r == nil {
		write(ev)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ev.Type {
	case engine.EventTextDelta, engine.EventReasoningDelta, engine.EventAnswerDelta, engine.EventToolCallDelta:
		s.delta(ev, write)
		return
	}
	s.flush(ev.RunID, write)
	write(ev)
}

// delta adds ev's text to its stream and writes the event carrying what
// can go out now. A tool call's first delta goes out even when all its
// text is held, since it names the call.
func (s *streamRedactor) delta(ev engine.Event, write func(engine.Event)) {
	index := 0
	if ev.Call != nil {
		index = ev.Call.Index
	}
	var h *heldText
	for _, c := range s.held {
		if c.run == ev.RunID && c.typ == ev.Type && c.index == index {
			h = c
			break
		}
	}
	text := ev.Delta
	if h != nil && h.text != "" {
		text = h.text + text
	} else if !s.r.mayStart(text) {
		// The common case: nothing held and nothing to hold.
		ev.Delta = s.r.string(text)
		writeDelta(ev, write)
		return
	}
	cut := s.r.safeCut(text)
	if h == nil {
		h = &heldText{run: ev.RunID, typ: ev.Type, index: index}
		s.held = append(s.held, h)
	}
	// The entry stays, empty, until the run's next other event.
	h.text, h.last = text[cut:], ev
	ev.Delta = s.r.string(text[:cut])
	writeDelta(ev, write)
}

// writeDelta writes ev unless it is a delta with nothing to say.
func writeDelta(ev engine.Event, write func(engine.Event)) {
	if ev.Delta != "" || ev.Call != nil && (ev.Call.ID != "" || ev.Call.Name != "") {
		write(ev)
	}
}

// flush writes the held text of run's streams, redacted, as deltas like
// the ones that brought it, and forgets them.
func (s *streamRedactor) flush(run string, write func(engine.Event)) {
	if len(s.held) == 0 {
		return
	}
	kept := s.held[:0]
	for _, h := range s.held {
		if h.run != run {
			kept = append(kept, h)
			continue
		}
		if h.text == "" {
			continue
		}
		ev := h.last
		ev.Delta = s.r.string(h.text)
		if ev.Call != nil {
			c := *ev.Call
			c.ID, c.Name = "", "" // named by an earlier delta
			ev.Call = &c
		}
		write(ev)
	}
	clear(s.held[len(kept):])
	s.held = kept
}

// mayStart reports whether some suffix of text is the start of a secret,
// so a stream must hold it back. A nil redactor knows no secrets.
func (r *redactor) mayStart(text string) bool {
	if r == nil {
		return false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, v := range r.texts {
		if prefixSuffix(text, v) > 0 {
			return true
		}
	}
	return false
}

// safeCut returns how much of buf can go out now: all of it but the
// longest end that could be the start of a secret, moved past any whole
// secret the cut would split (so the part that goes out is redacted with
// the whole secret in it).
func (r *redactor) safeCut(buf string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	cut := len(buf) - r.heldLen(buf)
	for moved := true; moved; {
		moved = false
		for _, v := range r.texts {
			lo := max(0, cut-len(v)+1)
			if i := strings.Index(buf[lo:], v); i >= 0 && lo+i < cut && lo+i+len(v) > cut {
				cut = lo + i + len(v)
				cut = len(buf) - r.heldLen(buf[cut:])
				moved = true
			}
		}
	}
	return cut
}

// heldLen returns the length of the longest end of buf that is a proper
// start of a secret. r.mu is held.
func (r *redactor) heldLen(buf string) int {
	n := 0
	for _, v := range r.texts {
		n = max(n, prefixSuffix(buf, v))
	}
	return n
}

// prefixSuffix returns the length of the longest end of text that is a
// proper start of v (shorter than v), 0 when none is.
func prefixSuffix(text, v string) int {
	if len(v) < 2 {
		return 0
	}
	from := max(0, len(text)-len(v)+1)
	for i := from; i < len(text); i++ {
		if text[i] != v[0] {
			continue
		}
		if text[i:] == v[:len(text)-i] {
			return len(text) - i
		}
	}
	return 0
}
