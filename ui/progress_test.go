package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/llmrt/llmrt/engine"
)

func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, ProgressOptions{Verbose: true})
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	msg := engine.TextMessage(engine.RoleAssistant, "Checking the build first.")
	answer := engine.Result{Status: engine.StatusCompleted, Output: "All green."}
	for _, ev := range []engine.Event{
		{Type: engine.EventRunStart, RunID: "r"},
		{Type: engine.EventAssistantMessage, RunID: "r", Message: &msg},
		{Type: engine.EventToolStart, RunID: "r", Call: call("c1", "shell_cmd", `{"command":"go test ./..."}`), Time: at(0)},
		{Type: engine.EventToolResult, RunID: "r", Call: call("c1", "shell_cmd", ""), Outcome: &engine.ToolOutcome{Content: `{"exit_code":0}`}, Time: at(1500)},
		{Type: engine.EventToolStart, RunID: "r", Call: &engine.CallInfo{ID: "c2", Name: "read_file", Arguments: `{"path":"a.go"}`, ParentID: "c0"}, Time: at(1500)},
		{Type: engine.EventToolError, RunID: "r", Call: &engine.CallInfo{ID: "c2", Name: "read_file", ParentID: "c0"}, Outcome: &engine.ToolOutcome{Content: "no such file: a.go", IsError: true}, Time: at(1520)},
		{Type: engine.EventToolStart, RunID: "r", Call: call("sp", engine.SpawnAgentTool, `{"task":"survey the repo\nand report"}`), Time: at(1550)},
		{Type: engine.EventRunStart, RunID: "s", ParentID: "r", Call: call("sp", engine.SpawnAgentTool, "")},
		{Type: engine.EventToolStart, RunID: "s", ParentID: "r", Call: call("c3", "write_file", `{"path":"x"}`), Time: at(1600)},
		{Type: engine.EventToolError, RunID: "s", ParentID: "r", Call: call("c3", "write_file", ""), Outcome: &engine.ToolOutcome{Code: engine.OutcomePermissionDenied, IsError: true}, Time: at(1600)},
		{Type: engine.EventToolStart, RunID: "r", Call: call("c4", engine.FinalAnswerTool, `{"answer":"All green."}`)},
		{Type: engine.EventAssistantMessage, RunID: "r", Message: ptr(engine.TextMessage(engine.RoleAssistant, "All green."))},
		{Type: engine.EventCompleted, RunID: "r", Result: &answer},
	} {
		p.Event(ev)
	}
	want := strings.Join([]string{
		"Checking the build first.",
		"→ shell_cmd  go test ./...",
		"✓ shell_cmd  go test ./...  1.5s · exit 0",
		"  → read_file  a.go",
		"  ✗ read_file  a.go  20ms · no such file: a.go",
		"→ spawn_agent  survey the repo and report",
		"  ⤷ sub-agent: survey the repo and report",
		"  → write_file  x",
		"  ⊘ write_file  x  0ms · denied",
		"",
	}, "\n")
	if got := out.String(); got != want {
		t.Fatalf("progress:\n%s\nwant:\n%s", got, want)
	}
}

func ptr[T any](v T) *T { return &v }

// TestProgressShowsAnAnswerOnce: interim text that turns out to be the
// answer (repeated as text or through final_answer) is not printed as
// progress, and the lines that came after it wait for it; text that is
// not the answer is printed before whatever shows it is not.
func TestProgressShowsAnAnswerOnce(t *testing.T) {
	say := func(s string) engine.Event {
		m := engine.TextMessage(engine.RoleAssistant, s)
		return engine.Event{Type: engine.EventAssistantMessage, RunID: "r", Message: &m}
	}
	warn := engine.Event{Type: engine.EventWarning, RunID: "r", Warning: &engine.Warning{Code: "w", Message: "a warning"}}
	done := func(out string) engine.Event {
		return engine.Event{Type: engine.EventCompleted, RunID: "r", Result: &engine.Result{Status: engine.StatusCompleted, Output: out}}
	}
	cases := []struct {
		name   string
		events []engine.Event
		want   string
	}{
		{"repeated text", []engine.Event{say("42."), say("42.\n"), warn, done("42.\n")}, "! a warning\n"},
		{"text then final_answer", []engine.Event{say("42."), {Type: engine.EventModelStart, RunID: "r"}, done("42.")}, ""},
		{"text that is not the answer", []engine.Event{say("Thinking."), warn, done("42.")}, "Thinking.\n! a warning\n"},
		{"a tool line releases it", []engine.Event{say("Looking."),
			{Type: engine.EventToolResult, RunID: "r", Call: call("c1", "read_file", ""), Outcome: &engine.ToolOutcome{Content: "x"}}, done("42.")},
			"Looking.\n✓ read_file  0ms\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := NewProgress(&out, ProgressOptions{})
			for _, ev := range tc.events {
				p.Event(ev)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("progress: got %q, want %q", got, tc.want)
			}
		})
	}
	p := NewProgress(&bytes.Buffer{}, ProgressOptions{})
	p.Event(say("The answer is 42."))
	if !p.Echoes(" The answer") || p.Echoes("The answer is 43") {
		t.Errorf("Echoes should tell a repeat of the held text from another answer")
	}
}

// TestProgressSummary: the line under a completed run's answer counts
// model calls, tokens and what the prompt cache served and took in.
func TestProgressSummary(t *testing.T) {
	cases := []struct {
		usage engine.Usage
		want  string
	}{
		{engine.Usage{InputTokens: 1200, OutputTokens: 80}, "✓ 3 model calls · 1200 tokens in, 80 out · 0s"},
		{engine.Usage{InputTokens: 1200, OutputTokens: 80, CacheReadTokens: 900, CacheWriteTokens: 120}, "✓ 3 model calls · 1200 tokens in (900 read from cache, 120 written to it), 80 out · 0s"},
		{engine.Usage{InputTokens: 1200, OutputTokens: 80, CacheWriteTokens: 1000}, "✓ 3 model calls · 1200 tokens in (1000 written to cache), 80 out · 0s"},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		p := NewProgress(&out, ProgressOptions{Live: true})
		p.Summary(engine.Result{Status: engine.StatusCompleted, Iterations: 3, Usage: tc.usage})
		if got := strings.TrimSpace(out.String()); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestProgressDimLinesAreNotPadded: on a colour terminal the model's
// text between calls is dimmed line by line, each line as long as it is:
// padded to the longest line (a URL, a table row), every shorter one
// would fold at the terminal's edge and show as two.
func TestProgressDimLinesAreNotPadded(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, ProgressOptions{Color: true})
	long := "| big_file_name.go | 123456 | " + strings.Repeat("a long note ", 8) + "|"
	text := "# Results\n\n- one\n" + long + "\nDone."
	m := engine.TextMessage(engine.RoleAssistant, text)
	p.Event(engine.Event{Type: engine.EventAssistantMessage, RunID: "r", Message: &m})
	p.Event(engine.Event{Type: engine.EventWarning, RunID: "r", Warning: &engine.Warning{Code: "w", Message: "a warning"}})
	p.Event(engine.Event{Type: engine.EventCompleted, RunID: "r", Result: &engine.Result{Status: engine.StatusCompleted, Output: "42."}})
	got := strings.Split(strings.TrimSuffix(ansi.Strip(out.String()), "\n"), "\n")
	want := append(strings.Split(text, "\n"), "! a warning")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("dim lines:\n%q\nwant:\n%q", got, want)
	}
	if !strings.Contains(out.String(), "\x1b[") {
		t.Errorf("no styling on a colour terminal: %q", out.String())
	}
}
