package ui

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
)

// TestArgumentMenu: typing a command and a space opens its values; typing
// narrows them by value or description; nothing is chosen until a move,
// so Enter sends what was typed; Down then Enter runs the command with
// the chosen value; the list is asked for once per opening.
func TestArgumentMenu(t *testing.T) {
	var asked atomic.Int32
	h := &fakeHost{replies: map[string]Reply{"resume": {}}}
	d := newDriver(t, h, 80, 24, func(o *Options) {
		o.Args = map[string]ArgsFunc{"resume": func(context.Context) []Choice {
			asked.Add(1)
			return []Choice{
				{Value: "20261126-010000-aaaaaa", Desc: "2h ago · fix the parser"},
				{Value: "20261125-090000-bbbbbb", Desc: "1d ago · write the docs"},
				{Value: "20261120-090000-cccccc", Desc: "6d ago · parser benchmarks"},
			}
		}}
	})
	d.typeText("/resume ")
	d.until("the menu", func() bool { return d.m.in.menu.open() })
	scr := d.screen()
	for _, want := range []string{"20261126-010000-aaaaaa  2h ago · fix the parser", "write the docs", "parser benchmarks"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the menu lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "› 2026") {
		t.Errorf("nothing should be selected before a move:\n%s", scr)
	}
	d.typeText("parser")
	if n := len(d.m.in.menu.items); n != 2 {
		t.Errorf("typing parser should leave 2 entries, got %d:\n%s", n, d.screen())
	}
	d.key("down", "down", "enter")
	d.until("the command", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.asked) == 1
	})
	if h.asked[0] != "resume 20261120-090000-cccccc" {
		t.Errorf("ran %q, want the second parser session", h.asked[0])
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the values were asked for %d times, want once", n)
	}

	// Enter with nothing chosen sends what was typed.
	d.typeText("/resume ")
	d.until("the menu", func() bool { return d.m.in.menu.open() })
	d.key("enter")
	d.until("the second command", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.asked) == 2
	})
	if h.asked[1] != "resume " {
		t.Errorf("ran %q, want /resume without an argument", h.asked[1])
	}
}
