package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// TestPanickingHostToolReachesTheModelAsOneLine: a host tool that panics
// in a batch of concurrent reads is one line to the model, naming the
// tool and nothing of the host; the other call's result is intact, the
// run goes on, and the host gets the panic and its stack in the
// tool_error event and a one-line warning.
func TestPanickingHostToolReachesTheModelAsOneLine(t *testing.T) {
	var ct counterTool
	h := newHarness(t, calls(c("widget", `{}`), c("other", `{}`)), answer("survived"))
	req := h.request("go")
	req.Tools = []engine.Tool{ct.tool("other", tools.KindRead), {Name: "widget", Schema: json.RawMessage(`{"type":"object"}`), Kind: tools.KindRead,
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) {
			var m map[string]int
			m["secret-path /home/host/widget.go"]++ // a nil map: a runtime panic
			return tools.Result{}, nil
		}}}
	var mu sync.Mutex
	var events []engine.Event
	res, err := h.rt.CompleteWith(context.Background(), req, func(ev engine.Event) {
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	})
	if err != nil || res.Status != engine.StatusCompleted || res.Output != "survived" {
		t.Fatalf("the run should go on: %v, %s %q", err, res.Status, res.Output)
	}
	sent := h.rec.request(1)
	var toModel []string
	for _, m := range sent.Messages {
		if m.ToolName != "" {
			toModel = append(toModel, m.ToolName+": "+m.Text())
		}
	}
	want := []string{"widget: widget failed: internal error", "other: ok other"}
	if strings.Join(toModel, "\n") != strings.Join(want, "\n") {
		t.Errorf("the model got:\n%s\nwant:\n%s", strings.Join(toModel, "\n"), strings.Join(want, "\n"))
	}
	body, _ := json.Marshal(sent)
	for _, leak := range []string{"goroutine", "panic", ".go:", "nil map", "secret-path"} {
		if strings.Contains(string(body), leak) {
			t.Errorf("the request to the model holds %q", leak)
		}
	}

	var outcome *engine.ToolOutcome
	var warnings []string
	for _, ev := range events {
		switch {
		case ev.Type == engine.EventToolError && ev.Call.Name == "widget":
			outcome = ev.Outcome
		case ev.Type == engine.EventWarning && ev.Warning.Code == engine.WarningToolPanicked:
			warnings = append(warnings, ev.Warning.Message)
		}
	}
	if outcome == nil || outcome.Panic == nil {
		t.Fatalf("the tool_error event should carry the panic: %+v", outcome)
	}
	if !strings.Contains(outcome.Panic.Value, "assignment to entry in nil map") || !strings.Contains(outcome.Panic.Stack, "panic_test.go") {
		t.Errorf("the panic should keep its value and stack for the host's log: %q\n%s", outcome.Panic.Value, outcome.Panic.Stack)
	}
	if len(warnings) != 1 || strings.Contains(warnings[0], "\n") || !strings.HasPrefix(warnings[0], "widget panicked: assignment to entry in nil map") {
		t.Errorf("one one-line warning naming the tool, got %q", warnings)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Code != engine.WarningToolPanicked {
		t.Errorf("Result.Warnings: %+v", res.Warnings)
	}
}

// TestPanicIsRedacted: a secret in the panic value or stack is redacted
// like every result.
func TestPanicIsRedacted(t *testing.T) {
	h := newHarness(t, call("leaky", `{}`), answer("ok"))
	req := h.request("go")
	req.Redact = func(s string) string { return strings.ReplaceAll(s, "sk-SECRET", "[redacted]") }
	req.Tools = []engine.Tool{{Name: "leaky", Schema: json.RawMessage(`{"type":"object"}`), Kind: tools.KindRead,
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) { panic("key sk-SECRET rejected") }}}
	var got *engine.ToolPanic
	_, err := h.rt.CompleteWith(context.Background(), req, func(ev engine.Event) {
		if ev.Type == engine.EventToolError {
			got = ev.Outcome.Panic
		}
	})
	if err != nil || got == nil || got.Value != "key [redacted] rejected" {
		t.Fatalf("got %v %+v", err, got)
	}
}
