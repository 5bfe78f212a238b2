package ui

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// panicEvents are what the engine emits for a tool that panicked.
func panicEvents() []engine.Event {
	return []engine.Event{
		{Type: engine.EventRunStart, RunID: "r"},
		{Type: engine.EventToolStart, RunID: "r", Call: call("c1", "widget", `{}`)},
		{Type: engine.EventWarning, RunID: "r", Warning: &engine.Warning{Code: engine.WarningToolPanicked, Message: "widget panicked: boom; the model was told it failed with an internal error"}},
		{Type: engine.EventToolError, RunID: "r", Call: call("c1", "widget", ""), Outcome: &engine.ToolOutcome{IsError: true, Content: "widget failed: internal error",
			Panic: &engine.ToolPanic{Value: "boom", Stack: "goroutine 7 [running]:\nhost/widget.go:12 +0x1d"}}},
	}
}

// TestPanicOnTheChatScreen: the screen shows the call failed and the
// warning line; the stack never.
func TestPanicOnTheChatScreen(t *testing.T) {
	m := New(context.Background(), Options{Host: &fakeHost{}, Palette: NewPalette(false, true)})
	m.Update(resize(100, 30))
	for _, ev := range panicEvents() {
		m.apply(ev)
	}
	openCalls(m)
	scr := plain(m.render())
	for _, want := range []string{"widget panicked: boom", "widget failed: internal error"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "goroutine") || strings.Contains(scr, "widget.go") {
		t.Errorf("the stack reached the screen:\n%s", scr)
	}
}

// TestPanicInProgress: the warning line always; the stack only with
// --verbose.
func TestPanicInProgress(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var out bytes.Buffer
		p := NewProgress(&out, ProgressOptions{Verbose: verbose})
		for _, ev := range panicEvents() {
			p.Event(ev)
		}
		got := out.String()
		if !strings.Contains(got, "! widget panicked: boom") {
			t.Errorf("verbose %v: no warning line:\n%s", verbose, got)
		}
		if strings.Contains(got, "host/widget.go:12") != verbose {
			t.Errorf("verbose %v: the stack should show only with --verbose:\n%s", verbose, got)
		}
	}
}
