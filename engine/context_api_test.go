package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
)

func conversation(turns int, size int) []engine.Message {
	msgs := []engine.Message{engine.SystemMessage("be brief")}
	for i := range turns {
		msgs = append(msgs, engine.UserMessage(strings.Repeat("q", size)+string(rune('a'+i))),
			engine.TextMessage(engine.RoleAssistant, strings.Repeat("a", size)))
	}
	return append(msgs, engine.UserMessage("and now?"))
}

func TestContextReportsTheParts(t *testing.T) {
	seq := &turnSequence{}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"seq": seq}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	req := engine.Request{Provider: "seq", Model: "m", ContextWindow: 50_000, WorkDir: t.TempDir(), Messages: conversation(3, 4000)}
	rep, err := rt.Context(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Window != 50_000 || rep.Tools == 0 || rep.System == 0 {
		t.Fatalf("report %+v", rep)
	}
	// Six messages of 4,000 bytes are about 6,000 tokens.
	if rep.Conversation < 5_500 || rep.Conversation > 6_500 {
		t.Fatalf("conversation %d tokens, want about 6000", rep.Conversation)
	}
	if rep.Total != rep.System+rep.Instructions+rep.Tools+rep.Conversation {
		t.Fatalf("total %d is not the sum of %+v", rep.Total, rep)
	}
	if len(seq.reqs) != 0 {
		t.Fatal("Context called the model")
	}
}

func TestCompactOnDemand(t *testing.T) {
	seq := &turnSequence{}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"seq": seq}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	req := engine.Request{Provider: "seq", Model: "m", ContextWindow: 100_000, WorkDir: t.TempDir(), Messages: conversation(6, 4000)}
	var warned []engine.Event
	res, err := rt.Compact(context.Background(), req, "the test plan", func(ev engine.Event) {
		if ev.Type == engine.EventWarning && ev.Warning.Code == engine.WarningContextCompacted {
			warned = append(warned, ev)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seq.reqs) != 1 || !isSummaryRequest(seq.reqs[0]) || !strings.Contains(seq.reqs[0].Messages[1].Text(), "focus on: the test plan") {
		t.Fatalf("want one summary request with the focus, got %d requests", len(seq.reqs))
	}
	if len(warned) != 1 || len(warned[0].Compacted) != len(res.Messages) {
		t.Fatalf("want one context_compacted warning carrying the conversation, got %d", len(warned))
	}
	last := res.Messages[len(res.Messages)-1]
	if last.Text() != "and now?" || res.Messages[0].Role != engine.RoleSystem {
		t.Fatalf("the system prompt and the latest user message must stay: %+v", res.Messages)
	}
	if !strings.Contains(res.Messages[1].Text(), "SUMMARY: what happened so far") {
		t.Fatalf("summary not in place: %q", res.Messages[1].Text())
	}
	if len(res.Messages) >= len(req.Messages) {
		t.Fatalf("%d messages after compaction, %d before", len(res.Messages), len(req.Messages))
	}
	assertReplayable(t, res.Messages, nil)

	short := engine.Request{Provider: "seq", Model: "m", WorkDir: t.TempDir(), Messages: []engine.Message{engine.UserMessage("hi")}}
	if _, err := rt.Compact(context.Background(), short, "", nil); !errors.Is(err, engine.ErrNothingToCompact) {
		t.Fatalf("compacting one message: %v", err)
	}
}
