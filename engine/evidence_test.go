package engine_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// TestHostActionEvidence covers the evidence rule of a request exposing a
// mutating host tool: a finish (final_answer or text) is accepted only
// once one of them has succeeded in this run. A premature one is refused
// with a note naming those tools; after two refusals, or when the model
// repeats the refused answer, the finish is accepted with an
// unconfirmed_finish warning, so the rule cannot loop.
func TestHostActionEvidence(t *testing.T) {
	cases := []struct {
		name    string
		turns   []scripted.Turn
		setup   func(req *engine.Request, ct *counterTool)
		output  string
		calls   int
		refused int  // final_answer results refused for want of evidence
		warned  bool // the run ends with unconfirmed_finish
	}{
		{name: "final_answer before the action is refused, after it accepted",
			turns:  []scripted.Turn{answer("deployed"), call("deploy", `{}`), answer("deployed")},
			output: "deployed", calls: 3, refused: 1},
		{name: "a failed action is no evidence",
			turns: []scripted.Turn{call("deploy", `{"x":"fail"}`), answer("deployed"), call("deploy", `{}`), answer("deployed now")},
			setup: func(req *engine.Request, ct *counterTool) {
				req.Tools[0] = failingOn(req.Tools[0], "fail")
			},
			output: "deployed now", calls: 4, refused: 1},
		{name: "a built-in write is not the host's action",
			turns:  []scripted.Turn{call("write_file", `{"path":"a.txt","content":"x"}`), answer("written"), call("deploy", `{}`), answer("done")},
			output: "done", calls: 4, refused: 1},
		{name: "the third finishing attempt is accepted with a warning",
			turns:  []scripted.Turn{answer("one"), answer("two"), answer("three")},
			output: "three", calls: 3, refused: 2, warned: true},
		{name: "a repeated answer is accepted with a warning",
			turns:  []scripted.Turn{answer("same"), answer(" same ")},
			output: " same ", calls: 2, refused: 1, warned: true},
		{name: "text counts as a finishing attempt too",
			turns:  []scripted.Turn{say("All deployed."), say("Really, all deployed."), say("Deployed, I promise.")},
			output: "Deployed, I promise.", calls: 3, warned: true},
		{name: "a host read tool asks for nothing",
			turns: []scripted.Turn{answer("looked")},
			setup: func(req *engine.Request, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool("look", tools.KindRead)}
			},
			output: "looked", calls: 1},
		{name: "the host's own ask_user_input is no action",
			turns: []scripted.Turn{answer("asked nothing")},
			setup: func(req *engine.Request, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool(engine.AskUserTool, "")}
			},
			output: "asked nothing", calls: 1},
		{name: "the text finish policy asks for nothing",
			turns:  []scripted.Turn{answer("trust me")},
			setup:  func(req *engine.Request, ct *counterTool) { req.Finish = engine.FinishText },
			output: "trust me", calls: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.turns...)
			ct := &counterTool{}
			req := h.request("deploy it")
			req.Tools = []engine.Tool{ct.tool("deploy", tools.KindExternalAction)}
			if tc.setup != nil {
				tc.setup(&req, ct)
			}
			res := h.complete(req)
			if res.Status != engine.StatusCompleted || res.Output != tc.output || h.rec.calls() != tc.calls {
				t.Fatalf("got %s %q after %d calls (%+v), want completed %q after %d", res.Status, res.Output, h.rec.calls(), res.Error, tc.output, tc.calls)
			}
			refused := 0
			for _, r := range toolResults(res.Messages) {
				if strings.HasPrefix(r, "final_answer:true:") {
					refused++
				}
			}
			if refused != tc.refused {
				t.Errorf("refused final_answer results: got %d, want %d: %q", refused, tc.refused, toolResults(res.Messages))
			}
			noted := false
			for i := range h.rec.calls() {
				noted = noted || strings.Contains(lastSystem(h.rec.request(i)), "(deploy)")
			}
			if want := tc.refused > 0 || tc.warned; noted != want {
				t.Errorf("a note naming deploy: got %v, want %v", noted, want)
			}
			warned := slices.ContainsFunc(res.Warnings, func(w engine.Warning) bool { return w.Code == engine.WarningUnconfirmedFinish })
			if warned != tc.warned {
				t.Errorf("unconfirmed_finish warning: got %v, want %v (%+v)", warned, tc.warned, res.Warnings)
			}
			assertReplayable(t, res.Messages, nil)
		})
	}
}

// failingOn wraps a host tool so that a call whose x argument is bad
// returns an error result.
func failingOn(t engine.Tool, bad string) engine.Tool {
	run := t.Execute
	t.Execute = func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		if strings.Contains(string(args), bad) {
			return tools.Errorf("it failed"), nil
		}
		return run(ctx, args)
	}
	return t
}

// TestHostActionAnsweredByHost: a host action without an executor pauses
// the run; the host's successful result, appended before the run goes on,
// is the evidence the resumed run's final_answer needs.
func TestHostActionAnsweredByHost(t *testing.T) {
	h := newHarness(t, call("send", `{}`), answer("sent"))
	req := h.request("send it")
	req.Tools = []engine.Tool{{Name: "send", Description: "sends", Kind: tools.KindExternalAction}}
	res := h.complete(req)
	if res.Status != engine.StatusToolCalls || len(res.PendingCalls) != 1 {
		t.Fatalf("got %s with %d pending calls, want tool_calls with 1", res.Status, len(res.PendingCalls))
	}
	req.Messages = append(res.Messages, engine.ToolResultMessage(res.PendingCalls[0], "sent", false))
	res = h.complete(req)
	if res.Status != engine.StatusCompleted || res.Output != "sent" || len(res.Warnings) != 0 {
		t.Errorf("resumed: got %s %q %+v, want completed %q without warnings", res.Status, res.Output, res.Warnings, "sent")
	}
}

// TestHostActionRefusedByPolicy: a host action the permission policy
// refuses settles the rule; the model cannot do more about it, and its
// final_answer saying so is accepted at once.
func TestHostActionRefusedByPolicy(t *testing.T) {
	h := newHarness(t, call("deploy", `{}`), answer("deploying is not allowed here"))
	ct := &counterTool{}
	req := h.request("deploy it")
	req.Tools = []engine.Tool{ct.tool("deploy", tools.KindExternalAction)}
	req.Permission.Mode = engine.ModeRead
	res := h.complete(req)
	if res.Status != engine.StatusCompleted || h.rec.calls() != 2 || ct.count() != 0 {
		t.Errorf("got %s after %d calls, deploy ran %d times; want completed after 2, deploy not run", res.Status, h.rec.calls(), ct.count())
	}
}

// TestHostActionInSubRun: a sub-run is held to nothing itself (its
// research ends when it answers), and the host action it carries out is
// the parent's evidence.
func TestHostActionInSubRun(t *testing.T) {
	ct := &counterTool{}
	cases := []struct {
		name     string
		child    *scripted.Provider
		deployed int
		parent   int // parent model calls
	}{
		{"a sub-run that only looks", script(answer("nothing to deploy")), 0, 3},
		{"a sub-run that deploys", script(call("deploy", `{}`), answer("deployed")), 1, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ct.n = 0
			parent := script(calls(spawnCall("sub task")), answer("done"), answer("done"))
			rt := spawnRuntime(t, routed{"main task": parent, "sub task": tc.child}, 0)
			req := spawnRequest(t, "main task")
			req.Tools = []engine.Tool{ct.tool("deploy", tools.KindExternalAction)}
			res, err := rt.Complete(context.Background(), req)
			if err != nil || res.Status != engine.StatusCompleted || ct.count() != tc.deployed {
				t.Fatalf("got %v %s (%+v), deployed %d times; want completed, deployed %d", err, res.Status, res.Error, ct.count(), tc.deployed)
			}
			if got := countAssistant(res.Messages); got != tc.parent {
				t.Errorf("parent model calls: got %d, want %d", got, tc.parent)
			}
		})
	}
}

func countAssistant(msgs []engine.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == engine.RoleAssistant {
			n++
		}
	}
	return n
}
