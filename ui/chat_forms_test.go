package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// askingTurn asks in and reports the answer (or error) on got, then
// answers the prompt.
func askingTurn(in tools.AskInput, got chan<- any) func(context.Context, Turn) error {
	return func(ctx context.Context, t Turn) error {
		play(t, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart},
			engine.Event{Type: engine.EventToolStart, Call: call("q1", engine.AskUserTool, "{}")})
		a, err := t.Prompts.Ask(ctx, in)
		if err != nil {
			got <- err
			return nil
		}
		got <- a
		play(t, engine.Event{Type: engine.EventToolResult, Call: call("q1", engine.AskUserTool, ""), Outcome: &engine.ToolOutcome{Content: "{}"}})
		return answerTurn("thanks")(ctx, t)
	}
}

func TestChatSingleSelectQuestion(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		got := make(chan any, 1)
		d := newDriver(t, &fakeHost{turn: askingTurn(singleInput(), got)}, size[0], size[1])
		d.typeText("greet me")
		d.key("enter")
		d.until("the question", func() bool { return d.m.form() != nil })
		d.key("down")
		scr := d.screen()
		if !strings.Contains(scr, "Which language should the greeting use?") || !strings.Contains(scr, "? waiting for you") {
			t.Fatalf("the question and the waiting state should show:\n%s", scr)
		}
		golden(t, "chat_ask_single_"+itoa(size[0])+"x"+itoa(size[1]), d.m.render())
		d.key("enter")
		d.idle()
		a := (<-got).(tools.Answer)
		if a.Selected["lang"][0] != "fr" {
			t.Fatalf("the host got %+v, want French", a)
		}
		if scr := d.screen(); !strings.Contains(scr, "✔ Language: French") || strings.Contains(scr, "German") {
			t.Fatalf("only the choice stays on screen:\n%s", scr)
		}
	}
}

func TestChatMultiSelectWithSkipAndOther(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		got := make(chan any, 1)
		d := newDriver(t, &fakeHost{turn: askingTurn(multiInput(), got)}, size[0], size[1])
		d.typeText("export it")
		d.key("enter")
		d.until("the question", func() bool { return d.m.form() != nil })
		d.key("down", "space", "down")
		golden(t, "chat_ask_multi_"+itoa(size[0])+"x"+itoa(size[1]), d.m.render())
		d.key("space", "enter") // YAML and TOML
		d.key("enter")          // nothing toggled on the second question: stays
		if d.m.form() == nil {
			t.Fatal("Enter with nothing toggled must not end the question")
		}
		d.key("space", "enter")
		d.idle()
		a := (<-got).(tools.Answer)
		if strings.Join(a.Selected["fmt"], ",") != "yaml,toml" || strings.Join(a.Selected["checks"], ",") != "vet" {
			t.Fatalf("answer %+v", a)
		}
	}
}

func TestChatQuestionCancelStopsTheTurn(t *testing.T) {
	got := make(chan any, 1)
	d := newDriver(t, &fakeHost{turn: askingTurn(singleInput(), got)}, 80, 24)
	d.typeText("greet me")
	d.key("enter")
	d.until("the question", func() bool { return d.m.form() != nil })
	d.key("ctrl+c")
	d.idle()
	if err, ok := (<-got).(error); !ok || !isCancel(err, "cancelled at a question") {
		t.Fatalf("Ctrl-C at a question: got %v, want the cancel error naming the question", err)
	}
}

// permittingTurn asks to write main.go and reports the result on got.
func permittingTurn(got chan<- PermitResult) func(context.Context, Turn) error {
	return func(ctx context.Context, t Turn) error {
		req := diffRequest(mainDiff)
		play(t, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart},
			engine.Event{Type: engine.EventToolStart, Call: call("w1", "write_file", req.Arguments)},
			engine.Event{Type: engine.EventPermissionRequest, Call: call("w1", "write_file", req.Arguments), Permission: &req})
		r, _ := t.Prompts.Permit(ctx, req)
		got <- r
		return answerTurn("done")(ctx, t)
	}
}

func TestChatPermissionPromptWithDiff(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		got := make(chan PermitResult, 1)
		d := newDriver(t, &fakeHost{turn: permittingTurn(got)}, size[0], size[1])
		d.typeText("fix main")
		d.key("enter")
		d.until("the prompt", func() bool { return d.m.form() != nil })
		scr := d.screen()
		for _, want := range []string{"Allow write_file?", "+import (", "Allow always in this project", "waiting for your approval"} {
			if !strings.Contains(scr, want) {
				t.Errorf("%dx%d: the prompt lacks %q:\n%s", size[0], size[1], want, scr)
			}
		}
		golden(t, "chat_permit_diff_"+itoa(size[0])+"x"+itoa(size[1]), d.m.render())
		if !strings.Contains(scr, "os.Exit(0)") {
			d.key("pgdown", "pgdown")
			if !strings.Contains(d.screen(), "os.Exit(0)") {
				t.Errorf("PgDn should show the rest of the diff:\n%s", d.screen())
			}
		}
		d.key("4")
		d.typeText("not that file")
		d.key("enter")
		d.idle()
		r := <-got
		if r.Decision.Action != engine.Deny || r.Decision.Reason != "not that file" {
			t.Fatalf("deny with a reason: got %+v", r)
		}
	}
}

// TestChatPermissionCancelStopsTheTurn: "Cancel the run" at the chat's
// permission prompt gives the host the Cancel decision with the cancel
// error, as the inline prompt of llmrt run does.
func TestChatPermissionCancelStopsTheTurn(t *testing.T) {
	got := make(chan error, 1)
	turn := func(ctx context.Context, tu Turn) error {
		req := diffRequest(mainDiff)
		r, err := tu.Prompts.Permit(ctx, req)
		if r.Decision.Action != engine.Cancel {
			err = fmt.Errorf("decision %q with %v", r.Decision.Action, err)
		}
		got <- err
		return nil
	}
	d := newDriver(t, &fakeHost{turn: turn}, 80, 24)
	d.typeText("fix main")
	d.key("enter")
	d.until("the prompt", func() bool { return d.m.form() != nil })
	d.key("5")
	d.idle()
	if err := <-got; !isCancel(err, "cancelled at the permission prompt") {
		t.Fatalf("Cancel the run: got %v, want the cancel error naming the permission prompt", err)
	}
}

func TestStatusLine(t *testing.T) {
	for _, w := range []int{80, 120} {
		d := newDriver(t, &fakeHost{}, w, 24)
		d.m.status.Usage = engine.Usage{InputTokens: 123_456, OutputTokens: 7_890}
		idle := d.m.statusLine()
		d.m.busy, d.m.state = true, "thinking"
		freeze(d, t0.Add(65_000_000_000))
		busy := d.m.statusLine()
		golden(t, "chat_status_"+itoa(w), idle+"\n"+busy)
		for _, s := range []string{ansi.Strip(idle), ansi.Strip(busy)} {
			if widthOf(s) != w {
				t.Errorf("the status line is %d wide at %d columns: %q", widthOf(s), w, s)
			}
		}
		if !strings.Contains(plain(busy), "↑123.5k ↓7.9k · ⠋ thinking 1m05s") {
			t.Errorf("busy status: %q", plain(busy))
		}
	}
}

// TestAskedCallKeepsOneLine: a call asked about before it starts shows as
// waiting, and once allowed runs and finishes on the same line.
func TestAskedCallKeepsOneLine(t *testing.T) {
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		args := `{"command":"make build"}`
		req := engine.PermissionRequest{Tool: "shell_cmd", Kind: tools.KindExternalAction, Arguments: args, Suggested: "shell_cmd(command=make *)"}
		play(tu, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart},
			engine.Event{Type: engine.EventPermissionRequest, Call: call("s1", "shell_cmd", args), Permission: &req})
		if _, err := tu.Prompts.Permit(ctx, req); err != nil {
			return err
		}
		play(tu, engine.Event{Type: engine.EventToolStart, Call: call("s1", "shell_cmd", args)},
			engine.Event{Type: engine.EventToolResult, Call: call("s1", "shell_cmd", ""), Outcome: &engine.ToolOutcome{Content: `{"exit_code":0,"output":"built\nok"}`}})
		return answerTurn("built")(ctx, tu)
	}}
	d := newDriver(t, h, 80, 24)
	d.typeText("build")
	d.key("enter")
	d.until("the prompt", func() bool { return d.m.form() != nil })
	if !strings.Contains(d.screen(), "? shell_cmd  make build  waiting for your approval") {
		t.Fatalf("the call should wait on its line:\n%s", d.screen())
	}
	d.key("1")
	d.idle()
	scr := d.screen()
	if strings.Count(scr, "shell_cmd  make build") != 1 || !strings.Contains(scr, "✓ shell_cmd  make build") || !strings.Contains(scr, "exit 0") {
		t.Fatalf("one line for the call, finished:\n%s", scr)
	}
	d.key("ctrl+o")
	if scr := d.screen(); !strings.Contains(scr, "      built\n") {
		t.Fatalf("the expanded call shows its output as lines:\n%s", scr)
	}
}

// TestAllowedOnceOnTheCallsLine: "allowed once" shows on the line of the
// call it allowed, with its time and result, not as a line of its own;
// other choices keep their line.
func TestAllowedOnceOnTheCallsLine(t *testing.T) {
	run := func(key string) string {
		got := make(chan PermitResult, 1)
		h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
			req := engine.PermissionRequest{Tool: "shell_cmd", Kind: "external", Arguments: `{"command":"make test"}`, Suggested: "shell_cmd(command=make test)"}
			play(tu, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart},
				engine.Event{Type: engine.EventToolStart, Call: call("s1", "shell_cmd", req.Arguments)},
				engine.Event{Type: engine.EventPermissionRequest, Call: call("s1", "shell_cmd", req.Arguments), Permission: &req})
			r, _ := tu.Prompts.Permit(ctx, req)
			got <- r
			if r.Decision.Action == engine.AllowOnce {
				play(tu, engine.Event{Type: engine.EventToolResult, Call: call("s1", "shell_cmd", ""), Outcome: &engine.ToolOutcome{Content: `{"exit_code":0}`}})
			}
			return answerTurn("done")(ctx, tu)
		}}
		d := newDriver(t, h, 80, 24)
		d.typeText("test it")
		d.key("enter")
		d.until("the prompt", func() bool { return d.m.form() != nil })
		d.key(key)
		d.idle()
		<-got
		return d.screen()
	}
	scr := run("1")
	if !strings.Contains(scr, "✓ shell_cmd  make test") || !strings.Contains(scr, "allowed once · ") || strings.Contains(scr, "✔ shell_cmd: allowed once") {
		t.Errorf("allowed once should be on the call's line:\n%s", scr)
	}
	scr = run("2")
	if !strings.Contains(scr, "✔ shell_cmd: allowed always in this session") {
		t.Errorf("allow always keeps its line, which names the rule:\n%s", scr)
	}
}
