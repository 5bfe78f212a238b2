package ui

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// cleaner takes the control sequences out of the text of engine events
// before a renderer sees them (see Sanitize): the chat screen and Progress
// each run every event through one as the first thing they do, so no
// drawing code ever holds outside text that could drive the terminal.
// Streamed deltas are cleaned as streams, one per run, kind and call, so
// a sequence split across deltas goes whole. Events are copied where
// something changed; the engine's values, which other consumers (the
// session, stream-json) share, are never modified.
//
// Text inside JSON documents (a call's arguments, a tool's JSON result)
// is cleaned too: "\u001b" there is an ESC once a renderer decodes it.
// Result.Messages, Compacted and PendingCalls are left as they are: no
// renderer shows them.
type cleaner struct {
	streams map[streamKey]*Sanitizer
	// last is the stream of the latest delta: deltas come in runs of one
	// stream, so most find theirs without a map lookup.
	lastKey streamKey
	last    *Sanitizer
}

// streamKey names one stream of deltas.
type streamKey struct {
	run  string
	typ  engine.EventType
	call int
}

// event returns ev with its text cleaned.
func (c *cleaner) event(ev engine.Event) engine.Event {
	switch {
	case ev.Delta != "":
		ev.Delta = c.stream(ev).String(ev.Delta)
	case ev.Type == engine.EventModelStart, ev.Type == engine.EventAssistantMessage:
		c.end(ev.RunID) // what a call left unfinished ends with it
	case ev.Type.Terminal():
		c.end(ev.RunID)
	case ev.Type == engine.EventWarning && ev.Warning != nil && ev.Warning.Code == engine.WarningStreamRestarted:
		c.end(ev.RunID) // the call's deltas start again
	}
	ev.Provider, ev.Model = Sanitize(ev.Provider), Sanitize(ev.Model)
	if ev.Call != nil {
		ev.Call = cleanCall(ev.Call)
	}
	if ev.Message != nil {
		if m, changed := cleanMessage(*ev.Message); changed {
			ev.Message = &m
		}
	}
	if o := ev.Outcome; o != nil {
		if content := cleanDoc(o.Content); content != o.Content {
			copied := *o
			copied.Content = content
			ev.Outcome = &copied
		}
	}
	if p := ev.Progress; p != nil {
		if msg := Sanitize(p.Message); msg != p.Message {
			copied := *p
			copied.Message = msg
			ev.Progress = &copied
		}
	}
	if p := ev.Permission; p != nil {
		ev.Permission = cleanPermission(p)
	}
	if q := ev.Question; q != nil {
		if in, changed := cleanAsk(q.Input); changed {
			copied := *q
			copied.Input = in
			ev.Question = &copied
		}
	}
	if w := ev.Warning; w != nil {
		if cw := cleanWarning(*w); cw != *w {
			ev.Warning = &cw
		}
	}
	if r := ev.Result; r != nil {
		ev.Result = cleanResult(r)
	}
	return ev
}

// stream returns the Sanitizer of ev's stream of deltas.
func (c *cleaner) stream(ev engine.Event) *Sanitizer {
	k := streamKey{run: ev.RunID, typ: ev.Type}
	if ev.Call != nil {
		k.call = ev.Call.Index
	}
	if c.last != nil && k == c.lastKey {
		return c.last
	}
	if c.streams == nil {
		c.streams = map[streamKey]*Sanitizer{}
	}
	s := c.streams[k]
	if s == nil {
		s = &Sanitizer{}
		c.streams[k] = s
	}
	c.lastKey, c.last = k, s
	return s
}

// end closes the streams of a run's model call.
func (c *cleaner) end(run string) {
	if c.lastKey.run == run {
		c.last = nil
	}
	for k := range c.streams {
		if k.run == run {
			delete(c.streams, k)
		}
	}
}

func cleanCall(ci *engine.CallInfo) *engine.CallInfo {
	name, args := Sanitize(ci.Name), cleanDoc(ci.Arguments)
	if name == ci.Name && args == ci.Arguments {
		return ci
	}
	copied := *ci
	copied.Name, copied.Arguments = name, args
	return &copied
}

// cleanMessage cleans what a renderer shows of a message: its text,
// reasoning, tool calls and tool name. changed says a copy was made.
func cleanMessage(m engine.Message) (engine.Message, bool) {
	var parts, reasoning, calls, name bool // which fields were copied
	for i, p := range m.Content {
		if t := cleanDoc(p.Text); t != p.Text {
			if !parts {
				m.Content, parts = slices.Clone(m.Content), true
			}
			m.Content[i].Text = t
		}
	}
	for i, r := range m.Reasoning {
		if t := Sanitize(r.Text); t != r.Text {
			if !reasoning {
				m.Reasoning, reasoning = slices.Clone(m.Reasoning), true
			}
			m.Reasoning[i].Text = t
		}
	}
	for i, c := range m.ToolCalls {
		n, args := Sanitize(c.Name), cleanDoc(c.Arguments)
		if n != c.Name || args != c.Arguments {
			if !calls {
				m.ToolCalls, calls = slices.Clone(m.ToolCalls), true
			}
			m.ToolCalls[i].Name, m.ToolCalls[i].Arguments = n, args
		}
	}
	if n := Sanitize(m.ToolName); n != m.ToolName {
		m.ToolName, name = n, true
	}
	return m, parts || reasoning || calls || name
}

func cleanPermission(p *engine.PermissionRequest) *engine.PermissionRequest {
	c := *p
	c.Tool, c.Arguments, c.Suggested, c.Preview = Sanitize(p.Tool), cleanDoc(p.Arguments), Sanitize(p.Suggested), Sanitize(p.Preview)
	if c.Tool == p.Tool && c.Arguments == p.Arguments && c.Suggested == p.Suggested && c.Preview == p.Preview {
		return p
	}
	return &c
}

// cleanAsk cleans what a person reads of a question; the ids, which go
// back to the model in the answer, are kept as they are.
func cleanAsk(in tools.AskInput) (tools.AskInput, bool) {
	changed := false
	qs := make([]tools.Question, len(in.Questions))
	for i, q := range in.Questions {
		c := q
		c.Header, c.Question = Sanitize(q.Header), Sanitize(q.Question)
		c.Options = make([]tools.Choice, len(q.Options))
		for j, o := range q.Options {
			c.Options[j] = tools.Choice{ID: o.ID, Label: Sanitize(o.Label), Description: Sanitize(o.Description)}
			changed = changed || c.Options[j] != o
		}
		changed = changed || c.Header != q.Header || c.Question != q.Question
		qs[i] = c
	}
	if !changed {
		return in, false
	}
	in.Questions = qs
	return in, true
}

func cleanWarning(w engine.Warning) engine.Warning {
	w.Message, w.Rule = Sanitize(w.Message), Sanitize(w.Rule)
	return w
}

func cleanResult(r *engine.Result) *engine.Result {
	c := *r
	c.Output = Sanitize(r.Output)
	changed := c.Output != r.Output
	if e := r.Error; e != nil {
		if msg := Sanitize(e.Message); msg != e.Message {
			ce := *e
			ce.Message = msg
			c.Error, changed = &ce, true
		}
	}
	copied := false
	for i, w := range r.Warnings {
		if cw := cleanWarning(w); cw != w {
			if !copied {
				c.Warnings, copied = slices.Clone(r.Warnings), true
			}
			c.Warnings[i], changed = cw, true
		}
	}
	if !changed {
		return r
	}
	return &c
}

// cleanDoc cleans text that may be a JSON document: the text itself, and
// in a valid document every string whose escapes spell a control
// character ("\u001b", "\u009b"), which a renderer would decode into one.
func cleanDoc(s string) string {
	s = Sanitize(s)
	if !escapedControl(s) || !json.Valid([]byte(s)) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '"' {
			j := strings.IndexByte(s[i:], '"')
			if j < 0 {
				j = len(s) - i
			}
			b.WriteString(s[i : i+j])
			i += j
			continue
		}
		end := stringEnd(s, i)
		lit := s[i:end]
		if escapedControl(lit) {
			var v string
			if json.Unmarshal([]byte(lit), &v) == nil {
				lit = quoteJSON(Sanitize(v))
			}
		}
		b.WriteString(lit)
		i = end
	}
	return b.String()
}

// stringEnd returns the end of the JSON string literal starting at s[i].
func stringEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

// escapedControl reports whether s holds a JSON escape of a control
// character other than newline and tab: \u0000-\u001f, \u007f-\u009f.
// An escaped backslash followed by "u00" is counted too; cleanDoc then
// decodes the string and finds nothing to remove.
func escapedControl(s string) bool {
	for {
		i := strings.Index(s, `\u00`)
		if i < 0 || i+6 > len(s) {
			return false
		}
		hi, lo := s[i+4]|0x20, s[i+5]|0x20 // lower-cased hex digits
		switch {
		case hi == '0' && !(lo == '9' || lo == 'a'), hi == '1', hi == '8', hi == '9', hi == '7' && lo == 'f':
			return true
		}
		s = s[i+4:]
	}
}

// quoteJSON returns s as a JSON string, HTML characters unescaped.
func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
