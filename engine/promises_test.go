package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// TestFailedCommandIsNotEvidence runs the real shell_cmd: a command that
// fails (non-zero exit, or a timeout) is reported to the model, but text
// after it does not end an evidence run; a command that succeeds does.
func TestFailedCommandIsNotEvidence(t *testing.T) {
	cases := []struct {
		name    string
		args    string
		calls   int
		output  string
		noteNow bool // the narration gets the "finish with final_answer" note
	}{
		{name: "exit 3", args: `{"command":"exit 3"}`, calls: 3, output: "it failed", noteNow: true},
		{name: "false in exec form", args: `{"command":"false","args":[]}`, calls: 3, output: "it failed", noteNow: true},
		{name: "timeout", args: `{"command":"sleep 5","timeout_ms":50}`, calls: 3, output: "it failed", noteNow: true},
		{name: "killed by a signal", args: `{"command":"kill -9 $$"}`, calls: 3, output: "it failed", noteNow: true},
		{name: "success is evidence", args: `{"command":"true"}`, calls: 2, output: "Done, the build passes."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, call("shell_cmd", tc.args), say("Done, the build passes."), answer("it failed"))
			req := h.request("build it")
			req.BuiltIns = []string{"shell_cmd"}
			req.Permission.Mode = engine.ModeAuto
			res := h.complete(req)
			if res.Status != engine.StatusCompleted || res.Output != tc.output || h.rec.calls() != tc.calls {
				t.Fatalf("got %s %q after %d calls, want completed %q after %d", res.Status, res.Output, h.rec.calls(), tc.output, tc.calls)
			}
			if tc.noteNow {
				if got := lastSystem(h.rec.request(2)); !strings.Contains(got, "final_answer") {
					t.Errorf("third request: got note %q, want the narration note", got)
				}
			}
		})
	}
}

// TestUnknownPermissionMode: a mode the engine does not know is misuse,
// never a silent ask.
func TestUnknownPermissionMode(t *testing.T) {
	for _, mode := range []engine.Mode{"Auto", "bogus", "ASK", " read"} {
		h := newHarness(t, answer("never"))
		req := h.request("go")
		req.Permission.Mode = mode
		_, err := h.rt.Complete(context.Background(), req)
		var re *engine.RunError
		if !errors.As(err, &re) || re.Code != engine.CodeInvalidRequest || !strings.Contains(re.Message, "permission mode") {
			t.Errorf("mode %q: got %v, want invalid_request naming the permission mode", mode, err)
		}
		out := h.rt.ExecuteToolCall(context.Background(), engine.ToolCall{ID: "1", Name: "list_files", Arguments: `{}`}, req)
		if out.Code != string(engine.CodeInvalidRequest) {
			t.Errorf("mode %q: ExecuteToolCall got code %q, want invalid_request", mode, out.Code)
		}
	}
	for _, mode := range []engine.Mode{"", engine.ModeAuto, engine.ModeAsk, engine.ModeRead} {
		h := newHarness(t, answer("ok"))
		req := h.request("go")
		req.Permission.Mode = mode
		if res := h.complete(req); res.Status != engine.StatusCompleted {
			t.Errorf("mode %q: got %s, want completed", mode, res.Status)
		}
	}
}

// TestStreamLoopBodyPanicReachesCaller panics in the range loop body on
// the first result of a concurrent read batch. The panic must reach the
// caller (not crash the process from a tool goroutine), the run must be
// cancelled, and the range loop must return only once the run has ended.
func TestStreamLoopBodyPanicReachesCaller(t *testing.T) {
	h := newHarness(t, calls(c("fast", `{}`), c("slow", `{}`)), answer("never"))
	slowStarted := make(chan struct{})
	slowDone := make(chan error, 1)
	read := func(name string, run func(ctx context.Context) tools.Result) engine.Tool {
		return engine.Tool{Name: name, Kind: tools.KindRead,
			Schema:  json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`),
			Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) { return run(ctx), nil }}
	}
	req := h.request("go")
	req.BuiltIns = []string{}
	req.Tools = []engine.Tool{
		// fast returns once slow is running, so the panic comes while a
		// worker goroutine is still busy.
		read("fast", func(context.Context) tools.Result {
			select {
			case <-slowStarted:
			case <-time.After(10 * time.Second):
			}
			return tools.Text("quick")
		}),
		read("slow", func(ctx context.Context) tools.Result {
			close(slowStarted)
			select {
			case <-ctx.Done():
				slowDone <- ctx.Err()
			case <-time.After(10 * time.Second):
				slowDone <- errors.New("never cancelled")
			}
			return tools.Text("late")
		}),
	}
	before := runtime.NumGoroutine()
	var seen []engine.EventType
	got := func() (v any) {
		defer func() { v = recover() }()
		for ev := range h.rt.Stream(context.Background(), req) {
			seen = append(seen, ev.Type)
			if ev.Type == engine.EventToolResult {
				panic("boom in the loop body")
			}
		}
		return nil
	}()
	if got != "boom in the loop body" {
		t.Fatalf("recovered %v, want the loop body's panic (events %v)", got, seen)
	}
	select {
	case err := <-slowDone:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("slow tool: got %v, want its context cancelled", err)
		}
	default:
		t.Errorf("the range loop returned before the run's tools ended")
	}
	if seen[len(seen)-1] != engine.EventToolResult {
		t.Errorf("events after the panic were delivered: %v", seen)
	}
	// The run's goroutines are gone once Stream returns (allow a moment for
	// the scheduler to retire ones that have already returned).
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("got %d goroutines after the stream, want at most %d", n, before)
	}
}

// panicProvider panics inside the run's goroutine.
type panicProvider struct{}

func (panicProvider) Name() string { return "panic" }
func (panicProvider) Stream(context.Context, *providers.Request, func(providers.Chunk)) error {
	panic("provider bug")
}

// TestStreamRunPanicReachesCaller: a panic inside the run (here a provider
// bug) surfaces on the iterating goroutine, as it did when the run
// executed there, instead of crashing the process.
func TestStreamRunPanicReachesCaller(t *testing.T) {
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"p": panicProvider{}}})
	if err != nil {
		t.Fatal(err)
	}
	req := engine.Request{Provider: "p", Model: "m", WorkDir: t.TempDir(),
		Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "go")}}
	got := func() (v any) {
		defer func() { v = recover() }()
		for range rt.Stream(context.Background(), req) {
		}
		return nil
	}()
	if !strings.Contains(fmt.Sprint(got), "provider bug") {
		t.Errorf("recovered %v, want the provider's panic", got)
	}
}

// TestStreamRunWaitsForTheLoopBody: the run does not advance while the
// caller handles an event, so breaking out at tool_start means the tool
// never runs, and state read in the loop body is not changing under it.
func TestStreamRunWaitsForTheLoopBody(t *testing.T) {
	for i := 0; i < 20; i++ {
		h := newHarness(t, call("poke", `{}`), answer("never"))
		ct := &counterTool{}
		req := h.request("go")
		req.Tools = []engine.Tool{ct.tool("poke", tools.KindExternalAction)}
		req.Permission.Mode = engine.ModeAuto
		for ev := range h.rt.Stream(context.Background(), req) {
			if ev.Type == engine.EventToolStart {
				runtime.Gosched() // let a run that did not wait go on
				if n := ct.count(); n != 0 {
					t.Fatalf("poke ran %d times while the loop body held tool_start", n)
				}
				break
			}
		}
		if n := ct.count(); n != 0 {
			t.Fatalf("poke ran %d times after the loop broke at tool_start, want 0", n)
		}
	}
}

// TestRedactToolResults: Request.Redact rewrites a tool result before the
// model sees it, in the request and in the returned messages alike.
func TestRedactToolResults(t *testing.T) {
	const secret = "sk-secret-value-42"
	h := newHarness(t, call("leak", `{}`), answer("done"))
	req := h.request("go")
	req.BuiltIns = []string{}
	req.Tools = []engine.Tool{{Name: "leak", Kind: tools.KindRead, Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Text("key=" + secret), nil
		}}}
	req.Redact = func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") }
	res := h.complete(req)
	if res.Status != engine.StatusCompleted {
		t.Fatalf("got %s, want completed", res.Status)
	}
	sent, _ := json.Marshal(h.rec.request(1).Messages)
	kept, _ := json.Marshal(res.Messages)
	for where, b := range map[string][]byte{"second request": sent, "result messages": kept} {
		if strings.Contains(string(b), secret) || !strings.Contains(string(b), "key=[REDACTED]") {
			t.Errorf("%s: got %s, want the result with the key redacted", where, b)
		}
	}
}
