package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// seats is a host tool that reserves a seat and registers three
// rollbacks, of which two fail; undone lists the rollbacks that ran.
type seats struct {
	mu         sync.Mutex
	undone     []string
	registered []bool
}

func (s *seats) tool() engine.Tool {
	undo := func(name string, fail string) func(context.Context) error {
		return func(context.Context) error {
			s.mu.Lock()
			s.undone = append(s.undone, name)
			s.mu.Unlock()
			switch fail {
			case "error":
				return errors.New("the seat service is down")
			case "panic":
				panic("boom")
			}
			return nil
		}
	}
	return engine.Tool{
		Name: "reserve", Description: "reserve a seat", Kind: engine.KindExternalAction,
		Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, r := range []struct{ name, fail string }{{"release seat", ""}, {"refund", "error"}, {"notify", "panic"}} {
				s.registered = append(s.registered, engine.RegisterRollback(ctx, r.name, undo(r.name, r.fail)))
			}
			return tools.Text("seat 12A reserved"), nil
		},
	}
}

// TestInterruptRestart: under restart, a pause runs the registered
// rollbacks newest first before the paused Result is returned, reports
// the failed ones as diagnostics, and resumes from the conversation the
// run started from; under continue, nothing is undone.
func TestInterruptRestart(t *testing.T) {
	script := []scripted.Turn{call("reserve", `{}`), askLang}
	for _, mode := range []engine.InterruptMode{engine.InterruptRestart, engine.InterruptContinue, ""} {
		t.Run(string(mode), func(t *testing.T) {
			p := newProcess(t, t.TempDir(), mode, script...)
			var s seats
			var log eventLog
			res, err := p.rt.CompleteWith(context.Background(), engine.Request{
				BuiltIns: []string{engine.AskUserTool},
				Tools:    []engine.Tool{s.tool()},
				Messages: []engine.Message{engine.UserMessage("book me a seat")},
			}, log.add)
			if err != nil || res.Status != engine.StatusToolCalls || res.Token == "" {
				t.Fatalf("Complete: got %s, token %q, error %v", res.Status, res.Token, err)
			}
			if !reflect.DeepEqual(s.registered, []bool{true, true, true}) {
				t.Errorf("RegisterRollback in a run: got %v, want all true", s.registered)
			}
			var diags []string
			for _, d := range res.Diagnostics {
				diags = append(diags, d.Source+": "+d.Message)
			}
			if mode != engine.InterruptRestart {
				if len(s.undone) != 0 || len(diags) != 0 || len(res.Messages) != 4 {
					t.Errorf("got rollbacks %v, diagnostics %v and %d messages; want none, none and 4", s.undone, diags, len(res.Messages))
				}
				return
			}
			if want := []string{"notify", "refund", "release seat"}; !reflect.DeepEqual(s.undone, want) {
				t.Errorf("rollbacks run: got %v, want %v (newest first)", s.undone, want)
			}
			want := []string{"rollback notify: failed: panic: boom", "rollback refund: failed: the seat service is down"}
			if !reflect.DeepEqual(diags, want) {
				t.Errorf("diagnostics: got %q, want %q", diags, want)
			}
			warned := 0
			for _, ev := range log.evs {
				if ev.Type == engine.EventWarning && strings.HasPrefix(ev.Warning.Message, "rollback ") {
					warned++
				}
			}
			if warned != 2 {
				t.Errorf("rollback warning events: got %d, want 2", warned)
			}
			if n := len(res.Messages); n != 2 || res.Messages[1].ToolCalls[0].Name != engine.AskUserTool {
				t.Fatalf("messages: got %s, want the prompt and the question", js(res.Messages))
			}
			assertReplayable(t, res.Messages, res.PendingCalls)

			b := newProcess(t, p.store.Dir, mode, script[1], answer("booked"))
			out, err := b.rt.Resume(context.Background(), res.Token, engine.ResumeInput{Answers: goAnswer(t, res)})
			if err != nil || out.Status != engine.StatusCompleted {
				t.Fatalf("Resume: got %s, %v", out.Status, err)
			}
			if sent := b.rec.request(0).Messages; len(sent) != 4 { // system, prompt, question, answer
				t.Errorf("resumed model call: got %d messages, want 4: %s", len(sent), js(sent))
			}
		})
	}
}

// TestRegisterRollbackOutsideRun: outside a run's tool call nothing is
// registered.
func TestRegisterRollbackOutsideRun(t *testing.T) {
	if engine.RegisterRollback(context.Background(), "x", func(context.Context) error { return nil }) {
		t.Error("RegisterRollback without a run: got true, want false")
	}
	h := newHarness(t)
	var s seats
	req := h.request("")
	req.Tools = []engine.Tool{s.tool()}
	h.rt.ExecuteToolCall(context.Background(), engine.ToolCall{ID: "c1", Name: "reserve", Arguments: "{}"}, req)
	if !reflect.DeepEqual(s.registered, []bool{false, false, false}) {
		t.Errorf("RegisterRollback in ExecuteToolCall: got %v, want all false", s.registered)
	}
}

// TestInterruptModeChecked: an unknown mode is a configuration error.
func TestInterruptModeChecked(t *testing.T) {
	_, err := engine.New(engine.Config{Adapters: []engine.Provider{scripted.New()}, Interrupt: "sometimes"})
	if !errors.Is(err, engine.ErrInvalidRequest) {
		t.Errorf("New with interrupt %q: got %v, want ErrInvalidRequest", "sometimes", err)
	}
}

// TestPauseKind: a pause on a question is a question pause, also with a
// host tool beside it; one on host tools alone is a host_tool pause;
// without a checkpoint store there is no token.
func TestPauseKind(t *testing.T) {
	host := engine.Tool{Name: "deploy", Description: "deploy", Kind: engine.KindExternalAction, Schema: json.RawMessage(`{"type":"object"}`)}
	cases := []struct {
		turn scripted.Turn
		want engine.PauseKind
	}{
		{askLang, engine.PauseQuestion},
		{call("deploy", `{}`), engine.PauseHostTool},
		{calls(c("deploy", `{}`), c("ask_user_input", langAsk)), engine.PauseQuestion},
	}
	for _, tc := range cases {
		h := newHarness(t, tc.turn)
		req := h.request("ship it")
		req.Tools = []engine.Tool{host}
		res := h.complete(req)
		if res.Status != engine.StatusToolCalls || res.PauseKind != tc.want || res.Token != "" {
			t.Errorf("pause on %v: got %s, kind %q, token %q; want tool_calls, %q, no token", tc.turn.ToolCalls, res.Status, res.PauseKind, res.Token, tc.want)
		}
	}
	h := newHarness(t, answer("done"))
	if res := h.complete(h.request("x")); res.PauseKind != "" {
		t.Errorf("completed run: got pause kind %q, want none", res.PauseKind)
	}
}

// TestAnswerMessage: an answer is checked against the call's questions.
func TestAnswerMessage(t *testing.T) {
	call := engine.ToolCall{ID: "c1", Name: engine.AskUserTool, Arguments: langAsk}
	m, err := engine.AnswerMessage(call, tools.Answer{Selected: map[string][]string{"lang": {"rs"}}})
	if err != nil || m.Role != providers.RoleTool || m.ToolCallID != "c1" || m.Text() != `{"answers":{"lang":"rs"},"skipped":false,"other":{}}` {
		t.Errorf("AnswerMessage: got %+v, %v", m, err)
	}
	if _, err := engine.AnswerMessage(call, tools.Answer{Selected: map[string][]string{"lang": {"cobol"}}}); err == nil {
		t.Error("AnswerMessage with an unknown option: got nil error")
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
