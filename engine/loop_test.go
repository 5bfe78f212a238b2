package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// TestLoopRules covers the completion loop's rules one by one: control
// tools, finish policies and narration, empty and repeated replies, the
// iteration and token bounds, bad calls returned to the model, cut replies
// and retries. Each case scripts the model, runs Complete, and checks the
// status, output, error code, number of model calls, and whatever else the
// rule is about.
func TestLoopRules(t *testing.T) {
	type check func(t *testing.T, h *harness, res engine.Result, ct *counterTool)
	cases := []struct {
		name   string
		turns  []scripted.Turn
		setup  func(req *engine.Request, h *harness, ct *counterTool)
		status engine.Status
		output string
		code   engine.ErrorCode
		calls  int
		check  check
	}{
		{
			name:   "final_answer completes with the answer",
			turns:  []scripted.Turn{answer("42")},
			status: engine.StatusCompleted, output: "42", calls: 1,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				got := toolResults(res.Messages)
				if len(got) != 1 || got[0] != "final_answer:false:final answer recorded" {
					t.Errorf("control call results: got %q, want one final_answer result", got)
				}
			},
		},
		{
			name:   "blocked fails with its reason",
			turns:  []scripted.Turn{call("blocked", `{"reason":"no access to the database"}`)},
			status: engine.StatusFailed, code: engine.CodeBlocked, calls: 1,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				if res.Error.Message != "no access to the database" {
					t.Errorf("blocked message: got %q", res.Error.Message)
				}
			},
		},
		{
			name: "control call with siblings is a protocol violation and nothing runs",
			turns: []scripted.Turn{
				calls(c("poke", `{}`), c("final_answer", `{"answer":"early"}`)),
				answer("done"),
			},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool("poke", tools.KindRead)}
			},
			status: engine.StatusCompleted, output: "done", calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, ct *counterTool) {
				if ct.count() != 0 {
					t.Errorf("poke ran %d times in a violating reply, want 0", ct.count())
				}
				if got := lastSystem(h.rec.request(1)); !strings.Contains(got, "only tool call") && !strings.Contains(got, "alone") {
					t.Errorf("second request: got trailing system note %q, want the violation note", got)
				}
			},
		},
		{
			name:   "narration does not end an evidence run",
			turns:  []scripted.Turn{say("I will now read the file and report back."), answer("the file says hi")},
			status: engine.StatusCompleted, output: "the file says hi", calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				if got := lastSystem(h.rec.request(1)); !strings.Contains(got, "final_answer") {
					t.Errorf("second request: got note %q, want the narration note", got)
				}
				if res.Messages[1].Text() != "I will now read the file and report back." {
					t.Errorf("narration should stay in the transcript, got %q", res.Messages[1].Text())
				}
			},
		},
		{
			name:   "text policy ends on text",
			turns:  []scripted.Turn{say("Paris.")},
			setup:  func(req *engine.Request, h *harness, ct *counterTool) { req.Finish = engine.FinishText },
			status: engine.StatusCompleted, output: "Paris.", calls: 1,
		},
		{
			name:  "text after a mutating result ends an evidence run",
			turns: []scripted.Turn{call("poke", `{}`), say("Poked it.")},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool("poke", tools.KindExternalAction)}
			},
			status: engine.StatusCompleted, output: "Poked it.", calls: 2,
		},
		{
			name:  "a read tool is not evidence",
			turns: []scripted.Turn{call("peek", `{}`), say("Peeked."), answer("peeked")},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
			},
			status: engine.StatusCompleted, output: "peeked", calls: 3,
		},
		{
			name: "evidence from an earlier turn does not count",
			// The history holds one assistant message, so the script starts
			// at its second turn.
			turns: []scripted.Turn{say("unused"), say("Done, as before."), answer("ok")},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				// A built-in write: a host tool that changes things would
				// bring the evidence rule of host actions instead.
				tc := providers.ToolCall{ID: "old", Name: "write_file", Arguments: `{"path":"a","content":"b"}`}
				req.Messages = []engine.Message{
					providers.TextMessage(providers.RoleUser, "write it"),
					{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{tc}},
					providers.ToolResultMessage(tc, "wrote a", false),
					providers.TextMessage(providers.RoleUser, "again?"),
				}
			},
			status: engine.StatusCompleted, output: "ok", calls: 2,
		},
		{
			name:   "empty replies are retried up to the limit",
			turns:  []scripted.Turn{{}, {}, answer("finally")},
			status: engine.StatusCompleted, output: "finally", calls: 3,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				if got := lastSystem(h.rec.request(1)); !strings.Contains(got, "empty") {
					t.Errorf("note after an empty reply: got %q", got)
				}
			},
		},
		{
			name:   "too many empty replies fail",
			turns:  []scripted.Turn{{}, {}, {}, answer("never")},
			status: engine.StatusFailed, code: engine.CodeEmptyResponse, calls: 3,
		},
		{
			name:   "EmptyRetryLimit is honoured",
			turns:  []scripted.Turn{{}, {}, answer("never")},
			setup:  func(req *engine.Request, h *harness, ct *counterTool) { req.EmptyRetryLimit = -1 },
			status: engine.StatusFailed, code: engine.CodeEmptyResponse, calls: 1,
		},
		{
			name: "a repeated call is skipped once, then ends the run",
			turns: []scripted.Turn{
				call("poke", `{"x":"a"}`), call("poke", `{"x":"a"}`), call("poke", `{"x":"a"}`), answer("never"),
			},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool("poke", tools.KindExternalAction)}
			},
			status: engine.StatusFailed, code: engine.CodeRepeatedToolCalls, calls: 3,
			check: func(t *testing.T, h *harness, res engine.Result, ct *counterTool) {
				if ct.count() != 1 {
					t.Errorf("poke ran %d times, want 1 (repeats are not executed)", ct.count())
				}
				if got := lastSystem(h.rec.request(2)); !strings.Contains(got, "repeated") {
					t.Errorf("note after the first repeat: got %q", got)
				}
			},
		},
		{
			name: "argument key order does not hide a repeat",
			turns: []scripted.Turn{
				call("peek", `{"x":"a","y":1}`), call("peek", `{"y":1, "x":"a"}`), answer("fine"),
			},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				tl := ct.tool("peek", tools.KindRead)
				tl.Schema = []byte(`{"type":"object"}`)
				req.Tools = []engine.Tool{tl}
			},
			status: engine.StatusCompleted, output: "fine", calls: 3,
			check: func(t *testing.T, h *harness, res engine.Result, ct *counterTool) {
				if ct.count() != 1 {
					t.Errorf("peek ran %d times, want 1", ct.count())
				}
			},
		},
		{
			name: "MaxIterations stops an endless distinct loop after exactly that many calls",
			turns: []scripted.Turn{
				call("peek", `{"x":"1"}`), call("peek", `{"x":"2"}`), call("peek", `{"x":"3"}`),
				call("peek", `{"x":"4"}`), call("peek", `{"x":"5"}`), call("peek", `{"x":"6"}`), call("peek", `{"x":"7"}`),
			},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.MaxIterations = 5
				req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
			},
			status: engine.StatusMaxIterations, code: engine.CodeMaxIterations, calls: 5,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				if res.Iterations != 5 || !strings.Contains(res.Error.Message, "5") {
					t.Errorf("got iterations %d, message %q; want 5 and the bound named", res.Iterations, res.Error.Message)
				}
			},
		},
		{
			name: "the token budget ends the run",
			turns: []scripted.Turn{
				{ToolCalls: []scripted.Call{c("peek", `{"x":"1"}`)}, Usage: &providers.Usage{InputTokens: 60, OutputTokens: 10}},
				{ToolCalls: []scripted.Call{c("peek", `{"x":"2"}`)}, Usage: &providers.Usage{InputTokens: 80, OutputTokens: 10}},
				answer("never"),
			},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.TokenBudget = 100
				req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
			},
			status: engine.StatusFailed, code: engine.CodeBudgetExceeded, calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, ct *counterTool) {
				if res.Usage.Total() != 160 || ct.count() != 1 {
					t.Errorf("got usage %d and %d executions, want 160 and 1", res.Usage.Total(), ct.count())
				}
			},
		},
		{
			name: "the token budget also bounds a narrating model",
			turns: []scripted.Turn{
				{Text: "Thinking about it.", Usage: &providers.Usage{InputTokens: 80, OutputTokens: 30}},
				{Text: "Still thinking.", Usage: &providers.Usage{InputTokens: 90, OutputTokens: 30}},
				answer("never"),
			},
			setup:  func(req *engine.Request, h *harness, ct *counterTool) { req.TokenBudget = 100 },
			status: engine.StatusFailed, code: engine.CodeBudgetExceeded, calls: 1,
		},
		{
			name:  "invalid JSON arguments go back to the model",
			turns: []scripted.Turn{call("poke", `{"x": "a",`), answer("recovered")},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool("poke", tools.KindRead)}
			},
			status: engine.StatusCompleted, output: "recovered", calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, ct *counterTool) {
				got := toolResults(res.Messages)
				if len(got) < 1 || !strings.HasPrefix(got[0], "poke:true:arguments are not valid JSON") || ct.count() != 0 {
					t.Errorf("got results %q and %d executions", got, ct.count())
				}
			},
		},
		{
			name:  "arguments that break the schema go back to the model",
			turns: []scripted.Turn{call("poke", `{"x": 5, "y": true}`), answer("recovered")},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool("poke", tools.KindRead)}
			},
			status: engine.StatusCompleted, output: "recovered", calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, ct *counterTool) {
				got := toolResults(res.Messages)
				if len(got) < 1 || !strings.Contains(got[0], "do not match the poke schema") || ct.count() != 0 {
					t.Errorf("got results %q and %d executions", got, ct.count())
				}
			},
		},
		{
			name:   "an unknown tool goes back to the model",
			turns:  []scripted.Turn{call("teleport", `{}`), answer("recovered")},
			status: engine.StatusCompleted, output: "recovered", calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				got := toolResults(res.Messages)
				if len(got) < 1 || !strings.HasPrefix(got[0], `teleport:true:unknown tool "teleport"`) {
					t.Errorf("got results %q", got)
				}
			},
		},
		{
			name:   "a reply cut by the length limit never ends a run",
			turns:  []scripted.Turn{{Text: "The answer is", Stop: "length"}, answer("complete")},
			setup:  func(req *engine.Request, h *harness, ct *counterTool) { req.Finish = engine.FinishText },
			status: engine.StatusCompleted, output: "complete", calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				if got := lastSystem(h.rec.request(1)); !strings.Contains(got, "cut off") {
					t.Errorf("note after a truncated reply: got %q", got)
				}
			},
		},
		{
			name:  "a retryable provider error is retried",
			turns: []scripted.Turn{{Error: &scripted.TurnError{Status: 503, Message: "overloaded"}}, answer("after retry")},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Retry = providers.RetryPolicy{BaseDelay: 1}
			},
			status: engine.StatusCompleted, output: "after retry", calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				if len(res.Warnings) != 1 || res.Warnings[0].Code != "provider_retry" {
					t.Errorf("got warnings %+v, want one provider_retry", res.Warnings)
				}
			},
		},
		{
			name:  "a provider error that is not retryable fails the run and keeps the messages",
			turns: []scripted.Turn{call("peek", `{}`), {Error: &scripted.TurnError{Status: 400, Message: "context too long"}}},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
			},
			status: engine.StatusFailed, code: engine.CodeProviderError, calls: 2,
			check: func(t *testing.T, h *harness, res engine.Result, _ *counterTool) {
				if !strings.Contains(res.Error.Message, "400") || !strings.Contains(res.Error.Message, "context too long") || len(res.Messages) != 3 {
					t.Errorf("got message %q and %d messages", res.Error.Message, len(res.Messages))
				}
			},
		},
		{
			// Complete shows no one the answer text; under Stream this cut
			// is fatal (TestStreamRestart).
			name: "a stream that fails after answer text no one saw is restarted",
			turns: []scripted.Turn{
				cut(answer("partial answer"), true, len(`{"answer":"part`)),
				answer("whole answer"),
			},
			setup: func(req *engine.Request, h *harness, ct *counterTool) {
				req.Retry = providers.RetryPolicy{BaseDelay: 1}
			},
			status: engine.StatusCompleted, output: "whole answer", calls: 2,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.turns...)
			ct := &counterTool{}
			req := h.request("do the task")
			if tc.setup != nil {
				tc.setup(&req, h, ct)
			}
			res := h.complete(req)
			if res.Status != tc.status {
				t.Fatalf("status: got %s (error %+v), want %s", res.Status, res.Error, tc.status)
			}
			if res.Output != tc.output {
				t.Errorf("output: got %q, want %q", res.Output, tc.output)
			}
			gotCode := engine.ErrorCode("")
			if res.Error != nil {
				gotCode = res.Error.Code
			}
			if gotCode != tc.code {
				t.Errorf("error code: got %q, want %q", gotCode, tc.code)
			}
			if h.rec.calls() != tc.calls {
				t.Errorf("model calls: got %d, want %d", h.rec.calls(), tc.calls)
			}
			assertReplayable(t, res.Messages, res.PendingCalls)
			if tc.check != nil {
				tc.check(t, h, res, ct)
			}
		})
	}
}

// TestRecoveryNotesAreTransient checks that a note reaches only the next
// call and never the stored conversation, and that the loop contract
// rides on every call merged with the host's system text.
func TestRecoveryNotesAreTransient(t *testing.T) {
	h := newHarness(t, say("Let me think."), call("peek", `{}`), answer("done"))
	ct := &counterTool{}
	req := h.request("task")
	req.Messages = append([]engine.Message{providers.TextMessage(providers.RoleSystem, "You are terse.")}, req.Messages...)
	req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
	res := h.complete(req)
	if res.Status != engine.StatusCompleted {
		t.Fatalf("status %s", res.Status)
	}
	for i := 0; i < h.rec.calls(); i++ {
		r := h.rec.request(i)
		if r.Messages[0].Role != providers.RoleSystem || !strings.HasPrefix(r.Messages[0].Text(), "You are terse.") || !strings.Contains(r.Messages[0].Text(), "final_answer") {
			t.Errorf("request %d: first message %q should merge the host system text with the loop contract", i, r.Messages[0].Text())
		}
		systems := 0
		for _, m := range r.Messages {
			if m.Role == providers.RoleSystem {
				systems++
			}
		}
		want := 1
		if i == 1 {
			want = 2 // the narration note
		}
		if systems != want {
			t.Errorf("request %d: got %d system messages, want %d", i, systems, want)
		}
	}
	for _, m := range res.Messages {
		if m.Role == providers.RoleSystem && m.Text() != "You are terse." {
			t.Errorf("stored conversation holds a managed system message: %q", m.Text())
		}
	}
}

// TestReadFileLoop runs the built-in read_file through the loop against a
// real workspace.
func TestReadFileLoop(t *testing.T) {
	h := newHarness(t, call("read_file", `{"path":"notes.txt"}`), answer("the notes say hello"))
	if err := os.WriteFile(filepath.Join(h.dir, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := h.complete(h.request("what do the notes say?"))
	if res.Status != engine.StatusCompleted || res.Output != "the notes say hello" {
		t.Fatalf("got %s %q", res.Status, res.Output)
	}
	tr := res.Messages[2]
	if tr.Role != providers.RoleTool || !strings.Contains(tr.Text(), "1\thello") || tr.IsError {
		t.Errorf("read_file result: got %+v", tr)
	}
	sent := h.rec.request(1).Messages
	if got := sent[len(sent)-1]; got.Role != providers.RoleTool || got.ToolCallID != "call_1_1" {
		t.Errorf("second request should end with the tool result for call_1_1, got %+v", got)
	}
}
