package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// Line types of a trace file.
const (
	TypeStart   = "run.start"
	TypeEvent   = "event"
	TypeSuccess = "run.success"
	TypePaused  = "run.paused"
	TypeError   = "run.error"
	TypeEnd     = "run.end"
)

// Writer appends trace lines to a file. It is safe for concurrent use, and
// one Writer may record many runs (a chat session), interleaved or not:
// lines carry their run id. The caller closes it.
type Writer struct {
	// Redact, when set, rewrites every encoded line before it is written:
	// the host removes the values of secrets it knows (API keys). Set it
	// before the first Write.
	Redact func([]byte) []byte
	// RedactStream, when set, is given every event before it is written,
	// with the function that writes one, and writes the events to record
	// in its place, in order: the host's streaming redactor holds back
	// the end of a delta that could be the start of a secret and hands it
	// on with a later event, so that no run of deltas spells a secret
	// Redact would remove from one line. Set it before the first Write.
	RedactStream func(ev engine.Event, write func(engine.Event))

	mu     sync.Mutex
	f      *os.File
	starts map[string]time.Time // run id → run_start time, until the run ends
	err    error                // first failure; sticky so no line lands behind a torn one
}

// Create opens path for appending, creating it with mode 0600 (traces
// hold whole conversations), so several invocations can share one file.
func Create(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	return &Writer{f: f, starts: make(map[string]time.Time)}, nil
}

type startLine struct {
	Type     string    `json:"type"`
	Time     time.Time `json:"time"`
	RunID    string    `json:"run_id"`
	ParentID string    `json:"parent_id,omitempty"`
	Provider string    `json:"provider,omitempty"`
	Model    string    `json:"model,omitempty"`
}

type eventLine struct {
	Type  string        `json:"type"`
	Event *engine.Event `json:"event"`
}

type outcomeLine struct {
	Type     string            `json:"type"`
	Time     time.Time         `json:"time"`
	RunID    string            `json:"run_id"`
	ParentID string            `json:"parent_id,omitempty"`
	Status   engine.Status     `json:"status"`
	Output   string            `json:"output,omitempty"`
	Pending  []engine.ToolCall `json:"pending,omitempty"`
	// PauseKind is what a paused run waits for (run.paused).
	PauseKind engine.PauseKind `json:"pause_kind,omitempty"`
	Error     *engine.RunError `json:"error,omitempty"`
}

type endLine struct {
	Type       string        `json:"type"`
	Time       time.Time     `json:"time"`
	RunID      string        `json:"run_id"`
	ParentID   string        `json:"parent_id,omitempty"`
	Status     engine.Status `json:"status"`
	Usage      engine.Usage  `json:"usage"`
	Iterations int           `json:"iterations"`
	DurationMS int64         `json:"duration_ms"`
}

// Write records ev: a run.start line before run_start, the event itself,
// and after a terminal event its outcome line and run.end.
func (w *Writer) Write(ev engine.Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.RedactStream == nil {
		return w.write(ev)
	}
	var err error
	w.RedactStream(ev, func(e engine.Event) {
		if err == nil {
			err = w.write(e)
		}
	})
	return err
}

// write records one event. Callers hold mu.
func (w *Writer) write(ev engine.Event) error {
	if ev.Type == engine.EventRunStart {
		w.starts[ev.RunID] = ev.Time
		if err := w.line(startLine{Type: TypeStart, Time: ev.Time, RunID: ev.RunID, ParentID: ev.ParentID,
			Provider: ev.Provider, Model: ev.Model}); err != nil {
			return err
		}
	}
	if err := w.line(eventLine{Type: TypeEvent, Event: &ev}); err != nil {
		return err
	}
	if !ev.Type.Terminal() || ev.Result == nil {
		return nil
	}
	res := ev.Result
	out := outcomeLine{Type: TypeError, Time: ev.Time, RunID: ev.RunID, ParentID: ev.ParentID,
		Status: res.Status, Error: res.Error}
	switch ev.Type {
	case engine.EventCompleted:
		out.Type, out.Output = TypeSuccess, res.Output
	case engine.EventToolCalls:
		out.Type, out.Pending, out.PauseKind = TypePaused, res.PendingCalls, res.PauseKind
	}
	if err := w.line(out); err != nil {
		return err
	}
	var dur time.Duration
	if start, ok := w.starts[ev.RunID]; ok {
		dur = ev.Time.Sub(start)
		delete(w.starts, ev.RunID)
	}
	return w.line(endLine{Type: TypeEnd, Time: ev.Time, RunID: ev.RunID, ParentID: ev.ParentID,
		Status: res.Status, Usage: res.Usage, Iterations: res.Iterations, DurationMS: dur.Milliseconds()})
}

var errClosed = errors.New("trace: writer is closed")

// line writes v as one JSON line with a single write call. Callers hold mu.
func (w *Writer) line(v any) error {
	if w.err != nil {
		return w.err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("trace: encode: %w", err)
	}
	if w.Redact != nil {
		b = w.Redact(b)
	}
	if _, err := w.f.Write(append(b, '\n')); err != nil {
		w.err = fmt.Errorf("trace: write: %w", err)
		return w.err
	}
	return nil
}

// Close closes the file. It is idempotent; writes after Close fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == errClosed {
		return nil
	}
	w.err = errClosed
	return w.f.Close()
}
