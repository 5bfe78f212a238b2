package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// barrierTool returns a read tool whose calls only finish once n calls are
// running at the same time, so the run completes only if they run
// concurrently.
func barrierTool(name string, n int) engine.Tool {
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return engine.Tool{
		Name: name, Description: "barrier", Kind: tools.KindRead,
		Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			mu.Lock()
			arrived++
			if arrived == n {
				close(all)
			}
			mu.Unlock()
			select {
			case <-all:
				return tools.Text("met"), nil
			case <-time.After(5 * time.Second):
				return tools.Errorf("calls did not run concurrently"), nil
			}
		},
	}
}

func TestReadCallsRunConcurrently(t *testing.T) {
	h := newHarness(t,
		calls(c("wait", `{"i":1}`), c("wait", `{"i":2}`), c("wait", `{"i":3}`)),
		answer("all met"))
	req := h.request("go")
	req.Tools = []engine.Tool{barrierTool("wait", 3)}
	res := h.complete(req)
	if got := toolResults(res.Messages); len(got) != 4 || got[0] != "wait:false:met" || got[2] != "wait:false:met" {
		t.Fatalf("results: got %q, want three concurrent 'met' results", got)
	}
}

func TestMutatingCallsRunInModelOrder(t *testing.T) {
	h := newHarness(t,
		calls(c("poke", `{"x":"1"}`), c("peek", `{"x":"2"}`), c("poke", `{"x":"3"}`), c("poke", `{"x":"4"}`)),
		answer("done"))
	ct := &counterTool{}
	req := h.request("go")
	req.Tools = []engine.Tool{ct.tool("poke", tools.KindWrite), ct.tool("peek", tools.KindRead)}
	res := h.complete(req)
	want := []string{`poke{"x":"1"}`, `peek{"x":"2"}`, `poke{"x":"3"}`, `poke{"x":"4"}`}
	if strings.Join(ct.order, " ") != strings.Join(want, " ") {
		t.Errorf("execution order: got %v, want %v", ct.order, want)
	}
	// Results are appended in model order whatever the execution order.
	var ids []string
	for _, m := range res.Messages[2:6] {
		ids = append(ids, m.ToolCallID)
	}
	if strings.Join(ids, ",") != "call_1_1,call_1_2,call_1_3,call_1_4" {
		t.Errorf("result order: got %v", ids)
	}
}

func TestHostOwnedCallsPauseAfterSiblings(t *testing.T) {
	h := newHarness(t,
		calls(c("poke", `{"x":"a"}`), c("approve", `{"x":"deploy"}`)),
		answer("deployed"))
	ct := &counterTool{}
	req := h.request("deploy")
	req.Tools = []engine.Tool{ct.tool("poke", tools.KindWrite), {
		Name: "approve", Description: "ask the host", Schema: json.RawMessage(`{"type":"object"}`),
	}}
	res := h.complete(req)
	if res.Status != engine.StatusToolCalls {
		t.Fatalf("status: got %s, want tool_calls", res.Status)
	}
	if ct.count() != 1 {
		t.Errorf("the executable sibling should run before pausing; ran %d times", ct.count())
	}
	if len(res.PendingCalls) != 1 || res.PendingCalls[0].Name != "approve" {
		t.Fatalf("pending: got %+v, want only the host-owned call", res.PendingCalls)
	}
	assertReplayable(t, res.Messages, res.PendingCalls)

	// The host answers and resumes.
	req.Messages = append(res.Messages, providers.ToolResultMessage(res.PendingCalls[0], "approved", false))
	res = h.complete(req)
	if res.Status != engine.StatusCompleted || res.Output != "deployed" {
		t.Fatalf("resumed: got %s %q", res.Status, res.Output)
	}
	assertReplayable(t, res.Messages, nil)
}

func TestUnansweredCallIsMisuse(t *testing.T) {
	h := newHarness(t, answer("x"))
	req := h.request("go")
	req.Messages = append(req.Messages, engine.Message{Role: providers.RoleAssistant,
		ToolCalls: []providers.ToolCall{{ID: "c1", Name: "read_file", Arguments: "{}"}}})
	_, err := h.rt.Complete(context.Background(), req)
	var re *engine.RunError
	if err == nil || !asRunError(err, &re) || re.Code != engine.CodeInvalidRequest || !strings.Contains(re.Message, "c1") {
		t.Fatalf("got %v, want invalid_request naming c1", err)
	}
}

func TestReservedAndClashingNames(t *testing.T) {
	cases := []struct {
		name string
		tool engine.Tool
		want string
	}{
		{"final_answer is reserved", engine.Tool{Name: "final_answer", Execute: noop}, "reserved"},
		{"blocked is reserved", engine.Tool{Name: "blocked"}, "reserved"},
		{"built-in names clash", engine.Tool{Name: "read_file", Execute: noop}, "clashes"},
		{"bad schema", engine.Tool{Name: "x", Schema: json.RawMessage(`{"type": 7}`), Execute: noop}, "schema"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, answer("x"))
			req := h.request("go")
			req.Tools = []engine.Tool{tc.tool}
			_, err := h.rt.Complete(context.Background(), req)
			var re *engine.RunError
			if !asRunError(err, &re) || re.Code != engine.CodeInvalidRequest || !strings.Contains(re.Message, tc.want) {
				t.Fatalf("got %v, want invalid_request mentioning %q", err, tc.want)
			}
		})
	}
	t.Run("unknown built-in", func(t *testing.T) {
		h := newHarness(t, answer("x"))
		req := h.request("go")
		req.BuiltIns = []string{"read_file", "teleport"}
		_, err := h.rt.Complete(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), "teleport") {
			t.Fatalf("got %v, want an error naming teleport", err)
		}
	})
	t.Run("unknown provider", func(t *testing.T) {
		h := newHarness(t, answer("x"))
		req := h.request("go")
		req.Provider = "nope"
		if _, err := h.rt.Complete(context.Background(), req); err == nil || !strings.Contains(err.Error(), `unknown provider "nope"`) {
			t.Fatalf("got %v", err)
		}
	})
}

func noop(context.Context, json.RawMessage) (tools.Result, error) { return tools.Text("ok"), nil }

func TestBuiltInSelection(t *testing.T) {
	h := newHarness(t, answer("x"))
	req := h.request("go")
	req.BuiltIns = []string{}
	infos, err := h.rt.ResolveTools(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, i := range infos {
		names = append(names, i.Name)
	}
	if strings.Join(names, ",") != "final_answer,blocked" {
		t.Errorf("no built-ins: got surface %v, want only the control tools", names)
	}
	req.BuiltIns = []string{"read_file"}
	res := h.complete(req)
	if n := len(h.rec.request(0).Tools); n != 3 {
		t.Errorf("the model saw %d tools, want read_file + 2 control tools", n)
	}
	_ = res
}

func TestPanickingToolIsAResult(t *testing.T) {
	h := newHarness(t, call("boom", `{}`), answer("survived"))
	req := h.request("go")
	req.Tools = []engine.Tool{{Name: "boom", Schema: json.RawMessage(`{"type":"object"}`), Kind: tools.KindRead,
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) { panic("kaboom") }}}
	res := h.complete(req)
	if res.Status != engine.StatusCompleted || res.Messages[2].Text() != "boom failed: internal error" || !res.Messages[2].IsError {
		t.Fatalf("got %s, result %q", res.Status, res.Messages[2].Text())
	}
}

func TestResultsAreCapped(t *testing.T) {
	h := newHarness(t, call("big", `{}`), answer("ok"))
	req := h.request("go")
	req.MaxResultBytes = 1000
	big := strings.Repeat("a", 600) + strings.Repeat("z", 600)
	req.Tools = []engine.Tool{{Name: "big", Schema: json.RawMessage(`{"type":"object"}`), Kind: tools.KindRead,
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Text(big), nil }}}
	res := h.complete(req)
	got := res.Messages[2].Text()
	if len(got) > 1000 || !strings.HasPrefix(got, "aaa") || !strings.HasSuffix(got, "zzz") || !strings.Contains(got, "cut from the middle") {
		t.Fatalf("capped result (%d bytes): %q", len(got), got)
	}
}

func TestCancellation(t *testing.T) {
	t.Run("during a model call", func(t *testing.T) {
		h := newHarness(t, scripted.Turn{DelayMS: 10_000, Text: "never"})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		res, err := h.rt.Complete(ctx, h.request("go"))
		if err != nil || res.Status != engine.StatusCancelled || res.Error.Code != engine.CodeCancelled {
			t.Fatalf("got %v %s %+v", err, res.Status, res.Error)
		}
		if time.Since(start) > 5*time.Second {
			t.Errorf("cancellation did not stop the model call")
		}
		assertReplayable(t, res.Messages, nil)
	})
	t.Run("during a tool", func(t *testing.T) {
		h := newHarness(t, calls(c("slow", `{"i":1}`), c("slow", `{"i":2}`)), answer("never"))
		ctx, cancel := context.WithCancel(context.Background())
		req := h.request("go")
		started := make(chan struct{}, 2)
		req.Tools = []engine.Tool{{Name: "slow", Schema: json.RawMessage(`{"type":"object"}`), Kind: tools.KindWrite,
			Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
				started <- struct{}{}
				<-ctx.Done()
				return tools.Result{}, ctx.Err()
			}}}
		go func() { <-started; cancel() }()
		res, _ := h.rt.Complete(ctx, req)
		if res.Status != engine.StatusCancelled {
			t.Fatalf("status %s", res.Status)
		}
		assertReplayable(t, res.Messages, nil)
		got := toolResults(res.Messages)
		if len(got) != 2 || !strings.HasPrefix(got[0], "slow:true:cancelled") || !strings.HasPrefix(got[1], "slow:true:cancelled") {
			t.Errorf("results: got %q, want both calls answered as cancelled", got)
		}
	})
	t.Run("timeout is reported as such", func(t *testing.T) {
		h := newHarness(t, scripted.Turn{DelayMS: 10_000, Text: "never"})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		res, _ := h.rt.Complete(ctx, h.request("go"))
		if res.Status != engine.StatusCancelled || !strings.Contains(res.Error.Message, "timed out") {
			t.Fatalf("got %s %+v", res.Status, res.Error)
		}
	})
}

func TestExecuteToolCall(t *testing.T) {
	h := newHarness(t)
	ct := &counterTool{}
	req := engine.Request{WorkDir: h.dir, Tools: []engine.Tool{ct.tool("poke", tools.KindWrite)}}
	out := h.rt.ExecuteToolCall(context.Background(), providers.ToolCall{ID: "1", Name: "poke", Arguments: `{"x":"y"}`}, req)
	if out.IsError || out.Content != "ok poke" {
		t.Fatalf("auto mode: got %+v", out)
	}
	req.Permission.Mode = engine.ModeRead
	out = h.rt.ExecuteToolCall(context.Background(), providers.ToolCall{ID: "2", Name: "poke", Arguments: `{}`}, req)
	if !out.IsError || out.Code != engine.OutcomePermissionDenied {
		t.Fatalf("read mode: got %+v", out)
	}
	out = h.rt.ExecuteToolCall(context.Background(), providers.ToolCall{ID: "3", Name: "poke", Arguments: `{"x":1}`}, req)
	if out.Code != engine.OutcomeInvalidArguments {
		t.Fatalf("bad args: got %+v", out)
	}
}

func asRunError(err error, target **engine.RunError) bool {
	re, ok := err.(*engine.RunError)
	if ok {
		*target = re
	}
	return ok
}

// TestCancelledBatchAnswersHostCalls cancels during a batch that also holds
// a host-owned call: the Result must still replay, so the host-owned call
// gets a cancelled result instead of being left open.
func TestCancelledBatchAnswersHostCalls(t *testing.T) {
	h := newHarness(t, calls(c("slow", `{}`), c("approve", `{}`)), answer("never"))
	ctx, cancel := context.WithCancel(context.Background())
	req := h.request("go")
	req.Tools = []engine.Tool{
		{Name: "slow", Schema: json.RawMessage(`{"type":"object"}`), Kind: tools.KindWrite,
			Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
				cancel()
				<-ctx.Done()
				return tools.Result{}, ctx.Err()
			}},
		{Name: "approve", Schema: json.RawMessage(`{"type":"object"}`)},
	}
	res, _ := h.rt.Complete(ctx, req)
	if res.Status != engine.StatusCancelled || len(res.PendingCalls) != 0 {
		t.Fatalf("got %s with %d pending", res.Status, len(res.PendingCalls))
	}
	assertReplayable(t, res.Messages, nil)
}

// TestExecutableAskReplacesBuiltin: a host may supply its own executable
// ask_user_input (the one host tool allowed a built-in's name); it
// replaces the host-owned built-in.
func TestExecutableAskReplacesBuiltin(t *testing.T) {
	h := newHarness(t, call("ask_user_input", `{"q":"which?"}`), answer("chose blue"))
	req := h.request("go")
	req.Tools = []engine.Tool{{Name: "ask_user_input", Kind: tools.KindInteraction, Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Text(`{"answers":{"q":"blue"}}`), nil
		}}}
	infos, err := h.rt.ResolveTools(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range infos {
		if i.Name == "ask_user_input" && (i.Source != "host" || i.HostOwned) {
			t.Errorf("ask_user_input: got source %s host-owned %v, want the host's executable tool", i.Source, i.HostOwned)
		}
	}
	res := h.complete(req)
	if res.Status != engine.StatusCompleted || res.Messages[2].Text() != `{"answers":{"q":"blue"}}` {
		t.Fatalf("got %s, result %q", res.Status, res.Messages[2].Text())
	}
}
