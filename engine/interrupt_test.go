package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// TestInterruptedReplyIsKept: a run cancelled while the model writes
// keeps the text written so far as an assistant message marked
// Interrupted, visible as an event; the next run sends it with a mark the
// model can read, and user and assistant turns alternate.
func TestInterruptedReplyIsKept(t *testing.T) {
	long := strings.Repeat("word ", 200)
	h := newHarness(t, scripted.Turn{Text: long, ChunkDelayMS: 2}, answer("fresh start"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	deltas := 0
	var appended []engine.Message
	res, err := h.rt.CompleteWith(ctx, h.request("write a lot"), func(ev engine.Event) {
		switch ev.Type {
		case engine.EventTextDelta:
			if deltas++; deltas == 5 {
				cancel()
			}
		case engine.EventAssistantMessage:
			appended = append(appended, *ev.Message)
		}
	})
	if err != nil || res.Status != engine.StatusCancelled {
		t.Fatalf("got %s, %v; want cancelled", res.Status, err)
	}
	last := res.Messages[len(res.Messages)-1]
	if last.Role != providers.RoleAssistant || !last.Interrupted || !strings.HasPrefix(last.Text(), "word word") || len(last.Text()) >= len(long) {
		t.Fatalf("last message: got %+v, want the partial text marked interrupted", last)
	}
	if len(appended) != 1 || !appended[0].Interrupted {
		t.Errorf("the interrupted message should be an assistant_message event, got %+v", appended)
	}

	msgs := append(res.Messages, providers.TextMessage(providers.RoleUser, "start again"))
	req := h.request("")
	req.Messages = msgs
	next := h.complete(req)
	if next.Status != engine.StatusCompleted {
		t.Fatalf("the next run: got %s %+v", next.Status, next.Error)
	}
	sent := h.rec.request(1).Messages
	roles := ""
	for _, m := range sent {
		roles += string(m.Role)[:1]
	}
	if roles != "sua" && roles != "suau" {
		t.Errorf("roles sent: got %q, want system, user, assistant, user", roles)
	}
	if a := sent[2]; !strings.Contains(a.Text(), "interrupted") || !strings.HasPrefix(a.Text(), "word word") {
		t.Errorf("the interrupted reply should go to the model marked: %q", a.Text())
	}
	if stored := next.Messages[1]; strings.Contains(stored.Text(), "[interrupted") {
		t.Errorf("the mark is for the model; the stored text is the model's: %q", stored.Text())
	}
}

// TestConsecutiveUserMessagesAreJoined: a conversation holding two user
// messages in a row (a turn that failed or was cancelled before the
// model wrote anything, then a new prompt) reaches the model as one user
// turn, so turns alternate on every API; the stored conversation keeps
// both.
func TestConsecutiveUserMessagesAreJoined(t *testing.T) {
	h := newHarness(t, answer("ok"))
	req := h.request("")
	img := providers.Part{Type: providers.PartImage, MediaType: "image/png", Data: []byte("\x89PNG")}
	req.Messages = []engine.Message{
		providers.TextMessage(providers.RoleUser, "first try"),
		{Role: providers.RoleUser, Content: []providers.Part{providers.TextPart("second try"), img}},
	}
	res := h.complete(req)
	sent := h.rec.request(0).Messages
	if len(sent) != 2 || sent[1].Role != providers.RoleUser {
		t.Fatalf("got %d messages sent, want the system prompt and one user turn", len(sent))
	}
	if c := sent[1].Content; len(c) != 2 || c[0].Text != "first try\n\nsecond try" || c[1].Type != providers.PartImage {
		t.Errorf("joined user turn: got %+v", c)
	}
	if len(res.Messages) < 2 || res.Messages[0].Text() != "first try" || res.Messages[1].Text() != "second try" {
		t.Errorf("the stored conversation should keep both messages: %+v", res.Messages[:2])
	}
}
