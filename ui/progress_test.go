package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

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
		{Type: engine.EventRunStart, RunID: "s", ParentID: "r"},
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
		"  ⤷ sub-agent s",
		"  → write_file  x",
		"  ⊘ write_file  x  0ms · denied",
		"",
	}, "\n")
	if got := out.String(); got != want {
		t.Fatalf("progress:\n%s\nwant:\n%s", got, want)
	}
}

func ptr[T any](v T) *T { return &v }
