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

// hookLog is a Hooks that records what it saw and answers as told.
type hookLog struct {
	mu     sync.Mutex
	before []engine.HookCall
	after  []string // tool:content
	stops  []engine.HookStop
	pre    func(engine.HookCall) engine.HookVerdict
	post   func(engine.HookCall, engine.ToolOutcome) engine.HookVerdict
	stop   func(engine.HookStop) engine.HookVerdict
}

func (h *hookLog) BeforeTool(_ context.Context, c engine.HookCall) engine.HookVerdict {
	h.mu.Lock()
	h.before = append(h.before, c)
	h.mu.Unlock()
	if h.pre != nil {
		return h.pre(c)
	}
	return engine.HookVerdict{}
}

func (h *hookLog) AfterTool(_ context.Context, c engine.HookCall, o engine.ToolOutcome) engine.HookVerdict {
	h.mu.Lock()
	h.after = append(h.after, c.Tool+":"+o.Content)
	h.mu.Unlock()
	if h.post != nil {
		return h.post(c, o)
	}
	return engine.HookVerdict{}
}

func (h *hookLog) BeforeStop(_ context.Context, s engine.HookStop) engine.HookVerdict {
	h.mu.Lock()
	h.stops = append(h.stops, s)
	h.mu.Unlock()
	if h.stop != nil {
		return h.stop(s)
	}
	return engine.HookVerdict{}
}

// TestHooksSeeEveryCall: the loop's calls, run_code's inner calls and a
// sub-run's calls all pass BeforeTool and AfterTool, marked with where
// they come from.
func TestHooksSeeEveryCall(t *testing.T) {
	code, _ := json.Marshal(map[string]string{"code": `print(peek(x="inner"))`})
	spawn, _ := json.Marshal(map[string]any{"task": "peek at sub", "tools": []string{"peek"}})
	h := newHarness(t,
		call("peek", `{"x":"loop"}`),
		call("run_code", string(code)),
		call("spawn_agent", string(spawn)),
		call("peek", `{"x":"sub"}`), answer("sub done"), // the sub-run's turns
		answer("done"))
	ct := &counterTool{}
	req := h.request("go")
	req.BuiltIns = []string{engine.RunCodeTool, engine.SpawnAgentTool}
	req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
	hooks := &hookLog{}
	req.Hooks = hooks
	res := h.complete(req)
	if res.Status != engine.StatusCompleted {
		t.Fatalf("status %s: %+v", res.Status, res.Error)
	}
	var seen []string
	for _, c := range hooks.before {
		where := "loop"
		switch {
		case c.SubRun:
			where = "sub"
		case c.ParentID != "":
			where = "inner"
		}
		seen = append(seen, c.Tool+"@"+where+string(c.Arguments))
	}
	for _, want := range []string{`peek@loop{"x":"loop"}`, `peek@inner{"x":"inner"}`, `peek@sub{"x":"sub"}`, "run_code@loop", "spawn_agent@loop"} {
		found := false
		for _, s := range seen {
			found = found || strings.HasPrefix(s, want)
		}
		if !found {
			t.Errorf("BeforeTool did not see %s; saw %v", want, seen)
		}
	}
	if len(hooks.after) != len(hooks.before) {
		t.Errorf("AfterTool saw %d calls, BeforeTool %d", len(hooks.after), len(hooks.before))
	}
	if len(hooks.stops) != 2 || !hooks.stops[0].SubRun || hooks.stops[1].SubRun {
		t.Errorf("BeforeStop should be asked for the sub-run, then the run: %+v", hooks.stops)
	}
}

// TestHookBlocksAndRewrites: a blocked call does not run and its reason
// reaches the model; new arguments are what runs; a hook's "allow" lets a
// call that would ask run, and "ask" puts an allowed one to the person.
func TestHookBlocksAndRewrites(t *testing.T) {
	h := newHarness(t,
		call("poke", `{"x":"rm -rf /"}`),
		call("poke", `{"x":"original"}`),
		call("poke", `{"x":"trusted"}`),
		call("peek", `{"x":"look"}`),
		answer("done"))
	ct := &counterTool{}
	req := h.request("go")
	req.BuiltIns = []string{}
	req.Tools = []engine.Tool{ct.tool("poke", tools.KindWrite), ct.tool("peek", tools.KindRead)}
	var asked []string
	req.Permission = engine.Permission{Mode: engine.ModeAsk, Approver: engine.ApproverFunc(func(_ context.Context, r engine.PermissionRequest) (engine.Decision, error) {
		asked = append(asked, r.Tool+r.Arguments)
		return engine.Decision{Action: engine.AllowOnce}, nil
	})}
	req.Hooks = &hookLog{pre: func(c engine.HookCall) engine.HookVerdict {
		switch {
		case strings.Contains(string(c.Arguments), "rm -rf"):
			return engine.HookVerdict{Decision: engine.HookBlock, Reason: "destructive command"}
		case strings.Contains(string(c.Arguments), "original"):
			return engine.HookVerdict{Arguments: json.RawMessage(`{"x":"rewritten"}`)}
		case strings.Contains(string(c.Arguments), "trusted"):
			return engine.HookVerdict{Decision: engine.HookAllow}
		case c.Tool == "peek":
			return engine.HookVerdict{Decision: engine.HookAsk, Context: "peek carefully"}
		}
		return engine.HookVerdict{}
	}}
	res := h.complete(req)
	results := toolResults(res.Messages)
	if !strings.Contains(results[0], "poke:true:blocked by a hook: destructive command") {
		t.Errorf("the blocked call's result: %q", results[0])
	}
	ct.mu.Lock()
	order := strings.Join(ct.order, " ")
	ct.mu.Unlock()
	if strings.Contains(order, "rm -rf") || !strings.Contains(order, `poke{"x":"rewritten"}`) || strings.Contains(order, "original") {
		t.Errorf("what ran: %s", order)
	}
	want := []string{`poke{"x":"rewritten"}`, `peek{"x":"look"}`} // "trusted" runs unasked
	if strings.Join(asked, " ") != strings.Join(want, " ") {
		t.Errorf("asked %v, want %v", asked, want)
	}
	if got := toolResultFor(res.Messages, "peek"); !strings.Contains(got, "[hook] peek carefully") {
		t.Errorf("the hook's context should follow the result: %q", got)
	}
}

// TestHookAfterAndStop: AfterTool's reason reaches the model with the
// result; a Stop hook keeps a finishing run going once (its reason in the
// next request), then lets it stop; "continue: false" ends the run.
func TestHookAfterAndStop(t *testing.T) {
	h := newHarness(t, call("peek", `{"x":"a"}`), answer("early"), answer("done"))
	ct := &counterTool{}
	req := h.request("go")
	req.BuiltIns = []string{}
	req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
	req.Hooks = &hookLog{
		post: func(engine.HookCall, engine.ToolOutcome) engine.HookVerdict {
			return engine.HookVerdict{Decision: engine.HookBlock, Reason: "lint failed on a.go"}
		},
		stop: func(s engine.HookStop) engine.HookVerdict {
			if s.Again {
				return engine.HookVerdict{}
			}
			return engine.HookVerdict{Decision: engine.HookBlock, Reason: "run the tests first"}
		},
	}
	res := h.complete(req)
	if res.Status != engine.StatusCompleted || res.Output != "done" {
		t.Fatalf("want the second answer to complete the run: %s %q %+v", res.Status, res.Output, res.Error)
	}
	if got := toolResultFor(res.Messages, "peek"); !strings.Contains(got, "A PostToolUse hook says: lint failed on a.go") {
		t.Errorf("the PostToolUse reason should reach the model: %q", got)
	}
	third := h.rec.request(2)
	if body, _ := json.Marshal(third.Messages); !strings.Contains(string(body), "run the tests first") {
		t.Errorf("the request after the blocked finish should carry the Stop hook's reason")
	}

	h = newHarness(t, call("peek", `{"x":"a"}`), answer("never"))
	req = h.request("go")
	req.BuiltIns = []string{}
	req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
	req.Hooks = &hookLog{post: func(engine.HookCall, engine.ToolOutcome) engine.HookVerdict {
		return engine.HookVerdict{Stop: true, StopReason: "budget review"}
	}}
	res = h.complete(req)
	if res.Status != engine.StatusFailed || res.Error == nil || res.Error.Code != engine.CodeBlocked || !strings.Contains(res.Error.Message, "budget review") {
		t.Errorf("continue:false should end the run blocked, saying why: %s %+v", res.Status, res.Error)
	}
}

// TestRefusedCallEventCarriesItsArguments: a call refused before it
// started has no tool_start; its outcome event carries the arguments, so
// a screen can say what was refused.
func TestRefusedCallEventCarriesItsArguments(t *testing.T) {
	h := newHarness(t, call("poke", `{"x":"rm -rf /"}`), answer("done"))
	ct := &counterTool{}
	req := h.request("go")
	req.BuiltIns = []string{}
	req.Tools = []engine.Tool{ct.tool("poke", tools.KindWrite)}
	req.Hooks = &hookLog{pre: func(engine.HookCall) engine.HookVerdict {
		return engine.HookVerdict{Decision: engine.HookBlock, Reason: "no"}
	}}
	var log eventLog
	if _, err := h.rt.CompleteWith(context.Background(), req, log.add); err != nil {
		t.Fatal(err)
	}
	for _, ev := range log.evs {
		if ev.Type == engine.EventToolStart && ev.Call.Name == "poke" {
			t.Error("a blocked call should not start")
		}
		if ev.Type == engine.EventToolError && ev.Call.Name == "poke" && ev.Call.Arguments != `{"x":"rm -rf /"}` {
			t.Errorf("the refused call's outcome should carry its arguments: %q", ev.Call.Arguments)
		}
	}
}
