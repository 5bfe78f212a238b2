package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/llmrt/llmrt/engine"
)

func TestCtrlCAndCtrlD(t *testing.T) {
	d := newDriver(t, &fakeHost{}, 80, 24)
	d.typeText("draft")
	d.key("ctrl+c")
	if d.m.in.value() != "" || d.quit {
		t.Fatalf("Ctrl-C with text should clear it, not quit (value %q)", d.m.in.value())
	}
	d.key("ctrl+c")
	if !strings.Contains(d.screen(), "press Ctrl-C again to quit") {
		t.Fatalf("the first Ctrl-C on an empty prompt should warn:\n%s", d.screen())
	}
	d.key("ctrl+c")
	d.until("quit", func() bool { return d.quit })

	d = newDriver(t, &fakeHost{}, 80, 24)
	d.typeText("x")
	d.key("ctrl+d")
	d.key("backspace", "ctrl+d")
	d.until("quit on Ctrl-D", func() bool { return d.quit })
}

func TestHistoryAndMultiLineInput(t *testing.T) {
	h := &fakeHost{turn: answerTurn("ok")}
	d := newDriver(t, h, 80, 24)
	for _, p := range []string{"first", "second"} {
		d.typeText(p)
		d.key("enter")
		d.idle()
	}
	d.key("up")
	if v := d.m.in.value(); v != "second" {
		t.Fatalf("Up: got %q, want the last prompt", v)
	}
	d.key("up")
	if v := d.m.in.value(); v != "first" {
		t.Fatalf("Up twice: got %q", v)
	}
	d.key("down", "down")
	if v := d.m.in.value(); v != "" {
		t.Fatalf("Down back to the draft: got %q", v)
	}
	d.typeText("line one")
	d.key("alt+enter")
	d.typeText("line two")
	d.send(pasteMsg("\npasted a\npasted b"))
	d.key("enter")
	d.idle()
	if got := h.prompts[len(h.prompts)-1]; got != "line one\nline two\npasted a\npasted b" {
		t.Fatalf("a multi-line prompt keeps its lines: got %q", got)
	}
}

func TestSlashCommandsComplete(t *testing.T) {
	h := &fakeHost{replies: map[string]Reply{"tools": {Report: ToolList{Tools: []engine.ToolInfo{{Name: "read_file", Kind: "read", Source: "builtin"}}}}}}
	d := newDriver(t, h, 80, 24)
	d.typeText("/to")
	if !strings.Contains(d.screen(), "/tools") {
		t.Fatalf("typing /to should offer /tools:\n%s", d.screen())
	}
	d.key("tab")
	if v := d.m.in.value(); v != "/tools " {
		t.Fatalf("Tab completes: got %q", v)
	}
	d.key("enter")
	d.idle()
	if len(h.asked) != 1 || h.asked[0] != "tools " || !strings.Contains(d.screen(), "read_file") {
		t.Fatalf("the host should run /tools and its reply show (asked %q):\n%s", h.asked, d.screen())
	}
	d.typeText("/nope")
	d.key("enter")
	if !strings.Contains(d.screen(), "unknown command /nope") {
		t.Fatalf("an unknown command is named:\n%s", d.screen())
	}
	// A command the host has no handler for is neither offered nor run.
	d.m.in.reset("")
	d.typeText("/comp")
	if d.m.in.menu.open() {
		t.Fatalf("/compact has no handler here and should not be offered:\n%s", d.screen())
	}
	d.key("enter")
	if !strings.Contains(d.screen(), "/comp is not") && !strings.Contains(d.screen(), "unknown command /comp") {
		t.Fatalf("a partial name is unknown:\n%s", d.screen())
	}
	d.m.in.reset("")
	d.typeText("/compact")
	d.key("enter")
	if !strings.Contains(d.screen(), "/compact is not available in this chat") || len(h.asked) != 1 {
		t.Fatalf("an unimplemented command says so and runs nothing (asked %q):\n%s", h.asked, d.screen())
	}
}

// everyCommand is a host that implements every command.
func everyCommand() *fakeHost {
	h := &fakeHost{replies: map[string]Reply{}}
	for _, c := range Commands() {
		if !c.Screen {
			h.replies[c.Name] = Reply{}
		}
	}
	return h
}

func TestHelp(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		d := newDriver(t, everyCommand(), size[0], size[1])
		d.typeText("/help")
		d.key("enter")
		scr := d.screen()
		for _, want := range []string{"/compact", "Ctrl+O", "/exit"} {
			if !strings.Contains(scr, want) && size[1] == 40 {
				t.Errorf("/help lacks %q:\n%s", want, scr)
			}
		}
		golden(t, "chat_help_"+itoa(size[0])+"x"+itoa(size[1]), d.m.render())
	}
}

func TestMentionCompletesFiles(t *testing.T) {
	h := &fakeHost{files: []string{"go.mod", "go.sum", "main.go"}}
	d := newDriver(t, h, 80, 24)
	d.typeText("look at @go")
	d.until("file completions", func() bool { return d.m.in.menu.open() })
	if scr := d.screen(); !strings.Contains(scr, "@go.mod") || !strings.Contains(scr, "@go.sum") || strings.Contains(scr, "@main.go") {
		t.Fatalf("the menu should list go.mod and go.sum:\n%s", scr)
	}
	d.key("down", "tab")
	if v := d.m.in.value(); v != "look at @go.sum " {
		t.Fatalf("Tab puts the chosen file in: got %q", v)
	}
}

// TestReasoningCollapsesToOneLine: while the model reasons, its line
// shows the latest whole sentence, never a tail cut mid-word; once it
// moves on, one line says how long it thought; Ctrl+R shows all of it.
func TestReasoningCollapsesToOneLine(t *testing.T) {
	t0 := time.Now()
	thought := strings.Repeat("Weighing the options carefully. ", 12) + "The last whole sentence is this one. And a half-writ"
	release := make(chan struct{})
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart},
			engine.Event{Type: engine.EventReasoningDelta, Delta: thought, Time: t0})
		<-release
		play(tu, engine.Event{Type: engine.EventTextDelta, Delta: "Looking.", Time: t0.Add(1500 * time.Millisecond)})
		return answerTurn("done")(ctx, tu)
	}}
	d := newDriver(t, h, 80, 24)
	d.typeText("think")
	d.key("enter")
	d.until("the reasoning", func() bool { return strings.Contains(d.screen(), "✻ Thinking") })
	if scr := d.screen(); !strings.Contains(scr, "✻ Thinking: The last whole sentence is this one.\n") || strings.Contains(scr, "half-writ") {
		t.Errorf("while thinking the line should show the latest whole sentence:\n%s", scr)
	}
	close(release)
	d.idle()
	scr := d.screen()
	if !strings.Contains(scr, "✻ Thought for 1.5s · ctrl+r shows it") || strings.Contains(scr, "Weighing") {
		t.Fatalf("after thinking one line should say how long:\n%s", scr)
	}
	d.key("ctrl+r")
	if scr := d.screen(); strings.Count(scr, "Weighing") < 10 || !strings.Contains(scr, "✻ Thought for 1.5s") {
		t.Fatalf("Ctrl+R should show all of it:\n%s", scr)
	}
}

// TestRestartedStreamIsDropped: a stream_restarted warning takes back
// what the broken call showed.
func TestRestartedStreamIsDropped(t *testing.T) {
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart, Iteration: 1},
			engine.Event{Type: engine.EventTextDelta, Delta: "half a thou", Iteration: 1},
			engine.Event{Type: engine.EventWarning, Warning: &engine.Warning{Code: engine.WarningStreamRestarted, Message: "restarted"}, Iteration: 1},
			engine.Event{Type: engine.EventModelStart, Iteration: 1})
		return answerTurn("the whole answer")(ctx, tu)
	}}
	d := newDriver(t, h, 80, 24)
	d.typeText("go")
	d.key("enter")
	d.idle()
	if scr := d.screen(); strings.Contains(scr, "half a thou") || !strings.Contains(scr, "the whole answer") {
		t.Fatalf("the restarted call's text should be gone:\n%s", scr)
	}
}

func TestResizeRewraps(t *testing.T) {
	long := strings.Repeat("word ", 60)
	release := make(chan struct{})
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart})
		play(tu, deltas(engine.EventAnswerDelta, "Intro paragraph.\n\n"+long, 9)...)
		<-release
		play(tu, deltas(engine.EventAnswerDelta, "\n\nAfter the resize.", 9)...)
		res := engine.Result{Status: engine.StatusCompleted}
		play(tu, engine.Event{Type: engine.EventAssistantMessage}, engine.Event{Type: engine.EventCompleted, Result: &res})
		return nil
	}}
	d := newDriver(t, h, 120, 40)
	d.typeText("go")
	d.key("enter")
	d.until("the answer", func() bool { return strings.Count(d.screen(), "word") > 50 })
	d.send(resize(80, 24))
	close(release)
	d.idle()
	scr := d.m.render()
	lines := strings.Split(scr, "\n")
	if len(lines) != 24 {
		t.Fatalf("the screen has %d lines at 80x24", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Fatalf("line %d is %d cells wide at 80 columns: %q", i, w, ansi.Strip(l))
		}
	}
	if !strings.Contains(plain(scr), "After the resize.") {
		t.Fatalf("the answer goes on after the resize:\n%s", plain(scr))
	}
}

func TestScrollback(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "- item %d\n", i)
	}
	h := &fakeHost{turn: answerTurn(b.String())}
	d := newDriver(t, h, 80, 24)
	d.typeText("list")
	d.key("enter")
	d.idle()
	if scr := d.screen(); !strings.Contains(scr, "item 60") || strings.Contains(scr, "item 30\n") {
		t.Fatalf("the newest lines should show:\n%s", scr)
	}
	d.key("pgup", "pgup")
	scr := d.screen()
	if strings.Contains(scr, "item 60") || !strings.Contains(scr, "more lines (PgDn, End)") {
		t.Fatalf("PgUp should show older lines and say more are below:\n%s", scr)
	}
	d.send(wheel(false))
	d.key("pgdown", "pgdown", "pgdown")
	if scr := d.screen(); !strings.Contains(scr, "item 60") {
		t.Fatalf("PgDn back to the bottom:\n%s", scr)
	}
	d.key("home")
	if scr := d.screen(); !strings.Contains(scr, "› list") || strings.Contains(scr, "item 30\n") {
		t.Fatalf("Home on an empty editor goes to the top:\n%s", scr)
	}
	d.key("end")
	if scr := d.screen(); !strings.Contains(scr, "item 60") {
		t.Fatalf("End goes back to the end:\n%s", scr)
	}
	d.typeText("abc")
	d.key("home")
	if scr := d.screen(); !strings.Contains(scr, "item 60") {
		t.Fatalf("Home with text in the editor moves in the editor, not the transcript:\n%s", scr)
	}
}

// TestNewOutputMarker: scrolled up while an answer streams, the rule
// says there is new output below, and End goes to it.
func TestNewOutputMarker(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "- item %d\n", i)
	}
	release := make(chan struct{})
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart})
		play(tu, deltas(engine.EventAnswerDelta, b.String(), 7)...)
		<-release
		return answerTurn("")(ctx, tu)
	}}
	d := newDriver(t, h, 80, 24)
	d.typeText("list")
	d.key("enter")
	d.until("the streamed list", func() bool { return strings.Contains(d.screen(), "item 60") })
	d.key("pgup")
	if scr := d.screen(); !strings.Contains(scr, "more lines · new output (End) · esc to interrupt") {
		t.Errorf("scrolled up while streaming, the rule should say so:\n%s", scr)
	}
	d.key("end")
	if scr := d.screen(); !strings.Contains(scr, "item 60") || strings.Contains(scr, "new output") {
		t.Errorf("End should follow the output again:\n%s", scr)
	}
	close(release)
	d.idle()
}

func TestResumedHistoryIsShown(t *testing.T) {
	msgs := []engine.Message{
		engine.UserMessage("fix the test"),
		{Role: engine.RoleAssistant, ToolCalls: []engine.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a_test.go"}`}}},
		engine.ToolResultMessage(engine.ToolCall{ID: "c1", Name: "read_file"}, "package a", false),
		{Role: engine.RoleAssistant, ToolCalls: []engine.ToolCall{{ID: "c2", Name: engine.FinalAnswerTool, Arguments: `{"answer":"Fixed the **off-by-one**."}`}}},
		engine.ToolResultMessage(engine.ToolCall{ID: "c2", Name: engine.FinalAnswerTool}, "ok", false),
	}
	d := newDriver(t, &fakeHost{}, 80, 24, func(o *Options) { o.History = msgs })
	scr := d.screen()
	for _, want := range []string{"› fix the test", "✓ read_file  a_test.go", "Fixed the off-by-one."} {
		if !strings.Contains(scr, want) {
			t.Errorf("history lacks %q:\n%s", want, scr)
		}
	}
	d.key("up")
	if d.m.in.value() != "fix the test" {
		t.Errorf("earlier prompts should be in the editor's history: %q", d.m.in.value())
	}
}

// TestDiagnosticsShownOnce: each turn starts with the session's
// diagnostics as warnings; the screen shows each once.
func TestDiagnosticsShownOnce(t *testing.T) {
	diag := engine.Event{Type: engine.EventWarning, Warning: &engine.Warning{Code: engine.WarningDiagnostic, Message: "mcp server broken: no such command"}}
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu, engine.Event{Type: engine.EventRunStart}, diag)
		return answerTurn("ok")(ctx, tu)
	}}
	d := newDriver(t, h, 80, 24)
	for _, p := range []string{"one", "two"} {
		d.typeText(p)
		d.key("enter")
		d.idle()
	}
	if n := strings.Count(d.screen(), "mcp server broken"); n != 1 {
		t.Fatalf("the diagnostic shows %d times, want once:\n%s", n, d.screen())
	}
}

func TestLatestSentence(t *testing.T) {
	for _, c := range []struct {
		text string
		room int
		want string
	}{
		{"First. Second one here. Third is not don", 40, "Second one here."},
		{"No sentence has ended yet but words go on", 40, "No sentence has ended yet but words go…"},
		{"Short.", 40, "Short."},
		{"A. This sentence is much too long to fit in the room it is given. Tail", 30, "This sentence is much too…"},
	} {
		if got := latestSentence(c.text, c.room); got != c.want {
			t.Errorf("latestSentence(%q, %d) = %q, want %q", c.text, c.room, got, c.want)
		}
	}
}

// TestEscEscOpensRewind: Esc twice on an empty prompt starts /rewind,
// as in Claude Code; once only says so; with a key between, nothing
// happens.
func TestEscEscOpensRewind(t *testing.T) {
	h := &fakeHost{replies: map[string]Reply{"rewind": {Report: Lines{"The turns of this session"}}}}
	d := newDriver(t, h, 80, 24)
	d.key("esc")
	if !strings.Contains(d.screen(), "Esc again") {
		t.Fatalf("the first Esc on an empty prompt should say what a second does:\n%s", d.screen())
	}
	d.key("a", "backspace", "esc")
	if got := h.ran(); len(got) != 0 {
		t.Fatalf("Esc after other keys ran %v, want nothing", got)
	}
	d.key("esc")
	if v := d.m.in.value(); v != "/rewind " {
		t.Fatalf("Esc Esc: the prompt holds %q, want /rewind with its turns to pick from", v)
	}
	d.key("1", "enter")
	d.until("/rewind 1 ran", func() bool { return len(h.ran()) == 1 && h.ran()[0] == "rewind 1" })

	d = newDriver(t, &fakeHost{}, 80, 24) // no /rewind in this chat
	d.key("esc", "esc")
	if strings.Contains(d.screen(), "Esc again") {
		t.Fatalf("without /rewind Esc should not offer it:\n%s", d.screen())
	}
}
