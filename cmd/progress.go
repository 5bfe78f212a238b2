package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// progress reports tool calls, warnings and retries on stderr. A nil
// progress reports nothing (--quiet, or stderr is not a terminal without
// --verbose).
type progress struct {
	w       io.Writer
	color   bool
	verbose bool
	shown   bool // something was printed, so the answer needs a gap
	// depth is how deep each sub-run seen so far is nested; a sub-run's
	// lines, and the calls a run_code program makes, are indented under
	// the call that started them.
	depth  map[string]int
	indent string

	// live is set on a terminal: a spinner shows while the model thinks
	// and while a tool runs, and a closing line sums the run up.
	live  bool
	held  string // the latest assistant text, until it is known not to be the answer
	mu    sync.Mutex
	spin  *spinner
	start time.Time
}

// spinFor starts the spinner that follows ev, if any.
func (p *progress) spinFor(ev engine.Event) {
	if !p.live {
		return
	}
	var label string
	switch ev.Type {
	case engine.EventModelStart:
		label = "thinking"
	case engine.EventReasoningDelta:
		label = "thinking"
	case engine.EventToolStart:
		if ev.Call.Name == engine.AskUserTool || isControlName(ev.Call.Name) {
			return
		}
		label = "running " + ev.Call.Name
	default:
		return
	}
	p.spin = startSpinner(&p.mu, func(s string) { fmt.Fprint(p.w, s) }, p.indent+label, p.color)
}

func (p *progress) event(ev engine.Event) {
	if p == nil {
		return
	}
	if p.live && p.spin != nil && ev.Type == engine.EventReasoningDelta {
		return // the thinking spinner keeps turning
	}
	p.spin.end()
	p.spin = nil
	defer p.spinFor(ev)
	if p.start.IsZero() {
		p.start = time.Now()
	}
	p.indent = p.indentOf(ev)
	if held := p.held; held != "" {
		p.held = ""
		isAnswer := ev.Type.Terminal() && ev.ParentID == "" && ev.Result != nil && strings.TrimSpace(ev.Result.Output) == held
		if !isAnswer {
			indent := p.indent
			p.indent = "" // held text is the top-level run's
			p.line("%s", held)
			p.indent = indent
		}
	}
	switch ev.Type {
	case engine.EventRunStart:
		if ev.ParentID != "" {
			p.line("⤷ sub-agent %s", ev.RunID)
		}
	case engine.EventAssistantMessage:
		// What the model says between tool calls is context, not the
		// answer: it goes with the progress, not to stdout. It is held
		// until the next event, since a text reply may turn out to be the
		// answer, which stdout prints.
		if t := strings.TrimSpace(ev.Message.Text()); t != "" {
			if ev.ParentID == "" {
				p.held = t
			} else {
				p.line("%s", t)
			}
		}
	case engine.EventToolStart:
		if ev.Call.Name == engine.AskUserTool {
			// The question itself is on screen; its JSON is noise.
			p.line("→ %s", ev.Call.Name)
			break
		}
		p.line("→ %s%s", ev.Call.Name, argSummary(ev.Call.Arguments))
	case engine.EventToolResult:
		if (p.verbose || p.live) && !isControlName(ev.Call.Name) && ev.Call.Name != engine.AskUserTool {
			p.line("  ✓ %s (%s)%s", ev.Call.Name, (time.Duration(ev.Outcome.DurationMS) * time.Millisecond).Round(100*time.Millisecond), resultNote(ev))
		}
	case engine.EventToolError:
		p.line("  ✗ %s: %s", ev.Call.Name, oneLine(ev.Outcome.Content, 160))
	case engine.EventWarning:
		p.line("! %s", ev.Warning.Message)
	case engine.EventModelStart:
		if p.verbose {
			p.line("… %s/%s (call %d)", ev.Provider, ev.Model, ev.Iteration)
		}
	}
}

func (p *progress) line(format string, args ...any) {
	if p == nil {
		return
	}
	s := p.indent + fmt.Sprintf(format, args...)
	if p.color {
		s = "\x1b[2m" + s + "\x1b[0m"
	}
	p.shown = true
	p.mu.Lock()
	fmt.Fprintln(p.w, s)
	p.mu.Unlock()
}

// gap separates progress from an answer about to be printed on the same
// terminal.
func (p *progress) gap() {
	if p != nil && p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}

// indentOf returns the indentation of ev's lines: two spaces for each
// level of sub-run, two more for a call made by a running tool.
func (p *progress) indentOf(ev engine.Event) string {
	d := 0
	if ev.ParentID != "" {
		if p.depth == nil {
			p.depth = map[string]int{}
		}
		d, ok := p.depth[ev.RunID]
		if !ok {
			d = p.depth[ev.ParentID] + 1
			p.depth[ev.RunID] = d
		}
		if ev.Call != nil && ev.Call.ParentID != "" {
			d++
		}
		return strings.Repeat("  ", d)
	}
	if ev.Call != nil && ev.Call.ParentID != "" {
		d++
	}
	return strings.Repeat("  ", d)
}

func isControlName(n string) bool { return n == engine.FinalAnswerTool || n == engine.BlockedTool }

// argSummary renders call arguments compactly: (key=value, ...) with long
// values cut.
func argSummary(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil || len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := m[k]
		s, ok := v.(string)
		if !ok {
			b, _ := json.Marshal(v)
			s = string(b)
		}
		parts = append(parts, k+"="+oneLine(s, 60))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// oneLine flattens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// resultNote sums a tool result up in a few words where its content says
// something a person scans for: a command's exit status.
func resultNote(ev engine.Event) string {
	if ev.Call.Name != "shell_cmd" {
		return ""
	}
	var r struct {
		ExitCode *int `json:"exit_code"`
		TimedOut bool `json:"timed_out"`
	}
	if json.Unmarshal([]byte(ev.Outcome.Content), &r) != nil || r.ExitCode == nil {
		return ""
	}
	if r.TimedOut {
		return " timed out"
	}
	return fmt.Sprintf(" exit %d", *r.ExitCode)
}

// summary closes a completed run on a terminal with one dim line: model
// calls, tokens and time, under the answer.
func (p *progress) summary(res engine.Result) {
	if p == nil || !p.live || res.Status != engine.StatusCompleted {
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
	p.indent = ""
	fmt.Fprintln(p.w)
	p.line("✓ %d %s · %d tokens in, %d out · %s", res.Iterations, calls, res.Usage.InputTokens, res.Usage.OutputTokens, took)
}
