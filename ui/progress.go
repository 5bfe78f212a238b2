package ui

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/llmrt/llmrt/engine"
)

// Progress reports a run on a terminal's stderr for `llmrt run`, line by
// line below whatever is already there: the model's interim text, a line
// for each tool call as it finishes (the same line the chat shows),
// warnings, and on a live terminal a spinner while the model thinks or a
// tool runs and a closing line with calls, tokens and time. A nil
// *Progress reports nothing.
type Progress struct {
	w    io.Writer
	opts ProgressOptions
	// mu guards the terminal: the spinner's goroutine and the run's
	// events both write to it.
	mu    sync.Mutex
	spin  *spinner
	shown bool // something was printed, so the answer needs a gap
	start time.Time
	// held is the latest assistant text of the run, until it is known
	// not to be the answer (which stdout prints), and queued are the lines
	// that came after it and could not tell (warnings, verbose model
	// calls): they wait for it, in order.
	held   string
	queued []string
	// depth is how deep each sub-run seen so far is nested; lines of a
	// sub-run, and of the calls a run_code program makes, are indented
	// under the call that started them.
	depth map[string]int
	calls map[string]startedCall // by call id
	asked map[string]bool        // calls a person was asked about
	dim   lipgloss.Style
	clean cleaner // the text of events, before anything is printed
}

// startedCall is what Progress keeps of a call until it finishes.
type startedCall struct {
	args string
	at   time.Time
}

// ProgressOptions say how much Progress shows.
type ProgressOptions struct {
	// Color styles the lines (dim), as on a colour terminal.
	Color bool
	// Live is set on a terminal: a spinner shows while the model thinks
	// and while a tool runs, and a closing line sums the run up.
	Live bool
	// Verbose also names each model call and the start of each tool call.
	Verbose bool
}

// NewProgress returns a Progress writing to w.
func NewProgress(w io.Writer, opts ProgressOptions) *Progress {
	p := &Progress{w: w, opts: opts, depth: map[string]int{}, calls: map[string]startedCall{}, asked: map[string]bool{}}
	if opts.Color {
		p.dim = lipgloss.NewStyle().Faint(true)
	}
	return p
}

// Event reports one event of the run. Text the event carries from
// outside llmrt is printed without its control sequences.
func (p *Progress) Event(ev engine.Event) {
	if p == nil {
		return
	}
	ev = p.clean.event(ev)
	if p.opts.Live && p.spin != nil && (ev.Type == engine.EventReasoningDelta || ev.Type == engine.EventAnswerDelta && ev.ParentID == "") {
		// The spinner keeps turning while the model thinks, and while the
		// answer streams until its first line is shown (Writing).
		return
	}
	p.spin.end()
	p.spin = nil
	defer p.spinFor(ev)
	if p.start.IsZero() {
		p.start = time.Now()
	}
	indent := p.indentOf(ev)
	if ev.Type.Terminal() && ev.ParentID == "" {
		// The held text is the answer stdout prints, or it was context.
		if ev.Result != nil && strings.TrimSpace(ev.Result.Output) == p.held {
			p.held = ""
		}
		p.Release()
	}
	switch ev.Type {
	case engine.EventRunStart:
		if ev.ParentID != "" {
			// Named by its task, the argument of the call that started it.
			task := ""
			if ev.Call != nil {
				task = KeyArgument(engine.SpawnAgentTool, p.calls[ev.Call.ID].args)
			}
			if task == "" {
				task = ev.RunID
			}
			p.line(indent, "⤷ sub-agent: %s", cut(oneLine(task), 70))
		}
	case engine.EventAssistantMessage:
		// What the model says between tool calls is context, not the
		// answer: it goes with the progress, not to stdout. It is held
		// until something else is shown, since a text reply may turn out
		// to be the answer, which stdout prints; a reply repeating it
		// (the model saying it again, or through final_answer) is not
		// shown twice.
		if t := strings.TrimSpace(ev.Message.Text()); t != "" {
			if ev.ParentID != "" {
				p.line(indent, "%s", t)
			} else if t != p.held {
				p.Release()
				p.held = t
			}
		}
	case engine.EventToolStart:
		p.calls[ev.Call.ID] = startedCall{args: ev.Call.Arguments, at: ev.Time}
		if p.opts.Verbose && !quietTool(ev.Call.Name) {
			p.line(indent, "→ %s", joinNonEmpty(ev.Call.Name, KeyArgument(ev.Call.Name, ev.Call.Arguments)))
		}
	case engine.EventPermissionRequest:
		// The prompt, and the line it leaves, say what became of the call.
		p.asked[ev.Call.ID] = true
	case engine.EventToolResult, engine.EventToolError:
		p.finished(indent, ev)
		if tp := ev.Outcome.Panic; tp != nil && p.opts.Verbose {
			// --verbose is where a person asks for the stack of a tool
			// that panicked; the warning line says it happened.
			for _, l := range strings.Split(strings.TrimRight(tp.Stack, "\n"), "\n") {
				p.line(indent+"    ", "%s", Sanitize(l))
			}
		}
	case engine.EventWarning:
		p.lineAfterHeld(indent, "! %s", ev.Warning.Message)
	case engine.EventModelStart:
		if p.opts.Verbose {
			p.lineAfterHeld(indent, "… %s/%s (call %d)", ev.Provider, ev.Model, ev.Iteration)
		}
	}
}

// Echoes reports whether answer, the final answer streamed so far, may
// be a repeat of the text Progress holds: the printer of the answer
// keeps it back meanwhile, so an answer the model gave in text and again
// through final_answer is shown once.
func (p *Progress) Echoes(answer string) bool {
	return p != nil && p.held != "" && strings.HasPrefix(p.held, strings.TrimSpace(answer))
}

// Release prints the held text and the lines queued behind it: it is not
// the answer.
func (p *Progress) Release() {
	if p == nil {
		return
	}
	held, queued := p.held, p.queued
	p.held, p.queued = "", nil
	if held != "" {
		p.print("", "%s", held)
	}
	for _, l := range queued {
		p.print("", "%s", l)
	}
}

// lineAfterHeld prints a line that says nothing about whether the held
// text is the answer: it waits behind that text, or goes out now.
func (p *Progress) lineAfterHeld(indent, format string, args ...any) {
	if p.held == "" {
		p.line(indent, format, args...)
		return
	}
	p.queued = append(p.queued, indent+fmt.Sprintf(format, args...))
}

// finished prints a call's line: mark, name, key argument, time, note.
func (p *Progress) finished(indent string, ev engine.Event) {
	name, started := ev.Call.Name, p.calls[ev.Call.ID]
	if quietTool(name) {
		return
	}
	if ev.Outcome.Code == engine.OutcomePermissionDenied && p.asked[ev.Call.ID] {
		return
	}
	state, note := outcome(ev)
	switch state {
	case toolDenied:
		note = strings.TrimSpace("denied " + note) // "denied by a hook: …"
	case toolCancelled:
		note = "cancelled"
	}
	o := ev.Outcome
	took := time.Duration(o.DurationMS) * time.Millisecond
	if !started.at.IsZero() && !ev.Time.IsZero() {
		took = ev.Time.Sub(started.at)
	}
	meta := Took(took)
	if note != "" {
		meta += " · " + note
	}
	args := started.args
	if args == "" {
		args = ev.Call.Arguments // refused before it started
	}
	p.line(indent, "%s %s  %s", marks[state], joinNonEmpty(name, KeyArgument(name, args)), meta)
}

func joinNonEmpty(a, b string) string {
	if b == "" {
		return a
	}
	return a + "  " + b
}

// line prints one dim line, after the held text, which it shows is not
// the answer.
func (p *Progress) line(indent, format string, args ...any) {
	p.Release()
	p.print(indent, format, args...)
}

// print prints one dim line, or text of several, dimmed line by line:
// rendered whole, each line would be padded to the longest, and a line
// wider than the terminal would make every other one fold too.
func (p *Progress) print(indent, format string, args ...any) {
	lines := strings.Split(indent+fmt.Sprintf(format, args...), "\n")
	for i, l := range lines {
		lines[i] = keepStyle(p.dim.Render(l))
	}
	p.shown = true
	p.mu.Lock()
	fmt.Fprintln(p.w, strings.Join(lines, "\n"))
	p.mu.Unlock()
}

// Gap separates progress from an answer about to be printed on the same
// terminal; the spinner, which stayed while the answer's first line was
// on its way, stops and clears its line first.
func (p *Progress) Gap() {
	if p == nil {
		return
	}
	p.spin.end()
	p.spin = nil
	if p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}

// indentOf returns the indentation of ev's lines: two spaces for each
// level of sub-run, two more for a call made by a running tool.
func (p *Progress) indentOf(ev engine.Event) string {
	d := 0
	if ev.ParentID != "" {
		var ok bool
		if d, ok = p.depth[ev.RunID]; !ok {
			d = p.depth[ev.ParentID] + 1
			p.depth[ev.RunID] = d
		}
	}
	if ev.Call != nil && ev.Call.ParentID != "" {
		d++
	}
	return strings.Repeat("  ", d)
}

// Summary closes a completed run on a terminal with one dim line: model
// calls, tokens and time, under the answer.
func (p *Progress) Summary(res engine.Result) {
	if p == nil || !p.opts.Live || res.Status != engine.StatusCompleted {
		return
	}
	calls := "model call"
	if res.Iterations != 1 {
		calls += "s"
	}
	took := time.Duration(0)
	if !p.start.IsZero() {
		took = time.Since(p.start).Round(100 * time.Millisecond)
	}
	fmt.Fprintln(p.w)
	p.line("", "✓ %d %s · %d tokens in%s, %d out · %s", res.Iterations, calls, res.Usage.InputTokens, cacheNote(res.Usage), res.Usage.OutputTokens, took)
}

// cacheNote says how much of a run's input the provider's prompt cache
// served and took in, when it did either: " (900 read from cache, 120
// written to it)".
func cacheNote(u engine.Usage) string {
	var parts []string
	if u.CacheReadTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d read from cache", u.CacheReadTokens))
	}
	if u.CacheWriteTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d written to it", u.CacheWriteTokens))
		if u.CacheReadTokens == 0 {
			parts[len(parts)-1] = fmt.Sprintf("%d written to cache", u.CacheWriteTokens)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
