package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// scriptTool is a host tool standing in for run_code: it makes the inner
// calls it is given through the run's Caller and returns their outcomes.
func scriptTool(inner []providers.ToolCall) engine.Tool {
	return engine.Tool{
		Name: "script", Description: "runs inner calls", Kind: tools.KindRead,
		Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			c := engine.CallerFrom(ctx)
			if c == nil {
				return tools.Errorf("no caller on the context"), nil
			}
			var out []string
			for _, ic := range inner {
				o := c.CallTool(ctx, ic.Name, json.RawMessage(ic.Arguments))
				out = append(out, fmt.Sprintf("%s:%v:%s", ic.Name, o.IsError, o.Code))
			}
			return tools.Text(strings.Join(out, "|")), nil
		},
	}
}

// TestCallerCallTool: calls made by a running tool take the run's
// validation and permission path, are reported with their parent, and do
// not join the conversation.
func TestCallerCallTool(t *testing.T) {
	h := newHarness(t, call("script", `{}`), answer("done"))
	ct := &counterTool{}
	req := h.request("go")
	req.BuiltIns = []string{}
	req.Permission = engine.Permission{Mode: engine.ModeAsk, Rules: []engine.Rule{{Action: engine.RuleDeny, Tool: "peek"}}}
	approvals := 0
	req.Permission.Approver = engine.ApproverFunc(func(context.Context, engine.PermissionRequest) (engine.Decision, error) {
		approvals++
		return engine.Decision{Action: engine.AllowOnce}, nil
	})
	req.Tools = []engine.Tool{
		ct.tool("peek", tools.KindRead),
		ct.tool("poke", tools.KindWrite),
		scriptTool([]providers.ToolCall{
			{Name: "poke", Arguments: `{"x":"1"}`},
			{Name: "poke", Arguments: `{"x":1}`},
			{Name: "peek", Arguments: `{}`},
			{Name: "nope", Arguments: `{}`},
			{Name: "final_answer", Arguments: `{"answer":"x"}`},
		}),
	}
	var log eventLog
	res, err := h.rt.CompleteWith(context.Background(), req, log.add)
	if err != nil {
		t.Fatal(err)
	}
	want := "poke:false:|poke:true:invalid_arguments|peek:true:permission_denied|nope:true:unknown_tool|final_answer:true:not_run"
	if got := toolResultFor(res.Messages, "script"); got != want {
		t.Errorf("script result:\n got %s\nwant %s", got, want)
	}
	if ct.count() != 1 || approvals != 1 {
		t.Errorf("got %d executions and %d approvals, want 1 and 1 (only the valid poke runs, after approval)", ct.count(), approvals)
	}
	if res.Status != engine.StatusCompleted || len(res.Messages) != 5 {
		t.Fatalf("got %s with %d messages, want completed with 5 (inner results are not appended)", res.Status, len(res.Messages))
	}
	scriptID := res.Messages[1].ToolCalls[0].ID
	inner := 0
	for _, ev := range log.evs {
		if ev.Call == nil || ev.Call.Name == "script" || ev.Call.Name == "final_answer" && ev.Call.ParentID == "" {
			continue
		}
		if ev.Type == engine.EventToolCallDelta {
			continue
		}
		if ev.Call.ParentID != scriptID {
			t.Errorf("%s event of %s: got parent %q, want %q", ev.Type, ev.Call.Name, ev.Call.ParentID, scriptID)
		}
		if ev.Message != nil {
			t.Errorf("%s event of inner call %s carries a message; inner results are not appended", ev.Type, ev.Call.Name)
		}
		if ev.Type == engine.EventToolResult || ev.Type == engine.EventToolError {
			inner++
		}
	}
	if inner != 5 {
		t.Errorf("inner result events: got %d, want 5", inner)
	}
}

// TestCallerPermissionStateIsShared: concurrent inner calls share the
// run's permission state, so an allow_once rule admits exactly one call
// (run with -race).
func TestCallerPermissionStateIsShared(t *testing.T) {
	h := newHarness(t, call("fan", `{}`), answer("done"))
	ct := &counterTool{}
	const n = 8
	fan := engine.Tool{
		Name: "fan", Kind: tools.KindRead, Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			c := engine.CallerFrom(ctx)
			var wg sync.WaitGroup
			var mu sync.Mutex
			allowed := 0
			for i := 0; i < n; i++ {
				wg.Go(func() {
					if o := c.CallTool(ctx, "poke", json.RawMessage(`{}`)); !o.IsError {
						mu.Lock()
						allowed++
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			return tools.Text(fmt.Sprintf("allowed %d", allowed)), nil
		},
	}
	req := h.request("go")
	req.BuiltIns = []string{}
	req.Permission = engine.Permission{Mode: engine.ModeAsk, Rules: []engine.Rule{{Action: engine.RuleAllowOnce, Tool: "poke"}}}
	req.Tools = []engine.Tool{ct.tool("poke", tools.KindWrite), fan}
	res := h.complete(req)
	if got := toolResultFor(res.Messages, "fan"); got != "allowed 1" || ct.count() != 1 {
		t.Errorf("got %q and %d executions, want allowed 1 and 1", got, ct.count())
	}
}

// TestSubRunEventsPassThrough: a tool running a child run through its
// Caller delivers the child's events to the parent's consumer with the
// child's run id and the parent's id as parent, and the parent still ends
// with exactly one terminal event of its own.
func TestSubRunEventsPassThrough(t *testing.T) {
	sp := scripted.New()
	sp.Register("parent", &scripted.Script{Turns: []scripted.Turn{call("spawn", `{}`), answer("parent done")}})
	sp.Register("child", &scripted.Script{Turns: []scripted.Turn{answer("child done")}})
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": sp}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	spawn := engine.Tool{
		Name: "spawn", Kind: tools.KindRead, Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			c := engine.CallerFrom(ctx)
			child := engine.Request{Provider: "fake", Model: "child", BuiltIns: []string{}, ParentID: c.RunID(),
				Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "sub task")}}
			res, err := c.Runtime().CompleteWith(ctx, child, c.Forward)
			if err != nil {
				return tools.Result{}, err
			}
			return tools.Text(res.Output), nil
		},
	}
	var log eventLog
	req := engine.Request{Provider: "fake", Model: "parent", BuiltIns: []string{}, WorkDir: t.TempDir(), Tools: []engine.Tool{spawn},
		Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "task")}}
	res, err := rt.CompleteWith(context.Background(), req, log.add)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engine.StatusCompleted || toolResultFor(res.Messages, "spawn") != "child done" {
		t.Fatalf("got %s, spawn result %q", res.Status, toolResultFor(res.Messages, "spawn"))
	}
	var parentTerm, childTerm []engine.EventType
	childID := ""
	for _, ev := range log.evs {
		switch ev.RunID {
		case res.RunID:
			if ev.ParentID != "" {
				t.Errorf("parent event %s has parent id %q", ev.Type, ev.ParentID)
			}
			if ev.Type.Terminal() {
				parentTerm = append(parentTerm, ev.Type)
			}
		default:
			if childID == "" {
				childID = ev.RunID
			}
			if ev.RunID != childID || ev.ParentID != res.RunID {
				t.Errorf("child event %s: got run %s parent %s, want run %s parent %s", ev.Type, ev.RunID, ev.ParentID, childID, res.RunID)
			}
			if ev.Type.Terminal() {
				childTerm = append(childTerm, ev.Type)
			}
		}
	}
	if !reflect.DeepEqual(parentTerm, []engine.EventType{engine.EventCompleted}) || !reflect.DeepEqual(childTerm, []engine.EventType{engine.EventCompleted}) {
		t.Errorf("terminal events: parent %v, child %v; want one completed each", parentTerm, childTerm)
	}
	if last := log.evs[len(log.evs)-1]; last.RunID != res.RunID || !last.Type.Terminal() {
		t.Errorf("last event: got %s of %s, want the parent's terminal event", last.Type, last.RunID)
	}
}

// TestToolEventsCarryTheAppendedMessage: every tool message of the
// conversation arrives, exactly, on a tool_result or tool_error event.
func TestToolEventsCarryTheAppendedMessage(t *testing.T) {
	h := newHarness(t, calls(c("peek", `{"x":"a"}`), c("peek", `{"x":2}`), c("nope", `{}`)), call("final_answer", `{}`), answer("done"))
	ct := &counterTool{}
	req := h.request("go")
	req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
	var log eventLog
	res, err := h.rt.CompleteWith(context.Background(), req, log.add)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]engine.Message{}
	for _, ev := range log.evs {
		if ev.Type == engine.EventToolResult || ev.Type == engine.EventToolError {
			if ev.Message == nil {
				t.Fatalf("%s event of %s has no message", ev.Type, ev.Call.Name)
			}
			byID[ev.Message.ToolCallID] = *ev.Message
		}
	}
	n := 0
	for _, m := range res.Messages {
		if m.Role != providers.RoleTool {
			continue
		}
		n++
		if got := byID[m.ToolCallID]; !reflect.DeepEqual(got, m) {
			t.Errorf("tool message %s: event carried %+v, conversation holds %+v", m.ToolCallID, got, m)
		}
	}
	if n != 5 || len(byID) != 5 {
		t.Errorf("got %d tool messages and %d events with messages, want 5 and 5", n, len(byID))
	}
}

func TestFanOut(t *testing.T) {
	var got []string
	sink := func(tag string) engine.Sink {
		return func(ev engine.Event) { got = append(got, tag+":"+string(ev.Type)) }
	}
	fan := engine.FanOut(sink("a"), nil, sink("b"))
	fan(engine.Event{Type: engine.EventRunStart})
	fan(engine.Event{Type: engine.EventCompleted})
	want := []string{"a:run_start", "b:run_start", "a:completed", "b:completed"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestRunCodeCallsThroughTheRun: run_code's programs reach the run's tools
// through the engine's call path, with the run_code call as parent, and
// the run's deny rules apply to them.
func TestRunCodeCallsThroughTheRun(t *testing.T) {
	code, _ := json.Marshal(map[string]string{"code": "print(peek(x=\"a\"))\nr = poke(x=\"b\")\nprint(failed(r))"})
	h := newHarness(t, call("run_code", string(code)), answer("done"))
	ct := &counterTool{}
	peek, poke := ct.tool("peek", tools.KindRead), ct.tool("poke", tools.KindWrite)
	req := h.request("go")
	req.BuiltIns = []string{engine.RunCodeTool}
	req.Permission.Rules = []engine.Rule{{Action: engine.RuleDeny, Tool: "poke"}}
	req.Tools = []engine.Tool{peek, poke}
	var log eventLog
	res, err := h.rt.CompleteWith(context.Background(), req, log.add)
	if err != nil {
		t.Fatal(err)
	}
	out := toolResultFor(res.Messages, "run_code")
	if !strings.Contains(out, `ok peek\nTrue`) || ct.count() != 1 {
		t.Errorf("run_code result %s after %d executions; want peek's output, poke refused, 1 execution", out, ct.count())
	}
	runID := res.Messages[1].ToolCalls[0].ID
	var inner []string
	for _, ev := range log.evs {
		if ev.Call != nil && ev.Call.ParentID == runID && (ev.Type == engine.EventToolResult || ev.Type == engine.EventToolError) {
			inner = append(inner, ev.Call.Name+":"+ev.Outcome.Code)
		}
	}
	if want := []string{"peek:", "poke:permission_denied"}; !reflect.DeepEqual(inner, want) {
		t.Errorf("inner call events: got %v, want %v", inner, want)
	}
}
