package host_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
)

const slowThenAnswer = `{"turns":[
 {"text":"` + "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen" + `","chunk_delay_ms":20},
 {"tool_calls":[{"name":"final_answer","arguments":{"answer":"picked up"}}]}]}`

// TestInterruptedTurnIsKept: a turn cancelled while the model writes
// keeps its partial text, marked interrupted, in the conversation and the
// session; a turn without a prompt then goes on from it with a message of
// the person's, so turns alternate.
func TestInterruptedTurnIsKept(t *testing.T) {
	f := newFixture(t, slowThenAnswer)
	c, err := host.Open(host.Options{Store: f.store})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	out, err := c.Turn(ctx, host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto), Prompt: prompt("count"),
		Events: func(ev engine.Event) {
			if ev.Type == engine.EventTextDelta {
				if n++; n == 3 {
					cancel()
				}
			}
		}})
	if err != nil || out.Status != engine.StatusCancelled {
		t.Fatalf("got %v %s, want cancelled", err, out.Status)
	}
	msgs := c.Messages()
	last := msgs[len(msgs)-1]
	if !last.Interrupted || !strings.HasPrefix(last.Text(), "one two") {
		t.Fatalf("last message %+v, want the partial text marked interrupted", last)
	}
	sess, err := f.store.Load(c.ID())
	if err != nil {
		t.Fatal(err)
	}
	if sl := sess.Messages[len(sess.Messages)-1]; !sl.Interrupted || sl.Text() != last.Text() {
		t.Errorf("the session's last message %+v, want the interrupted reply", sl)
	}

	out, err = c.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto)})
	if err != nil || out.Status != engine.StatusCompleted || out.Output != "picked up" {
		t.Fatalf("going on: got %v %s %q", err, out.Status, out.Output)
	}
	var roles []string
	for _, m := range c.Messages() {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, " "); !strings.HasPrefix(got, "user assistant user assistant") {
		t.Errorf("roles: got %s, want turns that alternate", got)
	}
}
