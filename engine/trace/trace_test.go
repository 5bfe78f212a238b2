package trace_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/trace"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// line is the union of the fields the trace lines carry.
type line struct {
	Type       string            `json:"type"`
	RunID      string            `json:"run_id"`
	Provider   string            `json:"provider"`
	Model      string            `json:"model"`
	Event      *engine.Event     `json:"event"`
	Status     engine.Status     `json:"status"`
	Output     string            `json:"output"`
	Pending    []engine.ToolCall `json:"pending"`
	PauseKind  engine.PauseKind  `json:"pause_kind"`
	Error      *engine.RunError  `json:"error"`
	Iterations int               `json:"iterations"`
	DurationMS *int64            `json:"duration_ms"`
}

const askArgs = `{"questions":[{"header":"DB","id":"db","question":"Which database?","options":[{"id":"pg","label":"Postgres"},{"id":"my","label":"MySQL"}]}]}`

func turn(name, args string) scripted.Turn {
	return scripted.Turn{ToolCalls: []scripted.Call{{Name: name, Arguments: json.RawMessage(args)}}}
}

// TestTrace runs real engine runs into one trace file (as a chat would) and
// checks each run's frame: run.start, one event line per event in order,
// the outcome line, run.end; and that every line parses.
func TestTrace(t *testing.T) {
	cases := []struct {
		name    string
		turns   []scripted.Turn
		outcome string
		check   func(t *testing.T, out line)
	}{
		{"completed", []scripted.Turn{turn("final_answer", `{"answer":"42"}`)}, trace.TypeSuccess,
			func(t *testing.T, out line) {
				if out.Output != "42" || out.Status != engine.StatusCompleted {
					t.Errorf("run.success: got %+v, want output 42", out)
				}
			}},
		{"paused", []scripted.Turn{turn("ask_user_input", askArgs)}, trace.TypePaused,
			func(t *testing.T, out line) {
				if len(out.Pending) != 1 || out.Pending[0].Name != "ask_user_input" || out.PauseKind != engine.PauseQuestion {
					t.Errorf("run.paused: got pending %+v, kind %q; want the ask_user_input call, kind question", out.Pending, out.PauseKind)
				}
			}},
		{"failed", []scripted.Turn{turn("blocked", `{"reason":"no access"}`)}, trace.TypeError,
			func(t *testing.T, out line) {
				if out.Error == nil || out.Error.Code != engine.CodeBlocked || out.Error.Message != "no access" {
					t.Errorf("run.error: got error %+v, want blocked: no access", out.Error)
				}
			}},
	}
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	offset := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sp := scripted.New()
			sp.Register("test", &scripted.Script{Turns: tc.turns})
			rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": sp}})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			w, err := trace.Create(path) // reopened per run: appends
			if err != nil {
				t.Fatal(err)
			}
			req := engine.Request{Provider: "fake", Model: "test", WorkDir: t.TempDir(), BuiltIns: []string{"ask_user_input"},
				Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "go")}}
			var events []engine.EventType
			for ev := range rt.Stream(context.Background(), req) {
				events = append(events, ev.Type)
				if err := w.Write(ev); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			lines := readLines(t, path)[offset:]
			offset += len(lines)

			want := []string{trace.TypeStart}
			for range events {
				want = append(want, trace.TypeEvent)
			}
			want = append(want, tc.outcome, trace.TypeEnd)
			var got []string
			for i, l := range lines {
				got = append(got, l.Type)
				if l.Type == trace.TypeEvent && i-1 < len(events) && (l.Event == nil || l.Event.Type != events[i-1]) {
					t.Errorf("line %d: got event %+v, want %s", i, l.Event, events[i-1])
				}
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("line types:\n got %v\nwant %v", got, want)
			}
			start, out, end := lines[0], lines[len(lines)-2], lines[len(lines)-1]
			runID := lines[1].Event.RunID
			if start.RunID != runID || start.Provider != "fake" || start.Model != "test" {
				t.Errorf("run.start: got %+v, want run %s on fake/test", start, runID)
			}
			if out.RunID != runID || end.RunID != runID || end.Status != out.Status || end.Iterations != 1 || end.DurationMS == nil {
				t.Errorf("run.end: got %+v after %+v, want run %s, 1 iteration, a duration", end, out, runID)
			}
			tc.check(t, out)
		})
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("trace file mode: got %v (%v), want 0600", st.Mode().Perm(), err)
	}
}

// readLines parses every line of a trace file, failing on any that does
// not parse.
func readLines(t *testing.T, path string) []line {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("trace does not end with a newline")
	}
	var out []line
	for i, raw := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var l line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("line %d does not parse: %v\n%s", i+1, err, raw)
		}
		out = append(out, l)
	}
	return out
}

// TestTraceRedact: the Redact hook sees every encoded line before it is
// written, so a secret in any field never reaches the file.
func TestTraceRedact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	w, err := trace.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w.Redact = func(b []byte) []byte { return []byte(strings.ReplaceAll(string(b), "sk-secret", "[X]")) }
	res := &engine.Result{Status: engine.StatusFailed, Error: &engine.RunError{Code: engine.CodeProviderError, Message: "bad key sk-secret"}}
	for _, ev := range []engine.Event{
		{Type: engine.EventRunStart, RunID: "r1", Provider: "p", Model: "m"},
		{Type: engine.EventToolResult, RunID: "r1", Call: &engine.CallInfo{ID: "c", Name: "read_file"}, Outcome: &engine.ToolOutcome{Content: "key=sk-secret"}},
		{Type: engine.EventFailed, RunID: "r1", Result: res},
	} {
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "sk-secret") || strings.Count(string(data), "[X]") != 3 {
		t.Errorf("got %s, want every sk-secret replaced (result, event error, outcome line)", data)
	}
}

// TestTraceRedactStream: RedactStream sees each event before it is
// written and decides what is written in its place: nothing for a delta
// it holds, two events (the held one first) for the next.
func TestTraceRedactStream(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	w, err := trace.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var held *engine.Event
	w.RedactStream = func(ev engine.Event, write func(engine.Event)) {
		if ev.Type == engine.EventTextDelta && held == nil {
			held = &ev
			return
		}
		if held != nil {
			write(*held)
			held = nil
		}
		write(ev)
	}
	res := &engine.Result{Status: engine.StatusCompleted, Output: "ab"}
	for _, ev := range []engine.Event{
		{Type: engine.EventRunStart, RunID: "r1"},
		{Type: engine.EventTextDelta, RunID: "r1", Delta: "a"},
		{Type: engine.EventTextDelta, RunID: "r1", Delta: "b"},
		{Type: engine.EventCompleted, RunID: "r1", Result: res},
	} {
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	var got []string
	for _, l := range readLines(t, path) {
		if l.Event != nil {
			got = append(got, string(l.Event.Type)+":"+l.Event.Delta)
		} else {
			got = append(got, l.Type)
		}
	}
	want := "run.start run_start: text_delta:a text_delta:b completed: run.success run.end"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}
