package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// output consumes a run's events and prints the outcome in one of the
// --output formats (text, json, stream-json). event is called from the run's goroutines, one
// event at a time; done is called once, after the run.
type output interface {
	event(ev engine.Event)
	done(res engine.Result, info runInfo) error
}

// runInfo is what the command adds to a Result for printing.
type runInfo struct {
	sessionID   string
	pending     []pendingItem
	diagnostics []string
	sandbox     string // the mode commands ran under
}

// pendingItem is a host-owned call waiting for an answer, as printed.
type pendingItem struct {
	CallID    string           `json:"call_id"`
	Tool      string           `json:"tool"`
	Type      string           `json:"type,omitempty"`
	AllowSkip bool             `json:"allow_skip,omitempty"`
	Questions []tools.Question `json:"questions,omitempty"`
	Arguments json.RawMessage  `json:"arguments,omitempty"`
}

// newOutput returns the output for --output format. The answer goes to
// stdout as it is; the JSON formats, which carry tool results and error
// messages, pass through the host's redactor, and stream-json's deltas
// through a streaming redactor too, so no key is spelt across them.
func newOutput(format string, h *cmdHost) (output, error) {
	o, progress := h.io, h.progress()
	switch format {
	case "", "text":
		t := &textOutput{out: o.Out, progress: progress}
		if o.Color {
			t.md = ui.NewMarkdownWriter(o.Out, o.Width)
		}
		return t, nil
	case "json":
		return &jsonOutput{out: h.secrets.writer(o.Out), progress: progress}, nil
	case "stream-json":
		return &streamOutput{out: h.secrets.writer(o.Out), redact: h.secrets.stream()}, nil
	}
	return nil, usageErrorf("--output %q: use text, json or stream-json", format)
}

// textOutput prints only the answer on stdout, streaming it as it is
// generated; progress goes to stderr when enabled.
type textOutput struct {
	out      io.Writer
	md       *ui.MarkdownWriter
	progress *ui.Progress
	printed  strings.Builder
}

func (t *textOutput) event(ev engine.Event) {
	t.progress.Event(ev)
	// A sub-run's answer goes to its parent's model, not to stdout.
	if ev.Type == engine.EventAnswerDelta && ev.ParentID == "" {
		t.write(ev.Delta)
	}
}

func (t *textOutput) write(s string) {
	if t.printed.Len() == 0 {
		t.progress.Gap()
	}
	t.printed.WriteString(s)
	if t.md != nil {
		t.md.Write([]byte(s))
		return
	}
	io.WriteString(t.out, s)
}

func (t *textOutput) done(res engine.Result, _ runInfo) error {
	defer t.progress.Summary(res)
	if res.Status == engine.StatusCompleted {
		// A text-policy answer was never streamed; a streamed answer may
		// have been superseded (a rejected final_answer): print what the
		// run finally accepted.
		streamed := t.printed.String()
		switch {
		case streamed == res.Output:
		case strings.HasPrefix(res.Output, streamed):
			t.write(res.Output[len(streamed):])
		case streamed == "":
			t.write(res.Output)
		default:
			t.write("\n" + res.Output)
		}
	}
	if t.md != nil {
		return t.md.Flush()
	}
	if s := t.printed.String(); s != "" && !strings.HasSuffix(s, "\n") {
		_, err := io.WriteString(t.out, "\n")
		return err
	}
	return nil
}

// jsonOutput prints one object at the end.
type jsonOutput struct {
	out      io.Writer
	progress *ui.Progress
}

// jsonResult is the `--output json` object.
type jsonResult struct {
	Status      engine.Status    `json:"status"`
	Output      string           `json:"output"`
	SessionID   string           `json:"session_id,omitempty"`
	Pending     []pendingItem    `json:"pending,omitempty"`
	Error       *engine.RunError `json:"error,omitempty"`
	Usage       engine.Usage     `json:"usage"`
	Iterations  int              `json:"iterations"`
	Warnings    []engine.Warning `json:"warnings"`
	Diagnostics []string         `json:"diagnostics"`
	RunID       string           `json:"run_id,omitempty"`
	Sandbox     string           `json:"sandbox,omitempty"`
}

func (j *jsonOutput) event(ev engine.Event) { j.progress.Event(ev) }

func (j *jsonOutput) done(res engine.Result, info runInfo) error {
	r := jsonResult{
		Status: res.Status, Output: res.Output, SessionID: info.sessionID, Pending: info.pending,
		Error: res.Error, Usage: res.Usage, Iterations: res.Iterations, RunID: res.RunID,
		Warnings: res.Warnings, Diagnostics: info.diagnostics, Sandbox: info.sandbox,
	}
	if r.Warnings == nil {
		r.Warnings = []engine.Warning{}
	}
	if r.Diagnostics == nil {
		r.Diagnostics = []string{}
	}
	enc := json.NewEncoder(j.out)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// streamOutput prints every event as one JSON line as it happens. The
// terminal event also carries the session id, so a paused run can be
// resumed.
type streamOutput struct {
	out io.Writer
	// redact holds back streamed text that could be the start of a
	// secret; nil passes events on as they are.
	redact *streamRedactor
	// sessionID returns the session's id, known once the run started.
	sessionID func() string
}

func (s *streamOutput) event(ev engine.Event) { s.redact.events(ev, s.write) }

// write prints one event as a JSON line.
func (s *streamOutput) write(ev engine.Event) {
	var line []byte
	var err error
	id := ""
	if ev.Type.Terminal() && ev.ParentID == "" && s.sessionID != nil {
		id = s.sessionID()
	}
	if id != "" {
		line, err = json.Marshal(struct {
			engine.Event
			SessionID string `json:"session_id"`
		}{ev, id})
	} else {
		line, err = json.Marshal(ev)
	}
	if err != nil {
		line = []byte(fmt.Sprintf(`{"type":"warning","warning":{"code":"encode","message":%q}}`, err.Error()))
	}
	s.out.Write(append(line, '\n'))
}

func (s *streamOutput) done(engine.Result, runInfo) error { return nil }
