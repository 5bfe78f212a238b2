package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/cmd/hooks"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/internal/stream"
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
// stdout as text, without the control sequences it may hold (rendered as
// Markdown on a terminal); the JSON formats keep the exact text, escaped
// by JSON, and pass through the host's redactor, since they carry tool
// results and error messages, and stream-json's deltas through a
// streaming redactor too, so no key is spelt across them.
func newOutput(format string, h *cmdHost) (output, error) {
	o, progress := h.io, h.progress()
	switch format {
	case "", "text":
		t := &textOutput{out: ui.NewTextWriter(o.Out), progress: progress}
		if o.Color {
			t.md = ui.NewMarkdownWriter(o.Out, o.Width)
			t.md.BeforeOutput = progress.Gap
		}
		// A terminal shows a refused answer and then the next; a pipe
		// cannot take one back.
		t.hold = t.md == nil && h.s.hooks != nil && h.s.hooks.Has(hooks.Stop)
		return t, nil
	case "json":
		return &jsonOutput{out: jsonText{h.secrets.writer(o.Out)}, progress: progress}, nil
	case "stream-json":
		return &streamOutput{out: jsonText{h.secrets.writer(o.Out)}, redact: h.secrets.stream()}, nil
	}
	return nil, usageErrorf("--output %q: use text, json or stream-json", format)
}

// textOutput prints only the answer on stdout, streaming it as it is
// generated; progress goes to stderr when enabled. To a pipe, where a
// Stop hook may refuse an answer, it prints the answer once the run
// accepted it: a script reads the answer the run ended with.
type textOutput struct {
	out      io.Writer
	md       *ui.MarkdownWriter
	progress *ui.Progress
	printed  stream.Text // what was printed of the answer, kept to compare with the final one
	// echo is the start of the answer kept back while it repeats the
	// model's interim text (ui.Progress.Echoes): shown once, as the
	// answer, if it turns out to be the same. With hold, it is the
	// whole answer so far, kept back until done.
	echo strings.Builder
	hold bool
}

func (t *textOutput) event(ev engine.Event) {
	t.progress.Event(ev)
	if ev.ParentID != "" {
		return // a sub-run's answer goes to its parent's model, not to stdout
	}
	switch ev.Type {
	case engine.EventModelStart:
		t.echo.Reset() // a kept-back answer the run did not accept
	case engine.EventAnswerDelta:
		t.answer(ev.Delta)
	}
}

// answer prints a piece of the streamed final answer, keeping its start
// back while it repeats the interim text progress holds.
func (t *textOutput) answer(d string) {
	if t.hold {
		// The answer waits for done; the interim text progress holds
		// back is shown once this is not its echo.
		t.echo.WriteString(d)
		if !t.progress.Echoes(t.echo.String()) {
			t.progress.Release()
		}
		return
	}
	if t.printed.Len() == 0 {
		t.echo.WriteString(d)
		if t.progress.Echoes(t.echo.String()) {
			return
		}
		t.progress.Release()
		d = t.echo.String()
		t.echo.Reset()
	}
	t.write(d)
}

func (t *textOutput) write(s string) {
	first := t.printed.Len() == 0
	t.printed.WriteString(s)
	if t.md != nil {
		t.md.Write([]byte(s)) // its BeforeOutput ends the progress first
		return
	}
	if first {
		t.progress.Gap()
	}
	io.WriteString(t.out, s)
}

func (t *textOutput) done(res engine.Result, _ runInfo) error {
	defer t.progress.Summary(res)
	if res.Structured != nil {
		// A --json-schema answer is data for a program: the value alone
		// on one line, never rendered as Markdown.
		t.progress.Gap()
		_, err := io.WriteString(t.out, string(res.Structured)+"\n")
		return err
	}
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
	if t.hold && res.Status != engine.StatusCompleted && t.printed.Len() == 0 {
		t.write(t.echo.String()) // what the model wrote before the run failed
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
	// StructuredOutput is the answer of a --json-schema run, as JSON.
	StructuredOutput json.RawMessage `json:"structured_output,omitempty"`
}

func (j *jsonOutput) event(ev engine.Event) { j.progress.Event(ev) }

func (j *jsonOutput) done(res engine.Result, info runInfo) error {
	r := jsonResult{
		Status: res.Status, Output: res.Output, SessionID: info.sessionID, Pending: info.pending,
		Error: res.Error, Usage: res.Usage, Iterations: res.Iterations, RunID: res.RunID,
		Warnings: res.Warnings, Diagnostics: info.diagnostics, Sandbox: info.sandbox,
		StructuredOutput: res.Structured,
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
	// mu keeps lines whole: the run's events and the input reader's
	// error lines (--input-format stream-json) come from different
	// goroutines.
	mu  sync.Mutex
	out io.Writer
	// redact holds back streamed text that could be the start of a
	// secret; nil passes events on as they are.
	redact *streamRedactor
	// sessionID returns the session's id, known once the run started.
	sessionID func() string
}

func (s *streamOutput) event(ev engine.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.redact.events(ev, s.write)
}

// line prints v, a line of llmrt's own that is no run's event, as JSON.
func (s *streamOutput) line(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(append(b, '\n'))
}

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

// jsonText writes JSON with DEL and the C1 controls (U+007F-U+009F),
// which encoding/json leaves raw in strings, spelled as \u escapes: the
// text stays exact, and a terminal showing the JSON cannot take U+009B
// for the start of a control sequence. Each Write must hold whole
// characters, as an encoder's writes do.
type jsonText struct{ w io.Writer }

func (j jsonText) Write(p []byte) (int, error) {
	if !bytes.ContainsRune(p, 0x7f) && !hasC1(p) {
		return j.w.Write(p)
	}
	out := make([]byte, 0, len(p)+32)
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == 0x7f:
			out = append(out, `\u007f`...)
		case p[i] == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
			out = fmt.Appendf(out, `\u%04x`, p[i+1])
			i++
		default:
			out = append(out, p[i])
		}
	}
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// hasC1 reports whether p holds a C1 control encoded as UTF-8.
func hasC1(p []byte) bool {
	for {
		i := bytes.IndexByte(p, 0xc2)
		if i < 0 || i+1 >= len(p) {
			return false
		}
		if p[i+1] >= 0x80 && p[i+1] <= 0x9f {
			return true
		}
		p = p[i+1:]
	}
}
