package engine_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// cut returns turn t made to break off with a retryable 502 after its
// reasoning and text (header false) or after the start of its first tool
// call with argBytes of its arguments (header true).
func cut(t scripted.Turn, header bool, argBytes int) scripted.Turn {
	t.Error = &scripted.TurnError{Status: 502, Message: "upstream reset", AfterOutput: !header, AfterCallHeader: header, ArgumentBytes: argBytes}
	return t
}

// consumer applies the stream_restarted contract the way a stream-json
// reader would: it buffers each model call's deltas, drops them on
// model_start and on a stream_restarted warning, and checks that what it
// kept is exactly each completed reply.
type consumer struct {
	t         *testing.T
	text      strings.Builder
	calls     map[int]string // tool call index → name
	args      map[int]*strings.Builder
	answer    strings.Builder // answer_delta over the whole run
	restarts  int
	completed int // assistant_message events
}

func (c *consumer) reset() {
	c.text.Reset()
	c.calls, c.args = map[int]string{}, map[int]*strings.Builder{}
}

func (c *consumer) event(ev engine.Event) {
	switch ev.Type {
	case engine.EventModelStart:
		c.reset()
	case engine.EventWarning:
		if ev.Warning.Code == engine.WarningStreamRestarted {
			c.restarts++
			c.reset()
		}
	case engine.EventTextDelta:
		c.text.WriteString(ev.Delta)
	case engine.EventToolCallDelta:
		if ev.Call.Name != "" {
			c.calls[ev.Call.Index] = ev.Call.Name
		}
		if c.args[ev.Call.Index] == nil {
			c.args[ev.Call.Index] = &strings.Builder{}
		}
		c.args[ev.Call.Index].WriteString(ev.Delta)
	case engine.EventAnswerDelta:
		c.answer.WriteString(ev.Delta)
	case engine.EventAssistantMessage:
		c.completed++
		m := ev.Message
		if got := c.text.String(); got != m.Text() {
			c.t.Errorf("kept text deltas %q, want the reply's text %q", got, m.Text())
		}
		if len(c.calls) != len(m.ToolCalls) {
			c.t.Errorf("kept %d tool calls %v, want the reply's %d", len(c.calls), c.calls, len(m.ToolCalls))
		}
		for i, tc := range m.ToolCalls {
			if c.calls[i] != tc.Name || c.args[i] == nil || c.args[i].String() != tc.Arguments {
				c.t.Errorf("kept call %d %s(%v), want %s(%s)", i, c.calls[i], c.args[i], tc.Name, tc.Arguments)
			}
		}
	}
}

// TestStreamRestart: a stream that breaks off before any answer text is
// restarted within the retry budget behind a stream_restarted warning; a
// consumer that drops the call's deltas on it sees each reply exactly once;
// a cut after answer text fails the run.
func TestStreamRestart(t *testing.T) {
	peek := scripted.Call{Name: "peek", Arguments: []byte(`{"x":"a"}`)}
	cases := []struct {
		name     string
		turns    []scripted.Turn
		finish   engine.FinishPolicy
		status   engine.Status
		code     engine.ErrorCode
		output   string
		calls    int // model requests
		restarts int
	}{
		{name: "cut after a final_answer header",
			turns:  []scripted.Turn{cut(answer("first try"), true, 0), answer("done")},
			status: engine.StatusCompleted, output: "done", calls: 2, restarts: 1},
		{name: "cut after a final_answer header and its key, before answer text",
			turns:  []scripted.Turn{cut(answer("first try"), true, len(`{"answer":"`)), answer("done")},
			status: engine.StatusCompleted, output: "done", calls: 2, restarts: 1},
		{name: "cut after a read call header",
			turns:  []scripted.Turn{cut(scripted.Turn{ToolCalls: []scripted.Call{peek}}, true, 4), answer("done")},
			status: engine.StatusCompleted, output: "done", calls: 2, restarts: 1},
		{name: "cut after a header in a later call",
			turns:  []scripted.Turn{call("peek", `{"x":"b"}`), cut(answer("first try"), true, 0), answer("done")},
			status: engine.StatusCompleted, output: "done", calls: 3, restarts: 1},
		{name: "cut after reasoning",
			turns:  []scripted.Turn{cut(scripted.Turn{Reasoning: "let me think about it"}, false, 0), answer("done")},
			status: engine.StatusCompleted, output: "done", calls: 2, restarts: 1},
		{name: "cut after narration in evidence mode",
			turns:  []scripted.Turn{cut(scripted.Turn{Text: "I will look at the files."}, false, 0), answer("done")},
			status: engine.StatusCompleted, output: "done", calls: 2, restarts: 1},
		{name: "cut after text with the text finish policy",
			turns:  []scripted.Turn{cut(say("The answer is"), false, 0), say("The answer is 42.")},
			finish: engine.FinishText, status: engine.StatusCompleted, output: "The answer is 42.", calls: 2, restarts: 1},
		{name: "cut after reasoning, text and a call header",
			turns:  []scripted.Turn{cut(scripted.Turn{Reasoning: "hmm", Text: "Checking.", ToolCalls: []scripted.Call{peek}}, true, 3), answer("done")},
			status: engine.StatusCompleted, output: "done", calls: 2, restarts: 1},
		{name: "two restarts in one call stay within three attempts",
			turns:  []scripted.Turn{cut(answer("a"), true, 0), cut(say("b"), false, 0), answer("done")},
			status: engine.StatusCompleted, output: "done", calls: 3, restarts: 2},
		{name: "a cut after answer text is fatal",
			turns:  []scripted.Turn{cut(answer("the answer is 42"), true, len(`{"answer":"the ans`)), answer("never")},
			status: engine.StatusFailed, code: engine.CodeProviderError, calls: 1},
		{name: "a stream that always breaks off fails after the attempts",
			turns: []scripted.Turn{cut(answer("a"), true, 0), cut(answer("a"), true, 0), cut(answer("a"), true, 0),
				answer("never")},
			status: engine.StatusFailed, code: engine.CodeProviderError, calls: 3, restarts: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.turns...)
			req := h.request("do the task")
			req.Retry = providers.RetryPolicy{BaseDelay: 1}
			req.Finish = tc.finish
			ct := &counterTool{}
			req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
			con := &consumer{t: t}
			con.reset()
			var res *engine.Result
			for ev := range h.rt.Stream(t.Context(), req) {
				con.event(ev)
				if ev.Type.Terminal() {
					res = ev.Result
				}
			}
			if res == nil {
				t.Fatal("no terminal event")
			}
			if res.Status != tc.status {
				t.Fatalf("status: got %s (error %+v), want %s", res.Status, res.Error, tc.status)
			}
			if res.Error != nil && res.Error.Code != tc.code || res.Error == nil && tc.code != "" {
				t.Errorf("error: got %+v, want code %q", res.Error, tc.code)
			}
			if res.Output != tc.output {
				t.Errorf("output: got %q, want %q", res.Output, tc.output)
			}
			if n := h.rec.calls(); n != tc.calls {
				t.Errorf("model requests: got %d, want %d", n, tc.calls)
			}
			if con.restarts != tc.restarts {
				t.Errorf("stream_restarted warnings: got %d, want %d", con.restarts, tc.restarts)
			}
			if tc.status == engine.StatusCompleted && tc.finish != engine.FinishText && con.answer.String() != tc.output {
				t.Errorf("answer deltas: got %q, want the answer once, %q", con.answer.String(), tc.output)
			}
			// A restarted call is sent again as it was: the cut attempt
			// left nothing in the conversation.
			replies := 0
			for _, m := range res.Messages {
				if m.Role == providers.RoleAssistant {
					replies++
				}
			}
			if replies != con.completed {
				t.Errorf("assistant messages: got %d, want one per completed call (%d)", replies, con.completed)
			}
			for i := 1; i < h.rec.calls(); i++ {
				prev, cur := h.rec.request(i-1), h.rec.request(i)
				if h.rec.errs[i-1] != nil && len(cur.Messages) != len(prev.Messages) {
					t.Errorf("request %d after a cut: got %d messages, want the %d of the cut attempt", i+1, len(cur.Messages), len(prev.Messages))
				}
			}
			if tc.restarts > 0 {
				w := findWarning(res.Warnings, engine.WarningStreamRestarted)
				if w == nil || !strings.Contains(w.Message, "upstream reset") || !strings.Contains(w.Message, "attempt 2 of 3") {
					t.Errorf("Result.Warnings: got %+v, want a stream_restarted warning naming the error and the attempt", res.Warnings)
				}
				if findWarning(res.Warnings, "provider_retry") != nil {
					t.Errorf("Result.Warnings: got %+v, want no provider_retry beside stream_restarted", res.Warnings)
				}
			}
		})
	}
}

func findWarning(ws []engine.Warning, code string) *engine.Warning {
	for i := range ws {
		if ws[i].Code == code {
			return &ws[i]
		}
	}
	return nil
}

// sequence is a provider that plays its steps one per call, whatever the
// conversation holds.
type sequence struct {
	mu    sync.Mutex
	steps []func(emit func(providers.Chunk)) error
	n     int
}

func (s *sequence) Name() string { return "seq" }

func (s *sequence) Stream(_ context.Context, _ *providers.Request, emit func(providers.Chunk)) error {
	s.mu.Lock()
	step := s.steps[min(s.n, len(s.steps)-1)]
	s.n++
	s.mu.Unlock()
	return step(emit)
}

// TestStreamRestartEveryTime: two calls of one run cut the same way get a
// stream_restarted event each, though the warnings are identical; the run's
// Result lists the warning once.
func TestStreamRestartEveryTime(t *testing.T) {
	reset := &providers.Error{Provider: "seq", StatusCode: 502, Message: "upstream reset", Retryable: true}
	header := func(emit func(providers.Chunk)) error {
		emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{ID: "c1", Name: engine.FinalAnswerTool}})
		return reset
	}
	reply := func(name, args string) func(func(providers.Chunk)) error {
		return func(emit func(providers.Chunk)) error {
			emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{ID: "c2", Name: name, Arguments: args}})
			emit(providers.Chunk{Type: providers.ChunkStop, Stop: providers.StopToolCalls})
			return nil
		}
	}
	seq := &sequence{steps: []func(func(providers.Chunk)) error{
		header, reply("peek", `{"x":"a"}`), header, reply(engine.FinalAnswerTool, `{"answer":"done"}`),
	}}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": seq}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	ct := &counterTool{}
	req := engine.Request{Provider: "fake", Model: "m", WorkDir: t.TempDir(),
		Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "go")},
		Tools:    []engine.Tool{ct.tool("peek", tools.KindRead)},
		Retry:    providers.RetryPolicy{BaseDelay: 1}}
	con := &consumer{t: t}
	con.reset()
	var res *engine.Result
	for ev := range rt.Stream(t.Context(), req) {
		con.event(ev)
		if ev.Type.Terminal() {
			res = ev.Result
		}
	}
	if res == nil || res.Status != engine.StatusCompleted || res.Output != "done" {
		t.Fatalf("got %+v, want completed with \"done\"", res)
	}
	if con.restarts != 2 || con.answer.String() != "done" {
		t.Errorf("got %d stream_restarted events and answer %q, want 2 and \"done\"", con.restarts, con.answer.String())
	}
	n := 0
	for _, w := range res.Warnings {
		if w.Code == engine.WarningStreamRestarted {
			n++
		}
	}
	if n != 1 {
		t.Errorf("Result.Warnings: got %d stream_restarted, want the identical warning listed once", n)
	}
}

// TestCompleteRestartsUnseenAnswer: Complete without an observer shows
// nobody the answer text, so a stream cut inside final_answer after some of
// it is restarted like any other cut; with an observer that text may have
// been shown, and the cut stays fatal. A sub-run sees through its parent:
// under Complete its cut answer is restarted too.
func TestCompleteRestartsUnseenAnswer(t *testing.T) {
	cutAnswer := cut(answer("the answer is 42"), true, len(`{"answer":"the ans`))
	cases := []struct {
		name    string
		observe bool // CompleteWith with an observer, else Complete
		spawn   bool // the cut is in a sub-run's call
		status  engine.Status
		output  string
		result  string // the spawn_agent result the parent's model saw
	}{
		{name: "Complete", status: engine.StatusCompleted, output: "done"},
		{name: "CompleteWith an observer", observe: true, status: engine.StatusFailed},
		{name: "a sub-run under Complete", spawn: true,
			status: engine.StatusCompleted, output: "parent done", result: "spawn_agent:false:done"},
		{name: "a sub-run under CompleteWith an observer", spawn: true, observe: true,
			status: engine.StatusCompleted, output: "parent done", result: "spawn_agent:true:the sub-agent failed (provider_error): scripted: 502 from test: upstream reset"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := routed{"do the task": script(cutAnswer, answer("done"))}
			if tc.spawn {
				r = routed{
					"do the task":     script(calls(spawnCall("find the answer")), answer("parent done")),
					"find the answer": script(cutAnswer, answer("done")),
				}
			}
			rt := spawnRuntime(t, r, 0)
			req := spawnRequest(t, "do the task")
			req.Retry = providers.RetryPolicy{BaseDelay: 1}
			var res engine.Result
			var err error
			if tc.observe {
				res, err = rt.CompleteWith(t.Context(), req, func(engine.Event) {})
			} else {
				res, err = rt.Complete(t.Context(), req)
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.status || res.Output != tc.output {
				t.Fatalf("got %s %q (error %+v), want %s %q", res.Status, res.Output, res.Error, tc.status, tc.output)
			}
			switch {
			case tc.spawn:
				if got := toolResults(res.Messages); len(got) != 2 || got[0] != tc.result {
					t.Errorf("tool results: got %q, want %q first", got, tc.result)
				}
			case tc.status == engine.StatusFailed:
				if res.Error == nil || res.Error.Code != engine.CodeProviderError {
					t.Errorf("error: got %+v, want provider_error", res.Error)
				}
			default:
				if findWarning(res.Warnings, engine.WarningStreamRestarted) == nil {
					t.Errorf("Result.Warnings: got %+v, want stream_restarted", res.Warnings)
				}
			}
		})
	}
}
