package ui

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/tools"
)

// TestCommandAsks: a host command's reply that asks a question shows it
// under the report; the option picked runs the command again with the
// option's ID, and cancelling the question runs nothing.
func TestCommandAsks(t *testing.T) {
	var mu sync.Mutex
	var args []string
	rewind := func(_ context.Context, arg string) (Reply, error) {
		mu.Lock()
		args = append(args, arg)
		mu.Unlock()
		if arg != "1" {
			return Reply{Report: Notice("did " + arg)}, nil
		}
		q := tools.Question{Header: "Rewind", ID: "rewind", Question: "What goes back?",
			Options: []tools.Choice{{ID: "1 both", Label: "Code and conversation"}, {ID: "1 cancel", Label: "Cancel"}}}
		return Reply{Report: Lines{"files: would restore", "  rewrite a.txt"}, Ask: &q}, nil
	}
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), args...)
	}
	d := newDriver(t, &fakeHost{}, 100, 30, func(o *Options) { o.Commands = map[string]CommandFunc{"rewind": rewind} })

	d.typeText("/rewind 1")
	d.key("enter")
	d.until("the question", func() bool { return !d.m.busy && d.m.form() != nil })
	if scr := d.screen(); !strings.Contains(scr, "rewrite a.txt") || !strings.Contains(scr, "Code and conversation") {
		t.Fatalf("want the report and the question on screen:\n%s", scr)
	}
	d.key("esc")
	d.key("2") // the form asks whether to cancel it
	d.until("the question gone", func() bool { return d.m.form() == nil })
	if a := got(); len(a) != 1 {
		t.Fatalf("escape ran the command again: %q", a)
	}

	d.typeText("/rewind 1")
	d.key("enter")
	d.until("the question again", func() bool { return !d.m.busy && d.m.form() != nil })
	d.key("enter")
	d.until("the chosen command's reply", func() bool { return !d.m.busy && strings.Contains(d.screen(), "did 1 both") })
	if a := got(); len(a) != 3 || a[2] != "1 both" {
		t.Errorf("the commands run: %q, want the last with the option's ID", a)
	}
}
