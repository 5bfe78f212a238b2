package ui

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// TestPlanModeFlow drives the chat through plan mode: Shift+Tab cycles
// ask, auto and plan through the host's /permission; a turn in plan mode
// ends with the choice under its plan; keeping planning stays in plan
// mode and sends nothing; a plan edited in the editor is shown and asked
// about again; approving it in auto mode switches the mode and sends the
// edited plan as the next prompt.
func TestPlanModeFlow(t *testing.T) {
	var mu sync.Mutex
	var modes []string
	permission := func(_ context.Context, arg string) (Reply, error) {
		mu.Lock()
		modes = append(modes, arg)
		mu.Unlock()
		return Reply{Status: &Status{Provider: "openai", Model: "gpt-5", Permission: arg}, Report: PermissionReport{Mode: arg, Changed: true}}, nil
	}
	h := &fakeHost{turn: func(_ context.Context, tu Turn) error {
		res := engine.Result{Status: engine.StatusCompleted, Output: "1. Rename wombat."}
		play(tu, engine.Event{Type: engine.EventCompleted, Result: &res})
		return nil
	}}
	d := newDriver(t, h, 100, 30, func(o *Options) { o.Commands = map[string]CommandFunc{"permission": permission} })
	for _, want := range []string{"auto", "plan", "ask", "auto", "plan"} {
		d.key("shift+tab")
		d.until("mode "+want, func() bool { return d.m.status.Permission == want && !d.m.busy })
	}
	if !strings.Contains(d.screen(), "openai/gpt-5 · plan") {
		t.Errorf("the status line should show plan:\n%s", d.screen())
	}

	d.typeText("rename it")
	d.key("enter")
	d.until("the plan's choice", func() bool { return !d.m.busy && d.m.form() != nil })
	if scr := d.screen(); !strings.Contains(scr, "Rename wombat") || !strings.Contains(scr, "Approve and run (auto)") || !strings.Contains(scr, "Keep planning") {
		t.Fatalf("want the plan and the choice on screen:\n%s", scr)
	}
	d.key("4")
	if d.m.form() != nil || d.m.busy || d.m.status.Permission != "plan" || !strings.Contains(d.m.hint, "still planning") {
		t.Fatalf("keep planning: form %v busy %v mode %s hint %q; want plan mode, idle, a hint", d.m.form() != nil, d.m.busy, d.m.status.Permission, d.m.hint)
	}

	d.send(editorMsg{text: "1. Rename wombat to numbat.", plan: true})
	if d.m.form() == nil || !strings.Contains(d.screen(), "numbat") {
		t.Fatalf("an edited plan should be shown and asked about again:\n%s", d.screen())
	}
	d.key("2")
	d.until("the approved plan's turn", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.prompts) == 2 && !d.m.busy
	})
	if p := h.prompts[1]; !strings.Contains(p, "The plan is approved") || !strings.Contains(p, "Rename wombat to numbat.") {
		t.Errorf("the execute prompt %q should carry the edited plan", p)
	}
	mu.Lock()
	last := modes[len(modes)-1]
	mu.Unlock()
	if last != "auto" || d.m.status.Permission != "auto" {
		t.Errorf("approving in auto mode: the host was asked for %q and the status shows %q, want auto", last, d.m.status.Permission)
	}
}

func TestNextMode(t *testing.T) {
	for cur, want := range map[string]string{"ask": "auto", "auto": "plan", "plan": "ask", "read": "ask", "": "ask"} {
		if got := nextMode(cur); got != want {
			t.Errorf("nextMode(%q) = %q, want %q", cur, got, want)
		}
	}
}
