package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// TestUnclosedFenceStreamsAsCode: while a code fence streams, the chat
// shows it as the code block it will be — never the raw ```go line — and
// each code line keeps the place and indentation it has once the fence
// closes.
func TestUnclosedFenceStreamsAsCode(t *testing.T) {
	chunks := []string{"Here is the program:\n\n```go\npack", "age main\n\nfunc main() {\n\tpri", "ntln(\"hi\")\n}\n", "```\n\nRun it with go run."}
	next := make(chan struct{}, len(chunks))
	h := &fakeHost{turn: func(ctx context.Context, tu Turn) error {
		play(tu, engine.Event{Type: engine.EventRunStart}, engine.Event{Type: engine.EventModelStart})
		for _, c := range chunks {
			<-next
			play(tu, engine.Event{Type: engine.EventTextDelta, Delta: c})
		}
		res := engine.Result{Status: engine.StatusCompleted, Output: strings.Join(chunks, "")}
		play(tu, engine.Event{Type: engine.EventAssistantMessage, Message: ptr(engine.TextMessage(engine.RoleAssistant, strings.Join(chunks, "")))},
			engine.Event{Type: engine.EventCompleted, Result: &res})
		return nil
	}}
	d := newDriver(t, h, 80, 24)
	d.typeText("show me")
	d.key("enter")
	var screens []string
	for i, seen := range []string{"    pack", "    pri", "println(\"hi\")", "Run it with"} {
		go func() { next <- struct{}{} }() // d.until runs the turn's commands meanwhile
		d.until("chunk "+itoa(i), func() bool { return strings.Contains(d.screen(), seen) })
		screens = append(screens, d.screen())
	}
	d.idle()
	final := d.screen()
	for i, scr := range screens[:3] {
		if strings.Contains(scr, "```") {
			t.Errorf("step %d shows the raw fence:\n%s", i, scr)
		}
	}
	for _, code := range []string{"    package main", "    func main() {"} {
		if !strings.Contains(screens[2], code) || !strings.Contains(final, code) {
			t.Errorf("%q should show the same while streaming and after:\n%s\n---\n%s", code, screens[2], final)
		}
	}
}

// TestFenceOpeningLine: a fence whose opening line is still being written
// shows nothing of it.
func TestFenceOpeningLine(t *testing.T) {
	var ti textItem
	l := &look{pal: NewPalette(false, true), md: newRenderer(true)}
	ti.add("Intro.\n\n```g")
	if got := strings.Join(ti.lines(l, 80), "\n"); strings.Contains(got, "```") || !strings.Contains(got, "Intro.") {
		t.Errorf("got:\n%s", got)
	}
}

// TestCodeUsesTheWholeWidth: a 75-column line of code fits on one line
// at 80 columns, indentation included; prose keeps its margin.
func TestCodeUsesTheWholeWidth(t *testing.T) {
	line := "\tif err := os.WriteFile(filepath.Join(d, nm), data, 0o644); err != nil {"
	if n := len(strings.ReplaceAll(line, "\t", "    ")); n != 75 {
		t.Fatalf("the sample is %d columns", n)
	}
	r := newRenderer(true)
	out := plain(r.render("```go\n"+line+"\n```\n", 80))
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 1 || !strings.HasSuffix(strings.TrimRight(lines[0], " "), "err != nil {") {
		t.Errorf("the code line should fit on one line at 80 columns:\n%s", out)
	}
	for _, l := range lines {
		if w := widthOf(l); w > 80 {
			t.Errorf("a line of %d columns at 80: %q", w, l)
		}
	}
}

// TestWrappedCodeKeepsItsIndent: a code line wider than the screen goes
// on at its own indentation behind a dim ↪, which tells it from a line
// of its own.
func TestWrappedCodeKeepsItsIndent(t *testing.T) {
	line := "\t\treturn fmt.Errorf(\"open %s: the file is not there or cannot be read: %w\", name, err)"
	out := newRenderer(true).render("```go\nfunc f() {\n"+line+"\n}\n```\n", 60)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 4 {
		t.Fatalf("the long line should wrap at 60 columns:\n%s", plain(out))
	}
	indent := strings.Index(plain(lines[1]), "return")
	cont := lines[2]
	if !strings.HasPrefix(cont, strings.Repeat(" ", indent)+"\x1b[2m↪\x1b[22m ") {
		t.Errorf("the continuation should start at the line's indentation (%d) with a dim ↪: %q", indent, cont)
	}
	if p := plain(lines[3]); !strings.HasPrefix(strings.TrimLeft(p, " "), "}") || strings.Contains(p, "↪") {
		t.Errorf("the next line of code has no mark: %q", p)
	}
}

// TestStreamedCodeStaysPut: an answer with a code block streamed a byte
// at a time never moves a line it has drawn: at every step each line but
// the one being written is the line the finished answer has there, and
// no fence character shows on its own.
func TestStreamedCodeStaysPut(t *testing.T) {
	answer := "Here is the fix:\n\n```go\nfunc save(d, nm string, data []byte) error {\n\tif err := os.WriteFile(filepath.Join(d, nm), data, 0o644); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n```\n\nThat keeps the error's cause."
	l := &look{pal: NewPalette(false, true), md: newRenderer(true)}
	var whole textItem
	whole.add(answer)
	whole.finish()
	final := whole.lines(l, 80)
	for i := range final {
		final[i] = strings.TrimRight(plain(final[i]), " ")
	}
	var ti textItem
	for i := 0; i < len(answer); i++ {
		ti.add(answer[i : i+1])
		got := ti.lines(l, 80)
		for j := 0; j+1 < len(got); j++ {
			if g := strings.TrimRight(plain(got[j]), " "); j >= len(final) || g != final[j] {
				t.Fatalf("after %q, line %d is %q, but the finished answer has %q there", answer[:i+1], j, g, at(final, j))
			}
		}
		if n := len(got); n > 0 {
			if last := strings.TrimSpace(plain(got[n-1])); strings.Trim(last, "`~") == "" && last != "" {
				t.Fatalf("after %q, the last line shows a bare fence character: %q", answer[:i+1], last)
			}
		}
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(nothing)"
}
