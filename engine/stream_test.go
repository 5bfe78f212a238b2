package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

func collect(t *testing.T, h *harness, req engine.Request) []engine.Event {
	t.Helper()
	var evs []engine.Event
	for ev := range h.rt.Stream(context.Background(), req) {
		evs = append(evs, ev)
	}
	return evs
}

func types(evs []engine.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = string(ev.Type)
	}
	return out
}

// TestEventSequence checks the order of a two-iteration run and that
// exactly one terminal event comes last, carrying the Result.
func TestEventSequence(t *testing.T) {
	h := newHarness(t,
		scripted.Turn{Reasoning: "need the file", Text: "Reading.", ToolCalls: []scripted.Call{c("peek", `{"x":"a"}`)},
			Usage: &providers.Usage{InputTokens: 10, OutputTokens: 5}},
		scripted.Turn{ToolCalls: []scripted.Call{c("final_answer", `{"answer":"Line one\nsaid \"hi\" \u00e9"}`)}})
	ct := &counterTool{}
	req := h.request("go")
	req.Tools = []engine.Tool{ct.tool("peek", tools.KindRead)}
	evs := collect(t, h, req)
	got := strings.Join(types(evs), " ")
	want := "run_start model_start reasoning_delta reasoning_delta reasoning_delta text_delta tool_call_delta usage assistant_message " +
		"tool_start tool_result model_start tool_call_delta answer_delta tool_call_delta answer_delta tool_call_delta answer_delta assistant_message tool_result completed"
	if got != want {
		t.Errorf("event types:\n got %s\nwant %s", got, want)
	}
	terminals := 0
	runID := evs[0].RunID
	for i, ev := range evs {
		if ev.Type.Terminal() {
			terminals++
			if i != len(evs)-1 || ev.Result == nil {
				t.Errorf("terminal event %s at %d of %d (result %v)", ev.Type, i, len(evs), ev.Result != nil)
			}
		}
		if ev.RunID != runID || ev.Time.IsZero() {
			t.Errorf("event %d: run id %q, time %v", i, ev.RunID, ev.Time)
		}
	}
	if terminals != 1 {
		t.Errorf("got %d terminal events, want 1", terminals)
	}
	var streamed strings.Builder
	for _, ev := range evs {
		if ev.Type == engine.EventAnswerDelta {
			streamed.WriteString(ev.Delta)
		}
	}
	final := evs[len(evs)-1].Result
	if streamed.String() != final.Output || final.Output != "Line one\nsaid \"hi\" é" {
		t.Errorf("answer deltas %q, output %q", streamed.String(), final.Output)
	}
	if evs[len(evs)-3].Iteration != 2 || evs[1].Iteration != 1 {
		t.Errorf("iterations: got %d and %d, want 1 then 2", evs[1].Iteration, evs[len(evs)-3].Iteration)
	}
	// Every stored message appeared as an event.
	var fromEvents int
	for _, ev := range evs {
		switch ev.Type {
		case engine.EventAssistantMessage, engine.EventToolResult, engine.EventToolError:
			fromEvents++
		}
	}
	if want := len(final.Messages) - 1; fromEvents != want {
		t.Errorf("got %d message events, want %d (every message but the prompt)", fromEvents, want)
	}
	for _, ev := range evs {
		if _, err := json.Marshal(ev); err != nil {
			t.Errorf("event %s does not marshal: %v", ev.Type, err)
		}
	}
}

func TestTerminalEventPerStatus(t *testing.T) {
	cases := []struct {
		turns []scripted.Turn
		want  engine.EventType
	}{
		{[]scripted.Turn{answer("x")}, engine.EventCompleted},
		{[]scripted.Turn{call("blocked", `{"reason":"r"}`)}, engine.EventFailed},
		{[]scripted.Turn{call("ask", `{}`)}, engine.EventToolCalls},
		{[]scripted.Turn{{Error: &scripted.TurnError{Status: 401, Message: "bad key"}}}, engine.EventFailed},
	}
	for _, tc := range cases {
		h := newHarness(t, tc.turns...)
		req := h.request("go")
		req.Tools = []engine.Tool{{Name: "ask", Kind: tools.KindRead, Schema: json.RawMessage(`{"type":"object"}`)}}
		evs := collect(t, h, req)
		last := evs[len(evs)-1]
		if last.Type != tc.want || last.Result == nil || last.Result.Status == "" {
			t.Errorf("got terminal %s, want %s", last.Type, tc.want)
		}
	}
}

// TestStoppingTheStreamCancelsTheRun breaks out of the range loop during a
// slow reply; the provider must see its context cancelled.
func TestStoppingTheStreamCancelsTheRun(t *testing.T) {
	h := newHarness(t, scripted.Turn{Text: "one two three four five six seven", ChunkDelayMS: 200})
	n := 0
	for ev := range h.rt.Stream(context.Background(), h.request("go")) {
		if ev.Type == engine.EventTextDelta {
			n++
			break
		}
	}
	if n != 1 {
		t.Fatalf("expected to stop after the first delta")
	}
	// The range loop returns only once the run has ended, so the provider
	// has already returned: with the context's error, not a full reply.
	if err := h.rec.lastErr(); !errors.Is(err, context.Canceled) {
		t.Errorf("the provider call should end cancelled, got %v", err)
	}
}

func TestStreamMisuseYieldsFailed(t *testing.T) {
	h := newHarness(t)
	req := h.request("go")
	req.Model = ""
	evs := collect(t, h, req)
	if len(evs) != 1 || evs[0].Type != engine.EventFailed || evs[0].Result.Error.Code != engine.CodeInvalidRequest {
		t.Fatalf("got %v", types(evs))
	}
}

func TestGenerate(t *testing.T) {
	h := newHarness(t, scripted.Turn{Text: "hello", ToolCalls: []scripted.Call{c("read_file", `{"path":"x"}`)}})
	resp, err := h.rt.Generate(context.Background(), h.request("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "hello" || len(resp.Message.ToolCalls) != 1 || resp.Stop != providers.StopToolCalls {
		t.Errorf("got %+v", resp)
	}
	sent := h.rec.request(0)
	for _, tl := range sent.Tools {
		if tl.Name == "final_answer" {
			t.Errorf("Generate must not offer control tools")
		}
	}
	if len(sent.Messages) != 1 || sent.Messages[0].Role != providers.RoleUser {
		t.Errorf("Generate must send the messages as given, got %d messages", len(sent.Messages))
	}
	if _, err := h.rt.Generate(context.Background(), h.request("again")); err == nil || !strings.Contains(err.Error(), "no scripted reply") {
		t.Errorf("past the script: got %v", err)
	}
}

// BenchmarkStreamIteration is BenchmarkLoopIteration through Stream: the
// same 100-iteration run (two concurrent read calls per iteration), its events delivered to a range loop, so the
// cost of handing events to the iterating goroutine shows per iteration.
func BenchmarkStreamIteration(b *testing.B) {
	const iterations = 100
	turns := make([]scripted.Turn, 0, iterations)
	for i := 0; i < iterations-1; i++ {
		// Two read calls: a concurrent batch, whose results come from
		// tool goroutines.
		turns = append(turns, scripted.Turn{ToolCalls: []scripted.Call{
			c("step", fmt.Sprintf(`{"x":"a%d"}`, i)), c("step", fmt.Sprintf(`{"x":"b%d"}`, i))},
			Usage: &providers.Usage{InputTokens: 100, OutputTokens: 10}})
	}
	turns = append(turns, answer("done"))
	sp := scripted.New()
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"s": sp}})
	if err != nil {
		b.Fatal(err)
	}
	ct := &counterTool{}
	dir := b.TempDir()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sp.Register("bench", &scripted.Script{Turns: turns})
		req := engine.Request{
			Provider: "s", Model: "bench", WorkDir: dir, MaxIterations: iterations,
			BuiltIns: []string{}, Tools: []engine.Tool{ct.tool("step", tools.KindRead)},
			Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "go")},
		}
		b.StartTimer()
		var last engine.Event
		for ev := range rt.Stream(context.Background(), req) {
			last = ev
		}
		if last.Result == nil || last.Result.Status != engine.StatusCompleted || last.Result.Iterations != iterations {
			b.Fatalf("got %+v", last.Result)
		}
	}
	b.StopTimer()
	perIter := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / iterations
	b.ReportMetric(perIter, "ns/iter")
}
