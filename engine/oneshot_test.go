package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
)

// TestOneShot: Generate, Complete and Stream as functions take the
// providers of one call as a map, with no Runtime to keep: the request
// picks one by name (the only one when it names none), and a name the map
// does not hold is the usual misuse error.
func TestOneShot(t *testing.T) {
	ctx := context.Background()
	a, b := scripted.New(), scripted.New()
	a.Register("m", &scripted.Script{Turns: []scripted.Turn{say("from a")}})
	b.Register("m", &scripted.Script{Turns: []scripted.Turn{say("from b"), answer("b answers"), say("b streams")}})
	both := map[string]engine.Provider{"a": a, "b": b}
	msgs := []engine.Message{engine.UserMessage("hi")}

	resp, err := engine.Generate(ctx, both, engine.Request{Provider: "a", Model: "m", Messages: msgs})
	if err != nil || resp.Message.Text() != "from a" {
		t.Errorf("Generate: got %q, %v; want from a", resp.Message.Text(), err)
	}
	resp, err = engine.Generate(ctx, both, engine.Request{Provider: "b", Model: "m", Messages: msgs})
	if err != nil || resp.Message.Text() != "from b" {
		t.Errorf("Generate: got %q, %v; want from b", resp.Message.Text(), err)
	}
	res, err := engine.Complete(ctx, map[string]engine.Provider{"b": b}, engine.Request{Model: "m", Messages: append(msgs, engine.TextMessage(engine.RoleAssistant, "x"))})
	if err != nil || res.Status != engine.StatusCompleted || res.Output != "b answers" {
		t.Errorf("Complete with the only provider: got %s %q %v, want completed %q", res.Status, res.Output, err, "b answers")
	}
	var last engine.Event
	req := engine.Request{Provider: "b", Model: "m", Finish: engine.FinishText, BuiltIns: []string{},
		Messages: append(msgs, engine.TextMessage(engine.RoleAssistant, "x"), engine.TextMessage(engine.RoleAssistant, "y"))}
	for ev := range engine.Stream(ctx, both, req) {
		last = ev
	}
	if last.Type != engine.EventCompleted || last.Result.Output != "b streams" {
		t.Errorf("Stream: got %s %+v, want completed %q", last.Type, last.Result, "b streams")
	}
	if _, err := engine.Complete(ctx, both, engine.Request{Provider: "c", Model: "m", Messages: msgs}); !errors.Is(err, engine.ErrNoProvider) {
		t.Errorf("unknown provider: got %v, want ErrNoProvider", err)
	}
	if _, err := engine.Complete(ctx, both, engine.Request{Model: "m", Messages: msgs}); !errors.Is(err, engine.ErrNoProvider) {
		t.Errorf("no provider named among two: got %v, want ErrNoProvider", err)
	}
}
