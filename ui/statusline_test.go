package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
)

// TestOwnStatusLine: the person's status line shows above llmrt's, with
// its colours and none of its other sequences, from the start and again
// with the new facts after each turn; the transcript gives up the row.
func TestOwnStatusLine(t *testing.T) {
	var calls atomic.Int32
	own := func(ctx context.Context, s Status) string {
		calls.Add(1)
		return fmt.Sprintf("\x1b[31mmine\x1b[0m %s in=%d\x1b]0;PWNED\x07 dir=%s\nsecond line", s.Model, s.Usage.InputTokens, s.Dir)
	}
	d := newDriver(t, &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu, engine.Event{Type: engine.EventRunStart},
			engine.Event{Type: engine.EventCompleted, Result: &engine.Result{Status: engine.StatusCompleted, Output: "ok", Usage: engine.Usage{InputTokens: 1200, OutputTokens: 5}}})
		return nil
	}}, 80, 24, func(o *Options) { o.StatusLine = own; o.Status.Dir = "/w" })
	d.until("the status line", func() bool { return strings.Contains(d.screen(), "mine gpt-5 in=0") })
	lines := strings.Split(d.screen(), "\n")
	if len(lines) != 24 || !strings.HasPrefix(lines[22], " mine gpt-5 in=0 dir=/w") || !strings.Contains(lines[23], "openai/gpt-5") {
		t.Fatalf("want the own line above llmrt's on 24 rows:\n%s", d.screen())
	}
	if strings.Contains(d.screen(), "second line") {
		t.Errorf("only the first line shows:\n%s", d.screen())
	}
	raw := d.m.render()
	if strings.Contains(raw, "PWNED") || strings.Contains(raw, "\x1b]0") {
		t.Errorf("an OSC sequence of the status line reached the screen: %q", raw)
	}
	if !strings.Contains(raw, "\x1b[31mmine") {
		t.Errorf("the status line's colour is lost: %q", raw)
	}
	d.typeText("go")
	d.key("enter")
	d.idle()
	d.until("the new facts", func() bool { return strings.Contains(d.screen(), "mine gpt-5 in=1200") })
	if n := calls.Load(); n != 2 {
		t.Errorf("the command ran %d times, want 2 (start, turn end)", n)
	}
}

// TestOwnStatusLineCoalesces: facts that change while a call is out lead
// to one more call after it, not one per change.
func TestOwnStatusLineCoalesces(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	own := func(ctx context.Context, s Status) string {
		if calls.Add(1) == 1 {
			<-release
		}
		return "n=" + itoa(int(calls.Load()))
	}
	d := newDriver(t, &fakeHost{}, 80, 24, func(o *Options) { o.StatusLine = own })
	for range 5 {
		d.run(d.m.refreshStatusLine())
	}
	close(release)
	d.until("the second call", func() bool { return strings.Contains(d.screen(), "n=2") })
	time.Sleep(2 * statusLineEvery)
	if n := calls.Load(); n != 2 {
		t.Errorf("the command ran %d times, want 2", n)
	}
}

// TestNotifications: a turn that took over ten seconds ends with a
// notification in the configured form, and so does a prompt that opens
// while the person may be away; a short turn sends none.
func TestNotifications(t *testing.T) {
	got := make(chan PermitResult, 1)
	d := newDriver(t, &fakeHost{turn: permittingTurn(got)}, 80, 24, func(o *Options) { o.Notify = NotifyOSC9 })
	d.typeText("fix main")
	d.key("enter")
	d.until("the prompt", func() bool { return d.m.form() != nil })
	d.until("the notification", func() bool { return len(d.raw) == 1 })
	if d.raw[0] != "\x1b]9;llmrt is waiting for you\x07" {
		t.Errorf("prompt notification %q", d.raw[0])
	}
	d.m.since = d.m.since.Add(-11 * time.Second)
	d.key("1")
	d.idle()
	d.until("the notification", func() bool { return len(d.raw) == 2 })
	if !strings.HasPrefix(d.raw[1], "\x1b]9;llmrt finished a turn (11.") {
		t.Errorf("turn notification %q", d.raw[1])
	}

	d = newDriver(t, &fakeHost{turn: answerTurn("quick")}, 80, 24, func(o *Options) { o.Notify = NotifyBell })
	d.typeText("hi")
	d.key("enter")
	d.idle()
	time.Sleep(50 * time.Millisecond)
	for len(d.msgs) > 0 {
		d.deliver(<-d.msgs)
	}
	if len(d.raw) != 0 {
		t.Errorf("a short turn notified: %q", d.raw)
	}
}

// TestNotifiedWhateverTheKind: the host hears every notification's text
// (its Notification hooks), even with terminal notifications off.
func TestNotifiedWhateverTheKind(t *testing.T) {
	var got []string
	m := New(context.Background(), Options{Host: &fakeHost{}, Palette: NewPalette(false, true), Notify: NotifyOff,
		Notified: func(s string) { got = append(got, s) }})
	if cmd := m.notify("llmrt is waiting for you"); cmd != nil {
		t.Error("NotifyOff should send nothing to the terminal")
	}
	if len(got) != 1 || got[0] != "llmrt is waiting for you" {
		t.Errorf("Notified got %q", got)
	}
}
