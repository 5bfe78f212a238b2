package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// Writer appends records to one session, in a file (Store) or another
// Backend's RecordWriter. It is safe for concurrent use; each record is
// durable before the next is written (in a file, one write call followed
// by a sync), so a crash loses at most the record in flight. The caller
// closes it.
type Writer struct {
	mu     sync.Mutex
	dst    RecordWriter
	id     string
	redact func([]byte) []byte
	err    error // first write failure; sticky, see writeLine
}

// ID returns the session id.
func (w *Writer) ID() string { return w.id }

// WriteMessage appends a message the host adds to the conversation: the
// system and user prompts, or the answer to a pending call on resume.
// Messages the engine produces arrive through WriteEvent instead.
func (w *Writer) WriteMessage(m engine.Message) error {
	return w.writeLine(line{Type: lineMessage, Time: time.Now(), Message: &m})
}

// WriteEvent records what ev adds to the session: the message of
// assistant_message, the tool message of tool_result and tool_error (the
// event's Message, which the engine sets exactly when the result joins
// the conversation; results of calls made outside the loop or by a
// running tool carry none and are not recorded), and an end line for a
// terminal event.
// Other events (deltas, usage, warnings, tool_start, …) carry nothing the
// conversation keeps and are ignored, as are events of sub-runs (a
// ParentID): their messages are not part of this conversation.
func (w *Writer) WriteEvent(ev engine.Event) error {
	if ev.ParentID != "" {
		return nil
	}
	switch {
	case ev.Type == engine.EventWarning && len(ev.Compacted) > 0:
		return w.writeLine(line{Type: lineCompacted, Time: eventTime(ev), Compacted: ev.Compacted})
	case ev.Type == engine.EventAssistantMessage:
		if ev.Message == nil {
			return fmt.Errorf("session: %s event without a message", ev.Type)
		}
		return w.writeLine(line{Type: lineMessage, Time: eventTime(ev), Message: ev.Message})
	case ev.Type == engine.EventToolResult || ev.Type == engine.EventToolError:
		if ev.Message == nil {
			return nil
		}
		return w.writeLine(line{Type: lineMessage, Time: eventTime(ev), Message: ev.Message})
	case ev.Type.Terminal():
		if ev.Result == nil {
			return fmt.Errorf("session: %s event without a result", ev.Type)
		}
		return w.writeLine(line{Type: lineEnd, Time: eventTime(ev), End: endOf(ev.Result)})
	}
	return nil
}

func eventTime(ev engine.Event) time.Time {
	if ev.Time.IsZero() {
		return time.Now()
	}
	return ev.Time
}

// errClosed is returned by writes after Close.
var errClosed = errors.New("session: writer is closed")

// writeLine encodes l and hands it to the record writer. After a failed
// write a file may end in a partial line, and anything appended behind it
// would turn that torn line into corruption in the middle of the file, so
// the first failure is sticky: every later write returns it.
func (w *Writer) writeLine(l line) error {
	b, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("session: encode %s line: %w", l.Type, err)
	}
	if w.redact != nil {
		b = w.redact(b)
	}
	rec := Record{Type: l.Type, Time: l.Time, JSON: b}
	if l.End != nil {
		rec.Status = string(l.End.Status)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if err := w.dst.WriteRecord(rec); err != nil {
		w.err = fmt.Errorf("session %s: %w", w.id, err)
		return w.err
	}
	return nil
}

// Close closes the record writer (the file). It is idempotent; writes
// after Close fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == errClosed {
		return nil
	}
	w.err = errClosed
	return w.dst.Close()
}
