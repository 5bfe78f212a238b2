package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// TestPromptCommands: the host's custom commands are listed by /help and
// the completions with their argument and description, run as a turn the
// host is told is a command, show as typed, and wait behind a running
// turn; one named like a built-in command is left out.
func TestPromptCommands(t *testing.T) {
	release := make(chan struct{})
	type sent struct {
		prompt  string
		command bool
	}
	var (
		mu    sync.Mutex
		turns []sent
	)
	h := &fakeHost{turn: func(ctx context.Context, tn Turn) error {
		mu.Lock()
		turns = append(turns, sent{tn.Prompt, tn.Command})
		n := len(turns)
		mu.Unlock()
		if n == 1 {
			<-release
		}
		return nil
	}}
	custom := []Command{
		{Name: "review", Args: "<file>", Desc: "(project) review a file"},
		{Name: "frontend:component", Desc: "(user) scaffold a component"},
		{Name: "help", Desc: "a file that would shadow /help"},
	}
	d := newDriver(t, h, 100, 40, func(o *Options) { o.Custom = custom })

	d.typeText("/rev")
	if scr := d.screen(); !strings.Contains(scr, "/review") || !strings.Contains(scr, "<file> · (project) review a file") {
		t.Errorf("the completions should offer /review with its hint and description:\n%s", scr)
	}
	d.key("backspace", "backspace", "backspace", "backspace")
	d.typeText("/help")
	d.key("enter")
	scr := d.screen()
	for _, want := range []string{"/review <file>", "(project) review a file", "/frontend:component", "(user) scaffold a component"} {
		if !strings.Contains(scr, want) {
			t.Errorf("/help lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "would shadow") {
		t.Errorf("a custom command named like a built-in one is listed:\n%s", scr)
	}

	d.typeText("/review src/main.go")
	d.key("enter")
	d.until("the command's turn", func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.prompts) == 1 })
	if !strings.Contains(d.screen(), "› /review src/main.go") {
		t.Errorf("the screen should show the command as typed:\n%s", d.screen())
	}
	d.typeText("/frontend:component Button")
	d.key("enter")
	if !strings.Contains(d.screen(), "queued › /frontend:component Button") {
		t.Errorf("a command typed during a turn should wait in the queue:\n%s", d.screen())
	}
	close(release)
	d.until("the queued command's turn", func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.prompts) == 2 })
	d.idle()
	want := []sent{{"/review src/main.go", true}, {"/frontend:component Button", true}}
	mu.Lock()
	defer mu.Unlock()
	if len(turns) != 2 || turns[0] != want[0] || turns[1] != want[1] {
		t.Errorf("turns = %+v, want %+v", turns, want)
	}
}

// commandsHost is a fakeHost whose prompt commands grow once a turn ran,
// as an MCP server's prompts appear once it started.
type commandsHost struct {
	*fakeHost
	mu    sync.Mutex
	asked int
}

func (h *commandsHost) PromptCommands(context.Context) []Command {
	h.fakeHost.mu.Lock()
	turns := len(h.prompts)
	h.fakeHost.mu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked++
	if turns == 0 {
		return []Command{}
	}
	return []Command{{Name: "mcp__docs__greet", Args: "<name>", Desc: "(mcp docs) Greets someone"}}
}

// TestPromptCommandsRefreshed: a host's prompt commands are asked again
// after a turn, and the new ones are completed and run as commands.
func TestPromptCommandsRefreshed(t *testing.T) {
	h := &commandsHost{fakeHost: &fakeHost{}}
	d := newDriver(t, h, 100, 40)
	d.until("the commands asked for at the start", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.asked == 1
	})
	d.typeText("/mcp__")
	if strings.Contains(d.screen(), "mcp__docs__greet") {
		t.Fatalf("the prompt command is offered before the host has it:\n%s", d.screen())
	}
	d.key("ctrl+c")
	d.typeText("hello")
	d.key("enter")
	d.idle()
	d.until("the commands asked for again", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.asked > 1
	})
	d.typeText("/mcp__d")
	d.until("the new command offered", func() bool {
		return strings.Contains(d.screen(), "<name> · (mcp docs) Greets someone")
	})
	d.key("tab")
	d.typeText("Ada")
	d.key("enter")
	d.until("the command's turn", func() bool {
		h.fakeHost.mu.Lock()
		defer h.fakeHost.mu.Unlock()
		return len(h.prompts) == 2
	})
	h.fakeHost.mu.Lock()
	got := h.prompts[1]
	h.fakeHost.mu.Unlock()
	if got != "/mcp__docs__greet Ada" {
		t.Errorf("second turn = %q, want the command as typed", got)
	}
}
