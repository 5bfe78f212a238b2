package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
)

var t0 = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// freeze stops the clocks the screen shows, for stable golden files.
func freeze(d *driver, now time.Time) {
	d.m.look.now, d.m.since = now, t0
}

func call(id, name, args string) *engine.CallInfo {
	return &engine.CallInfo{ID: id, Name: name, Arguments: args}
}

// toolsTurn starts three calls, finishes two (one fails) and leaves the
// third running until the test releases it.
func toolsTurn(release chan struct{}) func(context.Context, Turn) error {
	return func(ctx context.Context, t Turn) error {
		at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
		play(t,
			engine.Event{Type: engine.EventRunStart, Time: at(0)},
			engine.Event{Type: engine.EventModelStart, Time: at(0)},
			engine.Event{Type: engine.EventTextDelta, Delta: "Let me check the build.", Time: at(10)},
			engine.Event{Type: engine.EventAssistantMessage, Time: at(20)},
			engine.Event{Type: engine.EventToolStart, Call: call("c1", "read_file", `{"path":"go.mod"}`), Time: at(30)},
			engine.Event{Type: engine.EventToolStart, Call: call("c2", "shell_cmd", `{"command":"go test ./..."}`), Time: at(30)},
			engine.Event{Type: engine.EventToolStart, Call: call("c3", "search_files", `{"pattern":"**/*.go","content":"TODO"}`), Time: at(30)},
			engine.Event{Type: engine.EventToolResult, Call: call("c1", "read_file", ""), Outcome: &engine.ToolOutcome{Content: "     1\tmodule x\n[lines 1-1 of 1]", Summary: "1 line"}, Time: at(42)},
			// As the shell tool returns a failed command: a result, not an
			// error, marked Failed.
			engine.Event{Type: engine.EventToolResult, Call: call("c2", "shell_cmd", ""), Outcome: &engine.ToolOutcome{
				Content: `{"output":"ok  \tx/a\t0.1s\n--- FAIL: TestB (0.00s)\n    b_test.go:9: got 2\nFAIL\nFAIL\tx/b\t0.2s\n","exit_code":1}`, Failed: true}, Time: at(2330)},
		)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}
}

func TestToolCallLines(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		release := make(chan struct{})
		h := &fakeHost{turn: toolsTurn(release)}
		d := newDriver(t, h, size[0], size[1])
		d.typeText("why does the build fail?")
		d.key("enter")
		d.until("three tool lines", func() bool {
			return strings.Contains(d.screen(), "search_files") && strings.Contains(d.screen(), "shell_cmd")
		})
		d.until("the failure", func() bool { return strings.Contains(d.screen(), "✗ shell_cmd") })
		freeze(d, t0.Add(3*time.Second))
		scr := d.screen()
		for _, want := range []string{"✓ read_file  go.mod  12ms · 1 line", "✗ shell_cmd  go test ./...  2.3s · exit 1 · 5 lines",
			"\n        b_test.go:9: got 2\n    FAIL\n    FAIL    x/b    0.2s\n", "search_files  TODO  2s", "running search_files"} {
			if !strings.Contains(scr, want) {
				t.Errorf("%dx%d: screen lacks %q:\n%s", size[0], size[1], want, scr)
			}
		}
		golden(t, "chat_tools_"+itoa(size[0])+"x"+itoa(size[1]), d.m.render())

		d.key("ctrl+o")
		if scr := d.screen(); !strings.Contains(scr, `"command": "go test ./..."`) || !strings.Contains(scr, "--- FAIL: TestB") {
			t.Errorf("Ctrl+O should show the command's arguments and result:\n%s", scr)
		}
		if scr := d.screen(); strings.Contains(scr, `"path": "go.mod"`) {
			t.Errorf("Ctrl+O should expand one call, the latest finished, not every one:\n%s", scr)
		}
		close(release)
		d.idle()
	}
}

func TestEscCancelsTheTurn(t *testing.T) {
	var cancelled bool
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart},
			engine.Event{Type: engine.EventToolStart, Call: call("c1", "shell_cmd", `{"command":"sleep 100"}`)})
		<-ctx.Done()
		cancelled = true
		res := engine.Result{Status: engine.StatusCancelled}
		play(tu, engine.Event{Type: engine.EventToolError, Call: call("c1", "shell_cmd", ""), Outcome: &engine.ToolOutcome{Content: "cancelled", IsError: true, Code: engine.OutcomeCancelled}},
			engine.Event{Type: engine.EventCancelled, Result: &res})
		return nil
	}}
	d := newDriver(t, h, 80, 24)
	d.typeText("sleep")
	d.key("enter")
	d.until("the command to run", func() bool { return strings.Contains(d.screen(), "sleep 100") })
	if !strings.Contains(d.screen(), "esc to interrupt") {
		t.Errorf("a running turn should say how to stop it:\n%s", d.screen())
	}
	d.key("esc")
	d.idle()
	scr := d.screen()
	if !cancelled || !strings.Contains(scr, "◌ shell_cmd") || !strings.Contains(scr, "cancelled: the turn was stopped") {
		t.Fatalf("Esc should cancel the turn and show it (cancelled=%v):\n%s", cancelled, scr)
	}
	// The prompt is usable again at once.
	h.turn = answerTurn("again")
	d.typeText("next")
	d.key("enter")
	d.idle()
	if !strings.Contains(d.screen(), "again") {
		t.Fatalf("the next prompt should run:\n%s", d.screen())
	}
}

// TestNestedCallsAreIndented: a run_code program's calls and a sub-run's
// calls sit indented under the call that made them.
func TestNestedCallsAreIndented(t *testing.T) {
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu,
			engine.Event{Type: engine.EventRunStart},
			engine.Event{Type: engine.EventModelStart},
			engine.Event{Type: engine.EventToolStart, Call: call("rc", "run_code", `{"code":"read_file(path='a')"}`)},
			engine.Event{Type: engine.EventToolStart, Call: &engine.CallInfo{ID: "in1", Name: "read_file", Arguments: `{"path":"a"}`, ParentID: "rc"}},
			engine.Event{Type: engine.EventToolResult, Call: &engine.CallInfo{ID: "in1", Name: "read_file", ParentID: "rc"}, Outcome: &engine.ToolOutcome{Content: "x"}},
			engine.Event{Type: engine.EventToolResult, Call: call("rc", "run_code", ""), Outcome: &engine.ToolOutcome{Content: "{}"}},
			engine.Event{Type: engine.EventToolStart, Call: call("sp", "spawn_agent", `{"task":"count files"}`)},
			engine.Event{Type: engine.EventRunStart, RunID: "child", ParentID: "run_1"},
			engine.Event{Type: engine.EventToolStart, RunID: "child", ParentID: "run_1", Call: call("c1", "list_files", `{"path":"src"}`)},
			engine.Event{Type: engine.EventToolResult, RunID: "child", ParentID: "run_1", Call: call("c1", "list_files", ""), Outcome: &engine.ToolOutcome{Content: "a.go"}},
			engine.Event{Type: engine.EventToolResult, Call: call("sp", "spawn_agent", ""), Outcome: &engine.ToolOutcome{Content: "2 files"}},
		)
		return answerTurn("done")(ctx, tu)
	}}
	d := newDriver(t, h, 80, 24)
	d.typeText("go")
	d.key("enter")
	d.idle()
	scr := d.screen()
	for _, want := range []string{"\n✓ run_code  read_file(path='a')", "\n  ✓ read_file  a", "\n✓ spawn_agent  count files", "\n  ✓ list_files  src"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
}

// TestConcurrentNestedCallsStayUnderTheirCaller: a run_code program and a
// sub-run running side by side each keep their calls under their own line.
func TestConcurrentNestedCallsStayUnderTheirCaller(t *testing.T) {
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		inner := func(id, name, args string) *engine.CallInfo {
			return &engine.CallInfo{ID: id, Name: name, Arguments: args, ParentID: "rc"}
		}
		ok := &engine.ToolOutcome{Content: "ok"}
		play(tu,
			engine.Event{Type: engine.EventRunStart},
			engine.Event{Type: engine.EventModelStart},
			engine.Event{Type: engine.EventToolStart, Call: call("rc", "run_code", `{"code":"x"}`)},
			engine.Event{Type: engine.EventToolStart, Call: call("sp", "spawn_agent", `{"task":"survey"}`)},
			engine.Event{Type: engine.EventRunStart, RunID: "child", ParentID: "run_1", Call: call("sp", "spawn_agent", "")},
			engine.Event{Type: engine.EventToolStart, Call: inner("i1", "read_file", `{"path":"one"}`)},
			engine.Event{Type: engine.EventToolStart, RunID: "child", ParentID: "run_1", Call: call("s1", "list_files", `{"path":"src"}`)},
			engine.Event{Type: engine.EventToolStart, Call: inner("i2", "read_file", `{"path":"two"}`)},
			engine.Event{Type: engine.EventToolResult, Call: inner("i1", "read_file", ""), Outcome: ok},
			engine.Event{Type: engine.EventToolResult, Call: inner("i2", "read_file", ""), Outcome: ok},
			engine.Event{Type: engine.EventToolResult, RunID: "child", ParentID: "run_1", Call: call("s1", "list_files", ""), Outcome: ok},
			engine.Event{Type: engine.EventToolResult, Call: call("rc", "run_code", ""), Outcome: ok},
			engine.Event{Type: engine.EventToolResult, Call: call("sp", "spawn_agent", ""), Outcome: ok},
		)
		return answerTurn("done")(ctx, tu)
	}}
	d := newDriver(t, h, 80, 24)
	d.typeText("go")
	d.key("enter")
	d.idle()
	var order []string
	for _, l := range strings.Split(d.screen(), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "✓" {
			order = append(order, strings.Repeat(">", (len(l)-len(strings.TrimLeft(l, " ")))/2)+f[1]+":"+f[2])
		}
	}
	want := "run_code:x >read_file:one >read_file:two spawn_agent:survey >list_files:src"
	if got := strings.Join(order, " "); got != want {
		t.Fatalf("lines in order %q, want %q: each caller's calls under it", got, want)
	}
}

// TestCtrlOExpandsTheCallInView: Ctrl+O expands the latest finished call
// on screen — scrolled up, the last one in view, not the newest of all —
// and folds it again on the next press.
func TestCtrlOExpandsTheCallInView(t *testing.T) {
	m := New(context.Background(), Options{Host: &fakeHost{}, Palette: NewPalette(false, true)})
	m.Update(resize(80, 24))
	m.apply(engine.Event{Type: engine.EventRunStart, RunID: "r"})
	for i := 1; i <= 30; i++ {
		id, args := "c"+itoa(i), `{"command":"step `+itoa(i)+`"}`
		m.apply(engine.Event{Type: engine.EventToolStart, RunID: "r", Call: call(id, "shell_cmd", args)})
		m.apply(engine.Event{Type: engine.EventToolResult, RunID: "r", Call: call(id, "shell_cmd", ""),
			Outcome: &engine.ToolOutcome{Content: `{"output":"did ` + itoa(i) + `","exit_code":0}`}})
	}
	m.scroll(-1 << 30)
	var last string // the last call on screen
	for _, l := range strings.Split(plain(m.render()), "\n") {
		if i := strings.Index(l, "shell_cmd  step "); i >= 0 {
			last = strings.Fields(l[i:])[2]
		}
	}
	if last == "" || last == "30" {
		t.Fatalf("scrolled to the top, the screen should end before the last call:\n%s", plain(m.render()))
	}
	m.Update(keyPress("ctrl+o"))
	scr := plain(m.render())
	if !strings.Contains(scr, `"command": "step `+last+`"`) {
		t.Errorf("Ctrl+O should expand step %s, the last call in view:\n%s", last, scr)
	}
	for _, it := range m.tr.items {
		if c, ok := it.(*toolItem); ok && c.open && c.id != "c"+last {
			t.Errorf("Ctrl+O also expanded %s", c.id)
		}
	}
	m.Update(keyPress("ctrl+o"))
	if scr := plain(m.render()); strings.Contains(scr, `"command":`) {
		t.Errorf("a second Ctrl+O should fold the call again:\n%s", scr)
	}
}

// TestCallLineKeepsItsOutcome: a long command gives way on its line, so
// the time, the exit status and the output's size always show.
func TestCallLineKeepsItsOutcome(t *testing.T) {
	it := &toolItem{name: "shell_cmd", args: `{"command":"` + strings.Repeat("echo long; ", 20) + `"}`,
		state: toolFailed, took: 800 * time.Millisecond, note: "exit 1",
		result: `{"output":"1\n2\n3\n4\n5\n","exit_code":1}`}
	l := &look{pal: NewPalette(false, true)}
	lines := it.lines(l, 60)
	if first := plain(lines[0]); !strings.HasSuffix(first, "800ms · exit 1 · 5 lines") || widthOf(first) > 60 {
		t.Errorf("the call's line should end with its outcome, within 60 columns: %q", first)
	}
	if len(lines) != 4 || plain(lines[3]) != "    5" {
		t.Errorf("want the last three output lines under the call: %q", lines)
	}
}

// TestRefusedCallsGetALine: a call refused before it started (a deny
// rule, a hook) has only its outcome event; the chat still shows its
// line, with its command and why.
func TestRefusedCallsGetALine(t *testing.T) {
	m := New(context.Background(), Options{Host: &fakeHost{}, Palette: NewPalette(false, true)})
	m.Update(resize(80, 24))
	m.apply(engine.Event{Type: engine.EventRunStart, RunID: "r"})
	m.apply(engine.Event{Type: engine.EventToolError, RunID: "r", Call: call("c1", "shell_cmd", `{"command":"grep -r TODO ."}`),
		Outcome: &engine.ToolOutcome{IsError: true, Code: engine.OutcomePermissionDenied, Content: "blocked by a hook: use rg. Do not retry it unchanged."}})
	if scr := plain(m.render()); !strings.Contains(scr, "⊘ shell_cmd  grep -r TODO .  denied · by a hook: use rg") {
		t.Errorf("the refused call should have its line:\n%s", scr)
	}
}
