package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// NoteCode is the code of a warning event the host sends to say
// something that is not a warning (an MCP server starting): the screen
// shows it as information.
const NoteCode = "note"

// runView is what the screen keeps of one run of a turn (the turn's own
// run, or a sub-run it started): the live items of its current model
// call, so a restarted stream can take them back.
type runView struct {
	depth  int
	parent *toolItem // a sub-run's spawn_agent call
	think  *thinkItem
	text   *textItem // text the model writes beside its calls, or as its answer
	answer *textItem // the answer of final_answer, streamed
	items  []item    // everything the current model call added
	shown  bool      // the run showed text the person can read
	// said is the latest text reply the run showed, trimmed; written is
	// the text of the current model call so far. A text or answer that
	// repeats what was said (a model answering in text, then again
	// through final_answer) is kept back in echo while it does, and shown
	// only if it turns out to differ.
	said    string
	written strings.Builder
	echo    [2]strings.Builder // text, answer
}

// apply puts one event of the running turn on the screen, its text
// cleaned of control sequences first.
func (m *Model) apply(ev engine.Event) {
	ev = m.clean.event(ev)
	rv := m.runs[ev.RunID]
	if rv == nil {
		rv = &runView{}
		if p := m.runs[ev.ParentID]; ev.ParentID != "" && p != nil {
			rv.depth = p.depth + 1
		}
		if ev.Type == engine.EventRunStart && ev.Call != nil {
			if call := m.calls[ev.Call.ID]; call != nil {
				rv.parent, rv.depth = call, call.depth+1
			}
		}
		m.runs[ev.RunID] = rv
	}
	top := ev.ParentID == ""
	if rv.think != nil && ev.Type != engine.EventReasoningDelta {
		rv.think.finish(ev.Time) // the model moved on from its reasoning
	}
	switch ev.Type {
	case engine.EventModelStart:
		rv.newCall()
		if top {
			m.state = "thinking"
		}
	case engine.EventReasoningDelta:
		if top {
			if rv.think == nil {
				rv.think = &thinkItem{}
				m.addLive(rv, rv.think)
			}
			rv.think.add(ev.Delta, ev.Time)
		}
	case engine.EventTextDelta, engine.EventAnswerDelta:
		if top {
			m.streamText(rv, ev)
		}
	case engine.EventAssistantMessage:
		if top {
			m.settleEchoes(rv)
			if ev.Message != nil && strings.TrimSpace(ev.Message.Text()) != "" {
				rv.said = strings.TrimSpace(ev.Message.Text())
			}
		}
		for _, t := range []*textItem{rv.text, rv.answer} {
			if t != nil {
				t.finish()
			}
		}
	case engine.EventToolStart:
		m.toolStarted(rv, ev)
	case engine.EventToolProgress:
		if t := m.calls[ev.Call.ID]; t != nil && ev.Progress != nil {
			t.note = progressNote(ev)
		}
	case engine.EventPermissionRequest:
		// A call is asked about before it starts: its line shows it
		// waiting, and it starts on the same line once allowed.
		if t := m.calls[ev.Call.ID]; t != nil {
			t.state = toolWaiting
		} else if ev.Call != nil {
			m.toolStarted(rv, ev)
			m.calls[ev.Call.ID].state = toolWaiting
		}
	case engine.EventToolResult, engine.EventToolError:
		if ev.Call != nil && m.calls[ev.Call.ID] == nil {
			// Refused before it started (a deny rule, a hook, a repeat):
			// it gets its line all the same.
			m.toolStarted(rv, ev)
		}
		m.toolEnded(ev)
	case engine.EventUsage:
		if top && ev.Usage != nil {
			m.runUsage = *ev.Usage
		}
	case engine.EventWarning:
		m.warning(rv, ev)
	default:
		if ev.Type.Terminal() && top {
			m.ended(rv, ev)
		}
	}
}

// addLive adds an item of the current model call.
func (m *Model) addLive(rv *runView, it item) {
	rv.items = append(rv.items, it)
	m.tr.add(it)
}

func (m *Model) streamText(rv *runView, ev engine.Event) {
	m.state = "writing"
	slot, k, basis := &rv.text, 0, rv.said
	if ev.Type == engine.EventAnswerDelta {
		slot, k = &rv.answer, 1
		if w := strings.TrimSpace(rv.written.String()); w != "" {
			basis = w // the answer repeats the text of its own reply
		}
	} else {
		rv.written.WriteString(ev.Delta)
	}
	d := ev.Delta
	if *slot == nil {
		echo := &rv.echo[k]
		echo.WriteString(d)
		if basis != "" && strings.HasPrefix(basis, strings.TrimSpace(echo.String())) {
			return
		}
		d = echo.String()
		echo.Reset()
		*slot = &textItem{}
		m.addLive(rv, *slot)
	}
	(*slot).add(d)
	rv.shown = true
}

// newCall forgets the live items of the run's previous model call (or of
// a call whose stream restarts).
func (rv *runView) newCall() {
	rv.think, rv.text, rv.answer, rv.items = nil, nil, nil, nil
	rv.written.Reset()
	rv.echo[0].Reset()
	rv.echo[1].Reset()
}

// settleEchoes decides, at the end of a model call, the text it kept back
// as a possible repeat: a repeat is dropped, anything else is shown.
func (m *Model) settleEchoes(rv *runView) {
	for k, slot := range []**textItem{&rv.text, &rv.answer} {
		echo := &rv.echo[k]
		kept := echo.String()
		echo.Reset()
		t := strings.TrimSpace(kept)
		if t == "" || t == rv.said || k == 1 && t == strings.TrimSpace(rv.written.String()) {
			continue
		}
		*slot = &textItem{}
		m.addLive(rv, *slot)
		(*slot).add(kept)
		rv.shown = true
	}
}

func (m *Model) toolStarted(rv *runView, ev engine.Event) {
	c := ev.Call
	if c == nil || quietTool(c.Name) {
		return
	}
	if t := m.calls[c.ID]; t != nil {
		// Asked about and now allowed: it runs from here.
		t.state, t.start = toolRunning, ev.Time
		t.version++
		return
	}
	t := &toolItem{id: c.ID, name: c.Name, args: c.Arguments, depth: rv.depth, start: ev.Time, parent: rv.parent}
	if p := m.calls[c.ParentID]; c.ParentID != "" && p != nil {
		t.parent = p
	}
	m.calls[c.ID] = t
	if t.parent == nil {
		m.addLive(rv, t)
		return
	}
	t.depth = t.parent.depth + 1
	rv.items = append(rv.items, t)
	m.nest(t)
}

// nest puts a call made under another (by a run_code program, or in a
// sub-run) after the lines already under that call, so concurrent calls'
// activity stays under each caller.
func (m *Model) nest(t *toolItem) {
	after := item(t.parent)
	if t.parent.last != nil {
		after = t.parent.last
	}
	m.tr.insertAfter(after, t)
	for p := t.parent; p != nil; p = p.parent {
		p.last = t
	}
}

func (m *Model) toolEnded(ev engine.Event) {
	t := m.calls[ev.Call.ID]
	if t == nil || ev.Outcome == nil {
		return
	}
	t.took = ev.Time.Sub(t.start)
	t.result = ev.Outcome.Content
	t.state, t.note = outcome(ev)
	t.version++
}

func (m *Model) warning(rv *runView, ev engine.Event) {
	w := ev.Warning
	if w == nil {
		return
	}
	switch w.Code {
	case engine.WarningStreamRestarted:
		// The call's partial output is void: the call starts again.
		m.removeItems(rv.items)
		rv.newCall()
		return
	case engine.WarningContextCompacted, NoteCode:
		m.tr.add(&noteItem{text: w.Message})
		return
	}
	if w.Code == engine.WarningDiagnostic {
		// Every turn starts by repeating the session's diagnostics.
		if m.diagnosed[w.Message] {
			return
		}
		m.diagnosed[w.Message] = true
	}
	text := w.Message
	if ev.ParentID != "" {
		text = "sub-agent: " + text
	}
	m.tr.add(&noteItem{kind: noteWarn, text: text})
}

// ended closes the turn's run on its terminal event.
func (m *Model) ended(rv *runView, ev engine.Event) {
	m.cancelCalls()
	res := ev.Result
	if res == nil {
		return
	}
	m.status.Usage = m.status.Usage.Add(res.Usage)
	m.runUsage = engine.Usage{}
	switch ev.Type {
	case engine.EventCompleted:
		if !rv.shown && strings.TrimSpace(res.Output) != "" {
			m.addText(res.Output)
		}
		if m.status.Permission == planMode && strings.TrimSpace(res.Output) != "" {
			m.planned = res.Output
		}
		m.tr.add(&footerItem{text: m.answerFooter(res, ev.Time)})
	case engine.EventFailed:
		msg := "the run failed"
		if res.Error != nil {
			msg = res.Error.Message
		}
		m.tr.add(&noteItem{kind: noteError, text: msg})
	case engine.EventCancelled:
		m.tr.add(&noteItem{text: "cancelled: the turn was stopped; what it did so far is kept"})
	case engine.EventToolCalls:
		m.tr.add(&noteItem{kind: noteWarn, text: "the run is waiting for a host-owned tool this screen cannot run"})
	}
}

// answerFooter sums up an answered turn under it: the model, how long the
// turn took (when it took a second or more), its tokens.
func (m *Model) answerFooter(res *engine.Result, at time.Time) string {
	parts := []string{m.status.Model}
	if !m.since.IsZero() && at.Sub(m.since) >= time.Second {
		parts = append(parts, Took(at.Sub(m.since)))
	}
	if u := res.Usage; u.InputTokens+u.OutputTokens > 0 {
		parts = append(parts, tokens(u.InputTokens)+" in · "+tokens(u.OutputTokens)+" out")
	}
	return strings.Join(parts, " · ")
}

// cancelCalls marks the calls still running or waiting as cancelled: the
// turn ended without them.
func (m *Model) cancelCalls() {
	for _, t := range m.calls {
		if t.state == toolRunning || t.state == toolWaiting {
			t.state = toolCancelled
			t.version++
		}
	}
}

// removeItems takes items off the transcript.
func (m *Model) removeItems(gone []item) {
	if len(gone) == 0 {
		return
	}
	drop := make(map[item]bool, len(gone))
	for _, it := range gone {
		drop[it] = true
	}
	kept := m.tr.items[:0]
	for _, it := range m.tr.items {
		if !drop[it] {
			kept = append(kept, it)
		}
	}
	m.tr.items = kept
}

func progressNote(ev engine.Event) string {
	p := ev.Progress
	if p.Message != "" {
		return oneLine(p.Message)
	}
	if p.Total > 0 {
		return strconv.FormatFloat(p.Progress, 'f', -1, 64) + "/" + strconv.FormatFloat(p.Total, 'f', -1, 64)
	}
	return ""
}

// firstLine is the first line of s, cut to n cells.
func firstLine(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return cut(s, n)
}
