package ui

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/llmrt/llmrt/engine"
)

// fakeHost runs turns with a function of the test's and answers commands
// from a table.
type fakeHost struct {
	mu      sync.Mutex
	turn    func(ctx context.Context, t Turn) error
	prompts []string
	replies map[string]Reply
	asked   []string // commands run, "name arg"
	files   []string
}

func (h *fakeHost) Turn(ctx context.Context, t Turn) error {
	h.mu.Lock()
	h.prompts = append(h.prompts, t.Prompt)
	fn := h.turn
	h.mu.Unlock()
	if fn == nil {
		return nil
	}
	return fn(ctx, t)
}

// commands are handlers of the commands in replies, each recording
// that it ran and answering with its reply.
func (h *fakeHost) commands() map[string]CommandFunc {
	out := map[string]CommandFunc{}
	for name, r := range h.replies {
		out[name] = func(ctx context.Context, arg string) (Reply, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.asked = append(h.asked, name+" "+arg)
			return r, nil
		}
	}
	return out
}

func (h *fakeHost) Files(ctx context.Context, prefix string) []string {
	var out []string
	for _, f := range h.files {
		if len(f) >= len(prefix) && f[:len(prefix)] == prefix {
			out = append(out, f)
		}
	}
	return out
}

// driver runs a chat Model the way Bubble Tea does, one message at a
// time, its commands on goroutines, without a terminal.
type driver struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
	quit bool
	raw  []string // what commands wrote to the terminal as is (tea.Raw)
}

func newDriver(t *testing.T, h Host, width, height int, opts ...func(*Options)) *driver {
	t.Helper()
	o := Options{Host: h, Palette: NewPalette(false, true), Status: Status{Provider: "openai", Model: "gpt-5", Permission: "ask", Sandbox: "workspace-write", Session: "20261124-120000-abc123"}}
	if fh, ok := h.(*fakeHost); ok {
		o.Commands = fh.commands()
	}
	for _, f := range opts {
		f(&o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	d := &driver{t: t, m: New(ctx, o), msgs: make(chan tea.Msg, 1024)}
	d.send(tea.WindowSizeMsg{Width: width, Height: height})
	d.run(d.m.Init())
	return d
}

func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { d.msgs <- cmd() }()
}

// key sends key presses by name ("enter", "esc", "a", "ctrl+c").
func (d *driver) key(names ...string) {
	for _, n := range names {
		d.send(keyPress(n))
	}
}

// typeText types text into whatever has the keyboard.
func (d *driver) typeText(s string) {
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// until delivers messages from commands until cond holds.
func (d *driver) until(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.deliver(msg)
		case <-deadline:
			d.t.Fatalf("timed out waiting for %s; screen:\n%s", what, plain(d.m.render()))
		}
	}
}

func (d *driver) deliver(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case tea.QuitMsg:
		d.quit = true
	case tea.RawMsg:
		d.raw = append(d.raw, fmt.Sprint(msg.Msg))
	case tickMsg:
		// Time stands still in tests: the spinner does not move.
	default:
		d.send(msg)
	}
}

// idle waits for the running turn to end.
func (d *driver) idle() { d.t.Helper(); d.until("the turn to end", func() bool { return !d.m.busy }) }

func (d *driver) screen() string { return plain(d.m.render()) }

// keyPress builds a key press message from a key's name.
func keyPress(name string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"enter":     {Code: tea.KeyEnter},
		"alt+enter": {Code: tea.KeyEnter, Mod: tea.ModAlt},
		"esc":       {Code: tea.KeyEscape},
		"tab":       {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"up":        {Code: tea.KeyUp},
		"down":      {Code: tea.KeyDown},
		"pgup":      {Code: tea.KeyPgUp},
		"pgdown":    {Code: tea.KeyPgDown},
		"space":     {Code: tea.KeySpace, Text: " "},
		"backspace": {Code: tea.KeyBackspace},
		"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+d":    {Code: 'd', Mod: tea.ModCtrl},
		"ctrl+o":    {Code: 'o', Mod: tea.ModCtrl},
		"ctrl+r":    {Code: 'r', Mod: tea.ModCtrl},
	}
	if k, ok := special[name]; ok {
		return k
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// events plays a turn's events, stamping run id and time.
func play(t Turn, evs ...engine.Event) {
	for _, ev := range evs {
		if ev.RunID == "" {
			ev.RunID = "run_1"
		}
		if ev.Time.IsZero() {
			ev.Time = time.Now()
		}
		t.Events(ev)
	}
}

func pasteMsg(s string) tea.PasteMsg { return tea.PasteMsg{Content: s} }

func resize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func wheel(down bool) tea.MouseWheelMsg {
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	return tea.MouseWheelMsg{Button: b}
}

// openCalls expands every tool call on the transcript, as Ctrl+O does one.
func openCalls(m *Model) {
	for _, it := range m.tr.items {
		if t, ok := it.(*toolItem); ok {
			t.open = true
			t.version++
		}
	}
}

// ran returns the commands run so far, "name arg".
func (h *fakeHost) ran() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.asked...)
}
