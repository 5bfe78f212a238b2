package cmd

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/ui"
)

// TestChatImplementsEveryCommand: the chat gives a handler for every
// command the screen does not run itself, and none for a name that is no
// command.
func TestChatImplementsEveryCommand(t *testing.T) {
	c, _ := newTestChat(t, twoTurnScript)
	handlers := c.commands()
	var want []string
	for _, cmd := range ui.Commands() {
		if !cmd.Screen {
			want = append(want, cmd.Name)
		}
	}
	var got []string
	for name := range handlers {
		got = append(got, name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("handlers for %q, want %q", got, want)
	}
}

// TestChatCommands covers the slash commands the host runs: each fills
// its typed report with the chat's data.
func TestChatCommands(t *testing.T) {
	c, _ := newTestChat(t, twoTurnScript)
	screen := &screenStub{permit: ui.PermitResult{Decision: engine.Decision{Action: engine.AllowOnce}}}
	chatTurn(t, c, screen, "write a")
	first := c.sessionID()
	ctx := context.Background()
	handlers := c.commands()
	run := func(name, arg string) (ui.Reply, error) { return handlers[name](ctx, arg) }
	cmd := func(name, arg string) ui.Reply {
		t.Helper()
		r, err := run(name, arg)
		if err != nil {
			t.Fatalf("/%s %s: %v", name, arg, err)
		}
		return r
	}
	r := cmd("permission", "read")
	if rep, ok := r.Report.(ui.PermissionReport); !ok || !rep.Changed || rep.Mode != "read" || r.Status == nil || r.Status.Permission != "read" || c.h.s.permission.Mode != engine.ModeRead {
		t.Errorf("/permission read: %+v", r)
	}
	if _, err := run("permission", "bogus"); err == nil {
		t.Error("/permission bogus should fail")
	}
	if r := cmd("plan", "look around"); r.Send != "look around" || r.Status == nil || r.Status.Permission != "plan" || c.h.s.permission.Mode != engine.ModePlan {
		t.Errorf("/plan look around: got %+v, want plan mode and the prompt sent", r)
	}
	if r := cmd("plan", ""); r.Send != "" || c.h.s.permission.Mode != engine.ModePlan {
		t.Errorf("/plan: got %+v, want plan mode and nothing sent", r)
	}
	cmd("permission", "read")
	if rep, ok := cmd("usage", "").Report.(ui.UsageReport); !ok || rep.Usage.InputTokens != 220 {
		t.Errorf("/usage: got %+v, want 220 input tokens", rep)
	}
	if rep, ok := cmd("context", "").Report.(ui.ContextReport); !ok || rep.Parts.Tools == 0 || rep.Parts.Conversation == 0 || rep.Model != c.h.s.model {
		t.Errorf("/context: %+v", rep)
	}
	if rep, ok := cmd("compact", "").Report.(ui.Notice); !ok || !strings.Contains(string(rep), "/compact keeps the latest turns as they are up to about") {
		t.Errorf("/compact of one turn should say there is nothing to compact: %+v", rep)
	}
	tools, ok := cmd("tools", "").Report.(ui.ToolList)
	if !ok || !slices.ContainsFunc(tools.Tools, func(ti engine.ToolInfo) bool {
		return ti.Name == "read_file" && ti.Kind == "read" && ti.Source == "builtin"
	}) || tools.Commands == "" {
		t.Errorf("/tools: %+v", tools)
	}
	sessions, ok := cmd("sessions", "").Report.(ui.SessionList)
	if !ok || !slices.ContainsFunc(sessions.Sessions, func(s ui.SessionInfo) bool { return s.ID == first && s.Title == "write a" }) {
		t.Errorf("/sessions should list %s: %+v", first, sessions)
	}
	model := c.h.s.model
	r = cmd("model", "scripted/"+model)
	if rep, ok := r.Report.(ui.ModelReport); !ok || !rep.Switched || rep.Provider != "scripted" || r.Status == nil || r.Status.Model != model || c.rt != nil {
		t.Errorf("/model should switch and drop the runtime: %+v", r)
	}
	if rep, ok := cmd("model", "").Report.(ui.ModelReport); !ok || rep.Switched || !slices.Contains(rep.Providers, "openai") {
		t.Errorf("/model: %+v", rep)
	}
	r = cmd("clear", "")
	if r.History == nil || len(r.History) != 0 || c.sessionID() != "" || len(c.conv.Messages()) != 0 {
		t.Errorf("/clear should start over: %+v", r)
	}
	// A torn last line (a crash while writing) is skipped with a warning
	// the screen shows with the reply.
	f, err := os.OpenFile(filepath.Join(c.h.store.Dir, first+".jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","mess`)
	f.Close()
	r = cmd("resume", first)
	if rep, ok := r.Report.(ui.Resumed); !ok || rep.ID != first || len(r.History) == 0 || c.sessionID() != first || r.History[len(r.History)-1].Role == engine.RoleUser {
		t.Errorf("/resume %s: %+v", first, r)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "torn last line") {
		t.Errorf("/resume of a torn session: warnings %q, want the skipped line", r.Warnings)
	}
	if _, err := run("resume", "no-such-session"); err == nil {
		t.Error("/resume of a missing session should fail")
	}
}
