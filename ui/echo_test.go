package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// TestChatShowsAnAnswerOnce: a model that answers in text and then gives
// the same answer again (as text, or through final_answer, in the same
// reply or the next) is shown once; an answer that only starts like the
// text is shown whole.
func TestChatShowsAnAnswerOnce(t *testing.T) {
	const said = "The answer is 42."
	msg := func(s string) *engine.Message { m := engine.TextMessage(engine.RoleAssistant, s); return &m }
	reply := func(typ engine.EventType, s string) []engine.Event {
		evs := []engine.Event{{Type: engine.EventModelStart}}
		evs = append(evs, deltas(typ, s, 5)...)
		text := ""
		if typ == engine.EventTextDelta {
			text = s
		}
		return append(evs, engine.Event{Type: engine.EventAssistantMessage, Message: msg(text)})
	}
	cases := []struct {
		name    string
		replies [][]engine.Event
		output  string
		want    map[string]int
	}{
		{"text then final_answer", [][]engine.Event{reply(engine.EventTextDelta, said), reply(engine.EventAnswerDelta, said)}, said,
			map[string]int{said: 1}},
		{"text twice", [][]engine.Event{reply(engine.EventTextDelta, said), reply(engine.EventTextDelta, "\n"+said+"\n")}, said,
			map[string]int{said: 1}},
		{"an answer that goes on", [][]engine.Event{reply(engine.EventTextDelta, said), reply(engine.EventAnswerDelta, said+" Also 43.")}, said + " Also 43.",
			map[string]int{said: 2, "Also 43.": 1}},
		{"a shorter text", [][]engine.Event{reply(engine.EventTextDelta, said), reply(engine.EventTextDelta, "The answer")}, "The answer",
			map[string]int{"The answer": 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &fakeHost{turn: func(ctx context.Context, tr Turn) error {
				play(tr, engine.Event{Type: engine.EventRunStart})
				for _, r := range tc.replies {
					play(tr, r...)
				}
				res := engine.Result{Status: engine.StatusCompleted, Output: tc.output}
				play(tr, engine.Event{Type: engine.EventCompleted, Result: &res})
				return nil
			}}
			d := newDriver(t, h, 80, 24)
			d.typeText("what is 6*7?")
			d.key("enter")
			d.idle()
			scr := d.screen()
			for s, n := range tc.want {
				if got := strings.Count(scr, s); got != n {
					t.Errorf("%q shown %d times, want %d:\n%s", s, got, n, scr)
				}
			}
		})
	}
}

// TestResumedHistoryShowsAnswersOnceAndInterruptions: in a resumed
// conversation an answer given as text and again through final_answer
// shows once, and a reply cut short says it was interrupted.
func TestResumedHistoryShowsAnswersOnceAndInterruptions(t *testing.T) {
	fa := engine.ToolCall{ID: "c1", Name: engine.FinalAnswerTool, Arguments: `{"answer":"The answer is 42."}`}
	msgs := []engine.Message{
		engine.UserMessage("what is 6*7?"),
		engine.TextMessage(engine.RoleAssistant, "The answer is 42."),
		{Role: engine.RoleAssistant, ToolCalls: []engine.ToolCall{fa}},
		engine.ToolResultMessage(fa, "final answer recorded", false),
		engine.UserMessage("count to ten"),
		{Role: engine.RoleAssistant, Content: []engine.Part{{Type: "text", Text: "one two three"}}, Interrupted: true},
	}
	d := newDriver(t, &fakeHost{}, 80, 24, func(o *Options) { o.History = msgs })
	scr := d.screen()
	if n := strings.Count(scr, "The answer is 42."); n != 1 {
		t.Errorf("the answer shows %d times, want once:\n%s", n, scr)
	}
	if !strings.Contains(scr, "one two three") || !strings.Contains(scr, "interrupted") {
		t.Errorf("the cut reply should show, marked interrupted:\n%s", scr)
	}
}
