package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// turnSequence plays its turns in call order, whatever the conversation
// holds (the scripted provider picks a turn by counting assistant
// messages, which compaction changes), answers every summary request with
// a summary of its own, and records every request.
type turnSequence struct {
	mu    sync.Mutex
	turns []scripted.Turn
	reqs  []providers.Request
}

func (*turnSequence) Name() string { return "scripted" }

func (s *turnSequence) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	s.mu.Lock()
	cp := *req
	cp.Messages = append([]providers.Message(nil), req.Messages...)
	s.reqs = append(s.reqs, cp)
	i := 0
	for _, r := range s.reqs {
		if !isSummaryRequest(r) {
			i++
		}
	}
	i--
	s.mu.Unlock()
	turn := scripted.Turn{Text: "SUMMARY: what happened so far"}
	if !isSummaryRequest(cp) {
		if i >= len(s.turns) {
			return fmt.Errorf("no turn %d", i+1)
		}
		turn = s.turns[i]
	}
	p := scripted.New()
	p.Register("one", &scripted.Script{Turns: []scripted.Turn{turn}})
	return p.Stream(ctx, &providers.Request{Model: "one"}, emit)
}

func isSummaryRequest(r providers.Request) bool {
	return len(r.Messages) > 0 && strings.Contains(r.Messages[0].Text(), "You are compacting a conversation")
}

// bigTool returns n bytes of text per call.
func bigTool(n int) engine.Tool {
	return engine.Tool{
		Name: "big", Description: "returns a lot", Kind: tools.KindRead,
		Schema: json.RawMessage(`{"type":"object","properties":{"i":{"type":"integer"}}}`),
		Execute: func(_ context.Context, raw json.RawMessage) (tools.Result, error) {
			return tools.Text(strings.Repeat("data ", n/5)), nil
		},
	}
}

func compactionRun(t *testing.T, window int, turns ...scripted.Turn) (*turnSequence, engine.Result, []engine.Event) {
	t.Helper()
	seq := &turnSequence{turns: turns}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"seq": seq}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	var log eventLog
	res, err := rt.CompleteWith(context.Background(), engine.Request{
		Provider: "seq", Model: "m", WorkDir: t.TempDir(), BuiltIns: []string{}, MaxIterations: 20,
		ContextWindow: window, Tools: []engine.Tool{bigTool(2000)},
		Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "gather the data")},
	}, log.add)
	if err != nil {
		t.Fatal(err)
	}
	return seq, res, log.evs
}

func bigCall(i int) scripted.Turn {
	return calls(scripted.Call{Name: "big", Arguments: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))})
}

// TestCompactionAtTheThreshold: a conversation that grows past 85% of the
// window is summarised before the call that would pass it, not earlier,
// keeps every call with its result, and stays under the window.
func TestCompactionAtTheThreshold(t *testing.T) {
	const window = 2_000 // tokens; each big result is about 500
	seq, res, evs := compactionRun(t, window, bigCall(1), bigCall(2), bigCall(3), bigCall(4), bigCall(5), answer("done"))
	if res.Status != engine.StatusCompleted {
		t.Fatalf("status %s %+v", res.Status, res.Error)
	}
	first := -1
	for i, r := range seq.reqs {
		if isSummaryRequest(r) {
			if first < 0 {
				first = i
			}
			continue
		}
		if n := textTokens(r); n > window {
			t.Errorf("request %d is about %d tokens, over the window of %d", i+1, n, window)
		}
	}
	// Two results (about 1,300 tokens with the system prompt) fit under
	// 85%; the third would not.
	if first != 3 {
		t.Fatalf("the first summary should be the 4th call, after three results, not %d", first+1)
	}
	if prev := textTokens(seq.reqs[first-1]); prev > window*85/100 {
		t.Errorf("the call before the compaction was already %d tokens, over the threshold", prev)
	}
	if !strings.Contains(fmt.Sprint(seq.reqs[first+1].Messages), "SUMMARY: what happened so far") {
		t.Errorf("the next request should continue from the summary")
	}
	var warned *engine.Event
	for i, ev := range evs {
		if ev.Type == engine.EventWarning && ev.Warning.Code == engine.WarningContextCompacted {
			warned = &evs[i]
		}
	}
	if warned == nil || len(warned.Compacted) == 0 || !strings.Contains(warned.Warning.Message, "before") {
		t.Fatalf("want a context_compacted warning carrying the new conversation, got %+v", warned)
	}
	assertReplayable(t, res.Messages, nil)
	if res.Messages[0].Text() != "gather the data" {
		t.Errorf("the user's request should be kept verbatim first: %+v", res.Messages[0])
	}
}

// textTokens is the size of a request as the engine estimates it: about
// four bytes of text a token.
func textTokens(r providers.Request) int {
	n := 0
	for _, m := range r.Messages {
		n += len(m.Text()) + 16
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	for _, t := range r.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return n / 4
}

// TestNoCompactionBelowTheThreshold: a conversation well inside the window
// is sent whole.
func TestNoCompactionBelowTheThreshold(t *testing.T) {
	seq, res, _ := compactionRun(t, 100_000, bigCall(1), bigCall(2), bigCall(3), answer("done"))
	if res.Status != engine.StatusCompleted {
		t.Fatal(res.Status)
	}
	for _, r := range seq.reqs {
		if isSummaryRequest(r) {
			t.Fatal("compacted below the threshold")
		}
	}
}

// TestCompactionKeepsTheLatestUserMessage: the newest user message and the
// call/result pairs after it survive verbatim.
func TestCompactionKeepsTheLatestUserMessage(t *testing.T) {
	seq := &turnSequence{turns: []scripted.Turn{bigCall(9), answer("done")}}
	rt, _ := engine.New(engine.Config{Providers: map[string]providers.Provider{"seq": seq}})
	defer rt.Close()
	var history []engine.Message
	for i := 0; i < 4; i++ {
		c := engine.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "big", Arguments: "{}"}
		history = append(history,
			providers.TextMessage(providers.RoleUser, fmt.Sprintf("question %d", i)),
			engine.Message{Role: providers.RoleAssistant, ToolCalls: []engine.ToolCall{c}},
			providers.ToolResultMessage(c, strings.Repeat("x", 2000), false),
			providers.TextMessage(providers.RoleAssistant, fmt.Sprintf("answer %d", i)))
	}
	latest := "the latest question, kept as it is " + strings.Repeat("y", 400)
	history = append(history, providers.TextMessage(providers.RoleUser, latest))
	res, err := rt.Complete(context.Background(), engine.Request{
		Provider: "seq", Model: "m", WorkDir: t.TempDir(), BuiltIns: []string{}, ContextWindow: 2_000,
		Tools: []engine.Tool{bigTool(100)}, Messages: history,
	})
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status, res.Error)
	}
	if !isSummaryRequest(seq.reqs[0]) {
		t.Fatal("the oversized history should be compacted before the first call")
	}
	if tr := seq.reqs[0].Messages[1].Text(); !strings.Contains(tr, "User: question 0") || !strings.Contains(tr, "Result of big: xxx") || !strings.Contains(tr, "Agent: answer 0") {
		t.Errorf("the summary request should hold the older turns as a transcript: %.500s", tr)
	}
	found := false
	calls := map[string]bool{}
	for _, m := range seq.reqs[1].Messages {
		if m.Role == providers.RoleUser && m.Text() == latest {
			found = true
		}
		for _, c := range m.ToolCalls {
			calls[c.ID] = true
		}
		if m.Role == providers.RoleTool && !calls[m.ToolCallID] {
			t.Errorf("a tool result was kept without its call: %s", m.ToolCallID)
		}
		if m.Text() == "question 0" {
			t.Error("the oldest turn should have been summarised")
		}
	}
	if !found {
		t.Error("the latest user message should be kept verbatim")
	}
	assertReplayable(t, res.Messages, nil)
}

// TestTooLongIsCompactedOnce: a provider's context-length refusal leads to
// one compaction and one retry; a second refusal fails the run saying
// what to do.
func TestTooLongIsCompactedOnce(t *testing.T) {
	tooLong := &scripted.TurnError{Status: 400, Message: "This model's maximum context length is 8192 tokens"}
	seq, res, _ := compactionRun(t, 1_000_000,
		bigCall(1), bigCall(2),
		scripted.Turn{Error: tooLong}, answer("done"))
	if res.Status != engine.StatusCompleted || len(seq.reqs) != 5 || !isSummaryRequest(seq.reqs[3]) {
		t.Fatalf("want refusal, summary, retry: %s after %d calls", res.Status, len(seq.reqs))
	}
	seq, res, _ = compactionRun(t, 1_000_000,
		bigCall(1), bigCall(2),
		scripted.Turn{Error: tooLong}, scripted.Turn{Error: tooLong}, answer("never"))
	if res.Status != engine.StatusFailed || len(seq.reqs) != 5 || !strings.Contains(res.Error.Message, "even after compaction") {
		t.Fatalf("a second refusal should fail the run once: %s after %d calls: %+v", res.Status, len(seq.reqs), res.Error)
	}
}

// TestCompactionKeepsAnAnsweredQuestion: a run resumed with the answer to
// its pending ask_user_input call keeps the call and the answer verbatim
// when the older history is compacted.
func TestCompactionKeepsAnAnsweredQuestion(t *testing.T) {
	seq := &turnSequence{turns: []scripted.Turn{answer("done")}}
	rt, _ := engine.New(engine.Config{Providers: map[string]providers.Provider{"seq": seq}})
	defer rt.Close()
	var history []engine.Message
	for i := 0; i < 4; i++ {
		history = append(history,
			providers.TextMessage(providers.RoleUser, fmt.Sprintf("question %d %s", i, strings.Repeat("z", 2000))),
			providers.TextMessage(providers.RoleAssistant, fmt.Sprintf("answer %d", i)))
	}
	ask := engine.ToolCall{ID: "ask1", Name: engine.AskUserTool, Arguments: `{"questions":[{"id":"db","header":"DB","question":"Which database?","options":[{"id":"pg","label":"Postgres"},{"id":"my","label":"MySQL"}]}]}`}
	history = append(history,
		providers.TextMessage(providers.RoleUser, "set up the database"),
		engine.Message{Role: providers.RoleAssistant, ToolCalls: []engine.ToolCall{ask}},
		providers.ToolResultMessage(ask, `{"answers":{"db":"pg"}}`, false))
	res, err := rt.Complete(context.Background(), engine.Request{
		Provider: "seq", Model: "m", WorkDir: t.TempDir(), BuiltIns: []string{}, ContextWindow: 2_000, Messages: history,
	})
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status, res.Error)
	}
	if !isSummaryRequest(seq.reqs[0]) {
		t.Fatal("the history should be compacted first")
	}
	var call, result bool
	for _, m := range seq.reqs[1].Messages {
		for _, c := range m.ToolCalls {
			call = call || (c.ID == "ask1" && c.Arguments == ask.Arguments)
		}
		result = result || (m.ToolCallID == "ask1" && m.Text() == `{"answers":{"db":"pg"}}`)
	}
	if !call || !result {
		t.Errorf("the answered question should survive verbatim: call %v, answer %v", call, result)
	}
	assertReplayable(t, res.Messages, nil)
}
