package engine_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

const langAsk = `{"questions":[{"id":"lang","header":"Language","question":"Which?","options":[{"id":"go","label":"Go"},{"id":"rs","label":"Rust"}]}]}`

// askThenAnswer is a model that spends 100 input tokens asking a question
// and 200 answering after it.
func askThenAnswer(t *testing.T) *harness {
	return newHarness(t,
		scripted.Turn{ToolCalls: []scripted.Call{c("ask_user_input", langAsk)}, Usage: &providers.Usage{InputTokens: 100, OutputTokens: 10}},
		scripted.Turn{ToolCalls: []scripted.Call{c("final_answer", `{"answer":"Go it is"}`)}, Usage: &providers.Usage{InputTokens: 200, OutputTokens: 10}})
}

func pickGo(context.Context, engine.Question) (tools.Answer, error) {
	return tools.Answer{Selected: map[string][]string{"lang": {"go"}}}, nil
}

// eventLog is an observe function that keeps every event.
type eventLog struct {
	mu  sync.Mutex
	evs []engine.Event
}

func (l *eventLog) add(ev engine.Event) {
	l.mu.Lock()
	l.evs = append(l.evs, ev)
	l.mu.Unlock()
}

func terminals(evs []engine.Event) []engine.Event {
	var out []engine.Event
	for _, ev := range evs {
		if ev.Type.Terminal() {
			out = append(out, ev)
		}
	}
	return out
}

// TestAskerAnswersInline: with an Asker, a question is one step of one
// run, and usage, iterations and events cover the whole run.
func TestAskerAnswersInline(t *testing.T) {
	h := askThenAnswer(t)
	var asked []engine.Question
	req := h.request("pick a language")
	req.Asker = engine.AskerFunc(func(ctx context.Context, q engine.Question) (tools.Answer, error) {
		asked = append(asked, q)
		return pickGo(ctx, q)
	})
	var log eventLog
	res, err := h.rt.CompleteWith(context.Background(), req, log.add)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engine.StatusCompleted || res.Output != "Go it is" {
		t.Fatalf("got %s %q, want completed %q", res.Status, res.Output, "Go it is")
	}
	if res.Iterations != 2 {
		t.Errorf("iterations: got %d, want 2", res.Iterations)
	}
	if res.Usage.InputTokens != 300 || res.Usage.OutputTokens != 20 {
		t.Errorf("usage: got %d/%d, want 300/20", res.Usage.InputTokens, res.Usage.OutputTokens)
	}
	if len(asked) != 1 || asked[0].Input.Questions[0].ID != "lang" || asked[0].Reply != nil {
		t.Fatalf("asker calls: got %+v, want one question lang without a reply channel", asked)
	}
	term := terminals(log.evs)
	if len(term) != 1 || term[0].Type != engine.EventCompleted || log.evs[len(log.evs)-1].Type != engine.EventCompleted {
		t.Errorf("terminal events: got %v, want one completed event, last", types(term))
	}
	runIDs := map[string]bool{}
	var questions, results int
	for _, ev := range log.evs {
		runIDs[ev.RunID] = true
		switch ev.Type {
		case engine.EventQuestion:
			questions++
			if ev.Question == nil || ev.Question.CallID != asked[0].CallID {
				t.Errorf("question event: got %+v, want call %s", ev.Question, asked[0].CallID)
			}
		case engine.EventToolResult:
			if ev.Call.Name == engine.AskUserTool {
				results++
			}
		}
	}
	if len(runIDs) != 1 || !runIDs[res.RunID] || questions != 1 || results != 1 {
		t.Errorf("got run ids %v (result %s), %d question and %d ask results, want one id, 1 and 1", runIDs, res.RunID, questions, results)
	}
	want := `{"answers":{"lang":"go"},"skipped":false,"other":{}}`
	if got := toolResultFor(res.Messages, engine.AskUserTool); got != want {
		t.Errorf("tool result: got %s, want %s", got, want)
	}
	second := h.rec.request(1)
	if got := second.Messages[len(second.Messages)-1]; got.Role != providers.RoleTool || got.Text() != want {
		t.Errorf("second model call ends with %s %q, want the answer", got.Role, got.Text())
	}
	assertReplayable(t, res.Messages, nil)
}

// TestAskViaEventsAnswersInline answers through the question event's
// Reply channel, as a Stream consumer with its own interface does.
func TestAskViaEventsAnswersInline(t *testing.T) {
	h := askThenAnswer(t)
	req := h.request("pick a language")
	req.AskViaEvents = true
	var evs []engine.Event
	for ev := range h.rt.Stream(context.Background(), req) {
		evs = append(evs, ev)
		if ev.Type == engine.EventQuestion {
			if ev.Question.Reply == nil {
				t.Fatal("question event without a reply channel")
			}
			a, _ := pickGo(context.Background(), *ev.Question)
			ev.Question.Reply <- engine.QuestionReply{Answer: a}
		}
	}
	last := evs[len(evs)-1]
	if last.Type != engine.EventCompleted || len(terminals(evs)) != 1 {
		t.Fatalf("events: got %v, want one terminal completed", types(evs))
	}
	if r := last.Result; r.Iterations != 2 || r.Usage.InputTokens != 300 || r.Output != "Go it is" {
		t.Errorf("result: got %d iterations, %d input tokens, %q; want 2, 300, %q", r.Iterations, r.Usage.InputTokens, r.Output, "Go it is")
	}
}

// TestQuestionCancel: a cancelled question, or an Asker that fails, ends
// the run cancelled with a replayable conversation.
func TestQuestionCancel(t *testing.T) {
	cases := []struct {
		name  string
		asker engine.Asker
		reply *engine.QuestionReply
	}{
		{name: "asker error", asker: engine.AskerFunc(func(context.Context, engine.Question) (tools.Answer, error) {
			return tools.Answer{}, errors.New("terminal went away")
		})},
		{name: "reply cancel", reply: &engine.QuestionReply{Cancel: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := askThenAnswer(t)
			req := h.request("pick a language")
			req.Asker = tc.asker
			req.AskViaEvents = tc.reply != nil
			var log eventLog
			observe := func(ev engine.Event) {
				log.add(ev)
				if ev.Type == engine.EventQuestion && tc.reply != nil {
					ev.Question.Reply <- *tc.reply
				}
			}
			res, err := h.rt.CompleteWith(context.Background(), req, observe)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engine.StatusCancelled || res.Error == nil || res.Error.Code != engine.CodeCancelled {
				t.Fatalf("got %s %+v, want cancelled", res.Status, res.Error)
			}
			if h.rec.calls() != 1 {
				t.Errorf("model calls: got %d, want 1", h.rec.calls())
			}
			if term := terminals(log.evs); len(term) != 1 || term[0].Type != engine.EventCancelled {
				t.Errorf("terminal events: got %v, want one cancelled", types(term))
			}
			if got := toolResultFor(res.Messages, engine.AskUserTool); !strings.HasPrefix(got, "cancelled") {
				t.Errorf("ask result: got %q, want a cancelled result", got)
			}
			assertReplayable(t, res.Messages, nil)
		})
	}
}

// TestInlineAnswerPostAnswerRules: after an inline answer, an unverified
// text finish gets one note and a repeated question is refused once, as
// after a resumed answer.
func TestInlineAnswerPostAnswerRules(t *testing.T) {
	t.Run("unverified text finish", func(t *testing.T) {
		h := newHarness(t, call("ask_user_input", langAsk), say("Go it is."), say("Go it is, as you chose."))
		req := h.request("pick a language")
		req.Asker = engine.AskerFunc(pickGo)
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || res.Output != "Go it is, as you chose." || res.Iterations != 3 {
			t.Fatalf("got %s %q after %d iterations, want the second text accepted after 3", res.Status, res.Output, res.Iterations)
		}
		if got := lastSystem(h.rec.request(2)); !strings.Contains(got, "answered") {
			t.Errorf("note on the third call: got %q, want the post-answer note", got)
		}
	})
	t.Run("repeated question", func(t *testing.T) {
		again := strings.Replace(langAsk, `{"questions"`, `{"allowSkip":true,"questions"`, 1) // not a repeated batch
		h := newHarness(t, call("ask_user_input", langAsk), call("ask_user_input", again), answer("Go"))
		asks := 0
		req := h.request("pick a language")
		req.Asker = engine.AskerFunc(func(ctx context.Context, q engine.Question) (tools.Answer, error) {
			asks++
			return pickGo(ctx, q)
		})
		res := h.complete(req)
		if res.Status != engine.StatusCompleted || asks != 1 {
			t.Fatalf("got %s with %d questions put, want completed with 1", res.Status, asks)
		}
		if got := strings.Join(toolResults(res.Messages), "|"); !strings.Contains(got, "already answered") {
			t.Errorf("results %q should refuse the repeated question", got)
		}
	})
	t.Run("an answer that does not fit", func(t *testing.T) {
		h := newHarness(t, call("ask_user_input", langAsk), answer("unsure"))
		req := h.request("pick a language")
		req.Asker = engine.AskerFunc(func(context.Context, engine.Question) (tools.Answer, error) {
			return tools.Answer{Selected: map[string][]string{"lang": {"cobol"}}}, nil
		})
		res := h.complete(req)
		if got := toolResultFor(res.Messages, engine.AskUserTool); !strings.Contains(got, `no option id "cobol"`) {
			t.Errorf("ask result: got %q, want the resolve error", got)
		}
	})
}

// TestNoAskerPauses: without an Asker the run still stops with the call
// pending.
func TestNoAskerPauses(t *testing.T) {
	h := askThenAnswer(t)
	res := h.complete(h.request("pick a language"))
	if res.Status != engine.StatusToolCalls || len(res.PendingCalls) != 1 || res.Iterations != 1 {
		t.Fatalf("got %s with %d pending after %d iterations, want tool_calls, 1, 1", res.Status, len(res.PendingCalls), res.Iterations)
	}
}

func toolResultFor(msgs []engine.Message, name string) string {
	for _, m := range msgs {
		if m.Role == providers.RoleTool && m.ToolName == name {
			return m.Text()
		}
	}
	return ""
}

// TestExecuteToolCallAsks: outside the loop, ask_user_input takes the same
// path: with an Asker it returns the resolved answer, without one it is
// not run.
func TestExecuteToolCallAsks(t *testing.T) {
	h := newHarness(t)
	call := providers.ToolCall{ID: "q1", Name: engine.AskUserTool, Arguments: langAsk}
	req := engine.Request{WorkDir: h.dir, BuiltIns: []string{engine.AskUserTool}, Asker: engine.AskerFunc(pickGo)}
	if got := h.rt.ExecuteToolCall(context.Background(), call, req); got.IsError || got.Content != `{"answers":{"lang":"go"},"skipped":false,"other":{}}` {
		t.Errorf("with an Asker: got %+v, want the resolved answer", got)
	}
	req.Asker = nil
	if got := h.rt.ExecuteToolCall(context.Background(), call, req); !got.IsError || got.Code != engine.OutcomeNotRun {
		t.Errorf("without an Asker: got %+v, want not_run", got)
	}
}
