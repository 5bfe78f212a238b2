package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

const markdownAnswer = "# Plan\n\nThe build is **green**. Run it with:\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n- one\n- two\n"

func deltas(typ engine.EventType, s string, n int) []engine.Event {
	var out []engine.Event
	for i := 0; i < len(s); i += n {
		out = append(out, engine.Event{Type: typ, Delta: s[i:min(i+n, len(s))]})
	}
	return out
}

func answerTurn(answer string) func(context.Context, Turn) error {
	return func(ctx context.Context, t Turn) error {
		play(t, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart})
		play(t, deltas(engine.EventAnswerDelta, answer, 7)...)
		res := engine.Result{Status: engine.StatusCompleted, Output: answer, Usage: engine.Usage{InputTokens: 1200, OutputTokens: 80}}
		play(t, engine.Event{Type: engine.EventAssistantMessage}, engine.Event{Type: engine.EventCompleted, Result: &res})
		return nil
	}
}

func TestStreamedMarkdownAnswer(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		h := &fakeHost{turn: answerTurn(markdownAnswer)}
		d := newDriver(t, h, size[0], size[1])
		d.typeText("make a plan")
		d.key("enter")
		d.idle()
		scr := d.screen()
		for _, want := range []string{"› make a plan", "Plan", "The build is green", "fmt.Println", "one", "↑1.2k ↓80", "idle"} {
			if !strings.Contains(scr, want) {
				t.Errorf("%dx%d: screen lacks %q:\n%s", size[0], size[1], want, scr)
			}
		}
		if strings.Contains(scr, "```") || strings.Contains(scr, "**green**") {
			t.Errorf("markup shown raw:\n%s", scr)
		}
		golden(t, "chat_markdown_"+itoa(size[0])+"x"+itoa(size[1]), d.m.render())
		if got := h.prompts; len(got) != 1 || got[0] != "make a plan" {
			t.Errorf("host got prompts %q", got)
		}
	}
}
