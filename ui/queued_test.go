package ui

import (
	"context"
	"strings"
	"testing"
)

// gatedTurn answers after release is closed, the prompt echoed back.
func gatedTurn(release <-chan struct{}) func(context.Context, Turn) error {
	return func(ctx context.Context, t Turn) error {
		select {
		case <-release:
		case <-ctx.Done():
			return ctx.Err()
		}
		return answerTurn("answer to "+t.Prompt)(ctx, t)
	}
}

// TestPromptsQueueWhileATurnRuns: prompts sent during a turn show as
// queued and go, in order, one turn each, once the turn is over; Up takes
// the last back to edit.
func TestPromptsQueueWhileATurnRuns(t *testing.T) {
	release := make(chan struct{})
	h := &fakeHost{turn: gatedTurn(release)}
	d := newDriver(t, h, 80, 24)
	d.typeText("first")
	d.key("enter")
	d.typeText("second")
	d.key("enter")
	d.typeText("third")
	d.key("enter")
	d.typeText("fourth, to edit")
	d.key("enter")
	scr := d.screen()
	for _, want := range []string{"queued › second", "queued › third", "queued › fourth, to edit  (↑ edits)"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "a turn is running") {
		t.Errorf("a queued prompt is not refused:\n%s", scr)
	}
	d.key("up")
	if got := d.m.in.value(); got != "fourth, to edit" {
		t.Errorf("Up took %q back, want the last queued prompt", got)
	}
	if strings.Contains(d.screen(), "queued › fourth") {
		t.Errorf("the prompt taken back still shows as queued:\n%s", d.screen())
	}
	close(release)
	d.until("the queued turns", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.prompts) == 3 && !d.m.busy
	})
	if got := d.m.in.value(); got != "fourth, to edit" {
		t.Errorf("the prompt being edited was %q after the turns, want it kept", got)
	}
}

// TestQueuedPromptsRunInOrder: the waiting prompts run after the turn,
// each its own turn, in the order sent.
func TestQueuedPromptsRunInOrder(t *testing.T) {
	release := make(chan struct{})
	h := &fakeHost{turn: gatedTurn(release)}
	d := newDriver(t, h, 80, 24)
	for _, p := range []string{"first", "second", "third"} {
		d.typeText(p)
		d.key("enter")
	}
	close(release)
	d.until("all three turns", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.prompts) == 3 && !d.m.busy
	})
	h.mu.Lock()
	got := strings.Join(h.prompts, ",")
	h.mu.Unlock()
	if got != "first,second,third" {
		t.Errorf("turns ran for %s, want first,second,third", got)
	}
	scr := d.screen()
	if strings.Contains(scr, "queued ›") {
		t.Errorf("nothing should wait any more:\n%s", scr)
	}
	a, b := strings.Index(scr, "answer to second"), strings.Index(scr, "› third")
	if a < 0 || b < 0 || a > b {
		t.Errorf("the second answer should come before the third prompt:\n%s", scr)
	}
}

// TestStoppedTurnHandsQueuedPromptsBack: Esc stops the turn, and what was
// queued comes back to the editor instead of being sent.
func TestStoppedTurnHandsQueuedPromptsBack(t *testing.T) {
	release := make(chan struct{})
	h := &fakeHost{turn: gatedTurn(release)}
	d := newDriver(t, h, 80, 24)
	d.typeText("first")
	d.key("enter")
	d.typeText("second")
	d.key("enter")
	d.key("esc")
	d.idle()
	if got := d.m.in.value(); got != "second" {
		t.Errorf("the editor holds %q, want the queued prompt", got)
	}
	h.mu.Lock()
	n := len(h.prompts)
	h.mu.Unlock()
	if n != 1 {
		t.Errorf("%d turns ran, want only the stopped one", n)
	}
	if scr := d.screen(); !strings.Contains(scr, "back in the editor") || strings.Contains(scr, "queued ›") {
		t.Errorf("the screen should say the prompt is back:\n%s", scr)
	}
}
