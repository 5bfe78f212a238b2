package ui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// hostileJSON is hostile as a JSON string, its controls escaped.
var hostileJSON = quoteJSON(hostile)

// outsideControl reports the first control in s that is not part of an
// SGR sequence (llmrt's own styling), or the SGR of hostile (red, which
// the monochrome palette never uses), or "" when there is none.
func outsideControl(s string) string {
	if i := strings.Index(s, "\x1b[31m"); i >= 0 {
		return s[max(i-10, 0):min(i+20, len(s))]
	}
	if k := keepStyle(s); k != s {
		for i := 0; i < len(k) && i < len(s); i++ {
			if k[i] != s[i] {
				return strings.ToValidUTF8(s[max(i-10, 0):min(i+20, len(s))], "?")
			}
		}
		return "at the end"
	}
	return ""
}

// TestChatScreenShowsOutsideTextAsText: every kind of text a turn brings
// to the chat screen — answer, reasoning, narration split across deltas
// at every byte, a tool's arguments and result, a warning, an error — is
// drawn without the sequences it carried, and its visible words stay.
func TestChatScreenShowsOutsideTextAsText(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 7, 1000} {
		m := New(context.Background(), Options{Host: &fakeHost{}, Palette: NewPalette(false, true)})
		m.Update(resize(120, 60))
		m.look.showThinking = true
		apply := func(evs ...engine.Event) {
			for _, ev := range evs {
				ev.RunID = "r"
				m.apply(ev)
			}
		}
		apply(engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart})
		apply(deltas(engine.EventReasoningDelta, "thinking "+hostile, n)...)
		apply(deltas(engine.EventTextDelta, "narration "+hostile+"\n\n", n)...)
		apply(engine.Event{Type: engine.EventAssistantMessage},
			engine.Event{Type: engine.EventToolStart, Call: call("c1", "shell_cmd", `{"command":`+quoteJSON("echo "+hostile)+`}`)},
			engine.Event{Type: engine.EventToolResult, Call: call("c1", "shell_cmd", ""), Outcome: &engine.ToolOutcome{Content: `{"output":` + hostileJSON + `,"exit_code":0}`}},
			engine.Event{Type: engine.EventWarning, Warning: &engine.Warning{Code: "x", Message: "warning " + hostile}},
			engine.Event{Type: engine.EventModelStart})
		apply(deltas(engine.EventAnswerDelta, "answer "+hostile, n)...)
		apply(engine.Event{Type: engine.EventAssistantMessage},
			engine.Event{Type: engine.EventFailed, Result: &engine.Result{Status: engine.StatusFailed, Error: &engine.RunError{Message: "error " + hostile}}})
		// Folded, the command's last output lines show under its line.
		if bad := outsideControl(m.render()); bad != "" {
			t.Fatalf("deltas of %d bytes, calls folded: the screen holds a control sequence near %q:\n%s", n, bad, m.render())
		}
		openCalls(m)
		scr := m.render()
		if bad := outsideControl(scr); bad != "" {
			t.Fatalf("deltas of %d bytes: the screen holds a control sequence near %q:\n%s", n, bad, scr)
		}
		text := plain(scr)
		for _, want := range []string{"click here", "redRED", "backX", "crY", "c1Z end"} {
			if c := strings.Count(text, want); c < 6 {
				t.Errorf("deltas of %d bytes: %q shown %d times, want 6 (reasoning, narration, command, result, warning, answer):\n%s", n, want, c, text)
			}
		}
	}
}

func TestChatHistoryAndRepliesShowTextOnly(t *testing.T) {
	h := &fakeHost{replies: map[string]Reply{
		"tools": {Report: ToolList{Tools: []engine.ToolInfo{{Name: "mcp__x__y", Description: "desc " + hostile, Source: "mcp:x"}},
			Servers: []ServerStatus{{Name: "x", State: "failed", Err: "stderr " + hostile}}}, Warnings: []string{"warn " + hostile}},
	}}
	history := []engine.Message{
		engine.TextMessage(engine.RoleUser, "question "+hostile),
		engine.TextMessage(engine.RoleAssistant, "old answer "+hostile),
	}
	d := newDriver(t, h, 160, 50, func(o *Options) {
		o.History, o.Notes = history, []string{"note " + hostile}
		o.Status.Model = "model\x1b]0;PWNED\x07" // guarded under the transcript
	})
	d.typeText("/tools")
	d.key("enter")
	d.until("the reply", func() bool { return !d.m.busy })
	scr := d.m.render()
	if bad := outsideControl(scr); bad != "" {
		t.Fatalf("the screen holds a control sequence near %q:\n%s", bad, scr)
	}
	if c := strings.Count(plain(scr), "click here"); c < 6 {
		t.Errorf("the visible text should stay (%d times, want 6):\n%s", c, plain(scr))
	}
}

func TestFormsShowTextOnly(t *testing.T) {
	p := NewPalette(false, true)
	in := tools.AskInput{Questions: []tools.Question{{ID: "q", Header: "h" + hostile, Question: "Which? " + hostile,
		Options: []tools.Choice{{ID: "a\x1b", Label: "A " + hostile}, {ID: "b", Label: "B", Description: hostile}}}}}
	ask := NewAskForm(in, p)
	if bad := outsideControl(ask.View(160, 40)); bad != "" {
		t.Errorf("the question shows a control sequence near %q", bad)
	}
	ask.Update(keyPress("enter"))
	if got := ask.Answer().Selected["q"]; len(got) != 1 || got[0] != "a\x1b" {
		t.Errorf("the answer should carry the option's own id, got %q", got)
	}
	req := shellRequest("echo " + hostile)
	req.Suggested = "shell_cmd(command=echo \x1b]0;x\x07*)"
	permit := NewPermitForm(req, p)
	if bad := outsideControl(permit.View(160, 40)); bad != "" {
		t.Errorf("the permission prompt shows a control sequence near %q", bad)
	}
	permit.Update(keyPress("down"))
	permit.Update(keyPress("enter"))
	if r := permit.Result(); r.Decision.Rule != req.Suggested {
		t.Errorf("allow always should add the engine's rule %q, got %q", req.Suggested, r.Decision.Rule)
	}
}

func TestProgressPrintsTextOnly(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, ProgressOptions{Verbose: true, Color: true})
	msg := engine.TextMessage(engine.RoleAssistant, "narration "+hostile)
	for _, ev := range []engine.Event{
		{Type: engine.EventRunStart, RunID: "r"},
		{Type: engine.EventModelStart, RunID: "r", Provider: "p", Model: "m\x1b]0;x\x07"},
		{Type: engine.EventAssistantMessage, RunID: "r", Message: &msg},
		{Type: engine.EventToolStart, RunID: "r", Call: call("c1", "shell_cmd", `{"command":`+quoteJSON("echo "+hostile)+`}`)},
		{Type: engine.EventToolError, RunID: "r", Call: call("c1", "shell_cmd", ""), Outcome: &engine.ToolOutcome{IsError: true, Content: "failed " + hostile}},
		{Type: engine.EventWarning, RunID: "r", Warning: &engine.Warning{Code: "x", Message: "warning " + hostile}},
	} {
		p.Event(ev)
	}
	if bad := outsideControl(out.String()); bad != "" {
		t.Fatalf("progress printed a control sequence near %q:\n%q", bad, out.String())
	}
	if c := strings.Count(plain(out.String()), "click here"); c < 4 {
		t.Errorf("the visible text should stay (%d times, want 4):\n%s", c, out.String())
	}
}

// TestMarkdownWriterPrintsTextOnly: deltas split anywhere, and Markdown
// character references that a renderer would decode into controls (the
// other references show as written).
func TestMarkdownWriterPrintsTextOnly(t *testing.T) {
	answer := "# Title\n\n" + hostile + "\n\nrefs &#27;]0;PWNED&#7; &#x1B;[2J &#X9b;31m &#0027;c &#13;x &#x9d;0;t&#x9c; &amp; &#169; &#10;\n\n" +
		"```\ncode " + hostile + "\n```\n"
	for _, n := range []int{1, 4, 1 << 20} {
		var out bytes.Buffer
		w := NewMarkdownWriter(&out, 100)
		for i := 0; i < len(answer); i += n {
			w.Write([]byte(answer[i:min(i+n, len(answer))]))
		}
		w.Flush()
		if bad := outsideControl(out.String()); bad != "" {
			t.Fatalf("deltas of %d: the rendered answer holds a control sequence near %q:\n%q", n, bad, out.String())
		}
		text := plain(out.String())
		for _, want := range []string{"click here", "redRED", "c1Z end", "&amp; &#169;"} {
			if !strings.Contains(text, want) {
				t.Errorf("deltas of %d: the answer lost %q:\n%s", n, want, text)
			}
		}
	}
}

func TestTextWriter(t *testing.T) {
	var out bytes.Buffer
	w := NewTextWriter(&out)
	for i := 0; i < len(hostile); i += 3 {
		piece := hostile[i:min(i+3, len(hostile))]
		write := func() (int, error) { return w.Write([]byte(piece)) }
		if i%2 == 1 {
			write = func() (int, error) { return io.WriteString(w, piece) }
		}
		if n, err := write(); err != nil || n != len(piece) {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	if out.String() != hostileVisible {
		t.Errorf("got %q, want %q", out.String(), hostileVisible)
	}
}

func TestCleanDoc(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":"plain","b":1}`, `{"a":"plain","b":1}`},
		{`{"a":"x\u001b]0;t\u0007y","b":"<ok>"}`, `{"a":"xy","b":"<ok>"}`},
		{`{"a":"\u001B[31mred\u009b2J"}`, `{"a":"red"}`},
		{`{"a":"escaped backslash \\u001b stays"}`, `{"a":"escaped backslash \\u001b stays"}`},
		{`{"a":"new\nline\ttab \u003c"}`, `{"a":"new\nline\ttab \u003c"}`},
		{`not json "\u001b" stays`, `not json "\u001b" stays`},
		{"raw \x1b]0;t\x07 text", "raw  text"},
	} {
		if got := cleanDoc(c.in); got != c.want {
			t.Errorf("cleanDoc(%q):\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestCleanerLeavesEventsAlone: the engine's values, which the session
// and stream-json share, are never changed.
func TestCleanerLeavesEventsAlone(t *testing.T) {
	msg := engine.TextMessage(engine.RoleAssistant, hostile)
	out := &engine.ToolOutcome{Content: hostile}
	res := &engine.Result{Output: hostile, Warnings: []engine.Warning{{Message: hostile}}}
	var c cleaner
	c.event(engine.Event{Type: engine.EventAssistantMessage, Message: &msg})
	c.event(engine.Event{Type: engine.EventToolResult, Call: call("1", "x", hostileJSON), Outcome: out})
	c.event(engine.Event{Type: engine.EventCompleted, Result: res})
	if msg.Text() != hostile || out.Content != hostile || res.Output != hostile || res.Warnings[0].Message != hostile {
		t.Error("the cleaner changed the engine's values")
	}
	if len(c.streams) != 0 {
		t.Errorf("streams left open after the run ended: %d", len(c.streams))
	}
}
