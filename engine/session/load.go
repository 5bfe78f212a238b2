package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// Interrupted is the content of the error result Load gives a tool call
// that never got one because the process died while it ran. The model is
// told the truth: the call may have had effects.
const Interrupted = "interrupted: llmrt stopped before this call finished; it may or may not have run"

// Session is a loaded session, ready to replay: Messages can be sent to any
// provider as they are, once the host answers Pending.
type Session struct {
	Meta Meta `json:"meta"`
	// Messages is the conversation a resumed run continues: after a
	// compaction, the compacted conversation and what followed it.
	Messages []engine.Message `json:"messages"`
	// History is every message the session recorded, compacted ones
	// included, for reading.
	History []engine.Message `json:"history"`
	// Last is the last end line, nil when no run has ended yet.
	Last *End `json:"last,omitempty"`
	// Pending are the calls a paused run (Last.Status tool_calls) left for
	// the host; they are the only calls in Messages without a result. The
	// host appends one tool message per call before running again.
	Pending []engine.ToolCall `json:"pending,omitempty"`
	// Updated is the time of the last line.
	Updated time.Time `json:"updated"`
	// Warnings report what loading skipped or repaired (a torn last line,
	// interrupted calls), so nothing is lost silently.
	Warnings []string `json:"warnings,omitempty"`
}

// Ask is a pending ask_user_input call with its decoded questions.
type Ask struct {
	Call  engine.ToolCall `json:"call"`
	Input tools.AskInput  `json:"input"`
}

// PendingAsks returns the pending ask_user_input calls of a paused session,
// in call order (usually one), for a host that asks the person and appends
// the answers. Other pending calls are host tools the host answers its own
// way. An error means a call's arguments do not decode.
func (s *Session) PendingAsks() ([]Ask, error) {
	var out []Ask
	for _, c := range s.Pending {
		if c.Name != engine.AskUserTool {
			continue
		}
		in, err := tools.ParseAskInput(json.RawMessage(c.Arguments))
		if err != nil {
			return nil, fmt.Errorf("session: pending call %s: %w", c.ID, err)
		}
		out = append(out, Ask{Call: c, Input: in})
	}
	return out, nil
}

// parse reads a session file. A line that does not decode is an error
// naming the file and line, unless it is the last one: a kill mid-write
// tears only the last line, which is skipped with a warning. Corruption
// anywhere else did not come from a crash, and replaying a conversation
// with a hole in it could pair results with the wrong calls, so it is
// refused rather than skipped.
func parse(data []byte, name string) (*Session, error) {
	s := &Session{}
	started := false // a non-blank line was seen; the first must be meta
	lines := bytes.Split(data, []byte{'\n'})
	last := len(lines) - 1
	for last >= 0 && len(bytes.TrimSpace(lines[last])) == 0 {
		last--
	}
	for i, raw := range lines[:last+1] {
		n := i + 1
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		first := !started
		started = true
		var l line
		err := json.Unmarshal(raw, &l)
		if err == nil {
			err = l.check(first)
		}
		if err != nil {
			if i == last && !first {
				s.Warnings = append(s.Warnings, fmt.Sprintf("%s:%d: skipped a torn last line (%d bytes; the process stopped while writing it): %v", name, n, len(raw), err))
				break
			}
			return nil, fmt.Errorf("session: %s:%d: corrupt line: %w", name, n, err)
		}
		if l.Time.After(s.Updated) {
			s.Updated = l.Time
		}
		switch l.Type {
		case lineMeta:
			s.Meta = *l.Meta
		case lineMessage:
			s.Messages = append(s.Messages, *l.Message)
			s.History = append(s.History, *l.Message)
		case lineCompacted:
			s.Messages = append([]engine.Message(nil), l.Compacted...)
		case lineEnd:
			s.Last = l.End
		default:
			// A newer llmrt may add line types; they carry nothing this
			// version can replay.
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s:%d: skipped a line of unknown type %q", name, n, l.Type))
		}
	}
	if s.Meta.ID == "" {
		return nil, fmt.Errorf("session: %s: no meta line; not a session file", name)
	}
	s.normalise()
	return s, nil
}

// check validates a decoded line: the payload its type needs, and meta
// first.
func (l *line) check(first bool) error {
	if first != (l.Type == lineMeta) {
		if first {
			return fmt.Errorf("first line has type %q, want meta", l.Type)
		}
		return errors.New("second meta line")
	}
	switch {
	case l.Type == lineMeta && l.Meta == nil,
		l.Type == lineMessage && l.Message == nil,
		l.Type == lineEnd && l.End == nil,
		l.Type == lineCompacted && len(l.Compacted) == 0:
		return fmt.Errorf("%s line without its payload", l.Type)
	}
	return nil
}

// normalise makes Messages replayable: every assistant message is followed
// by exactly one result per call, in call order. Results written in
// completion order are sorted; results that strayed behind later host
// messages are pulled up; a call without a result gets an Interrupted
// error, except the pending calls of a paused run while nothing but tool
// results follows their message (the host has yet to answer them). Results
// matching no call cannot be replayed and are dropped with a warning.
func (s *Session) normalise() {
	pending := map[string]bool{}
	if s.Last != nil && s.Last.Status == engine.StatusToolCalls {
		for _, c := range s.Last.Pending {
			pending[c.ID] = true
		}
	}
	s.Pending = nil
	msgs := s.Messages
	out := make([]engine.Message, 0, len(msgs))
	for i := 0; i < len(msgs); {
		m := msgs[i]
		i++
		if m.Role == providers.RoleTool {
			s.Warnings = append(s.Warnings, fmt.Sprintf("dropped a result for call %s (%s): no assistant message made that call", m.ToolCallID, m.ToolName))
			continue
		}
		out = append(out, m)
		if m.Role != providers.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		// The span up to the next assistant message holds this message's
		// results, possibly mixed with host messages.
		results := map[string]engine.Message{}
		var others []engine.Message
		for ; i < len(msgs) && msgs[i].Role != providers.RoleAssistant; i++ {
			r := msgs[i]
			if r.Role != providers.RoleTool {
				others = append(others, r)
				continue
			}
			if _, dup := results[r.ToolCallID]; dup || !hasCall(m.ToolCalls, r.ToolCallID) {
				s.Warnings = append(s.Warnings, fmt.Sprintf("dropped a result for call %s (%s): no call of the preceding assistant message awaits it", r.ToolCallID, r.ToolName))
				continue
			}
			results[r.ToolCallID] = r
		}
		for _, c := range m.ToolCalls {
			r, ok := results[c.ID]
			switch {
			case ok:
				out = append(out, r)
			case pending[c.ID] && i == len(msgs) && len(others) == 0:
				s.Pending = append(s.Pending, c)
			default:
				s.Warnings = append(s.Warnings, fmt.Sprintf("call %s (%s) has no result; recorded as interrupted", c.ID, c.Name))
				out = append(out, providers.ToolResultMessage(c, Interrupted, true))
			}
		}
		out = append(out, others...)
	}
	s.Messages = out
}

func hasCall(calls []engine.ToolCall, id string) bool {
	for _, c := range calls {
		if c.ID == id {
			return true
		}
	}
	return false
}
