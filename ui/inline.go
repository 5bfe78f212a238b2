package ui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// stopped is the error of a person who stopped the run at a form (Ctrl-C,
// or Esc and "Cancel"): the one cancel error, engine.CancelError, naming
// the form.
func stopped(f form) error {
	if _, ok := f.(*PermitForm); ok {
		return &engine.CancelError{At: "the permission prompt"}
	}
	return &engine.CancelError{At: "a question"}
}

// Terminal is where an inline prompt is drawn and read: In is a terminal
// (stdin, or /dev/tty when stdin is piped), Out is normally stderr.
type Terminal struct {
	In      io.Reader
	Out     io.Writer
	Palette Palette
}

// Ask puts the questions of in to the person at t and returns the answer.
// Terminal is the Prompter of `llmrt run`.
// The form is drawn inline, below what is on the screen, and leaves one
// summary line per question behind. It returns an *engine.CancelError
// when the person cancels and the context's error when ctx ends first.
func (t Terminal) Ask(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	f := NewAskForm(in, t.Palette)
	if err := runInline(ctx, t, f); err != nil {
		return tools.Answer{}, err
	}
	if f.Cancelled() {
		return tools.Answer{}, stopped(f)
	}
	return f.Answer(), nil
}

// Permit asks the person at t whether the call req may run, inline like
// Ask, and leaves the summary line behind. Cancelling (Ctrl-C or "Cancel
// the run") returns the Cancel decision with an *engine.CancelError.
func (t Terminal) Permit(ctx context.Context, req engine.PermissionRequest) (PermitResult, error) {
	f := NewPermitForm(req, t.Palette)
	if err := runInline(ctx, t, f); err != nil {
		return PermitResult{Decision: engine.Decision{Action: engine.Cancel}}, err
	}
	r := f.Result()
	if r.Decision.Action == engine.Cancel {
		return r, stopped(f)
	}
	return r, nil
}

// form is what runInline drives: an AskForm or a PermitForm.
type form interface {
	Update(tea.Msg) tea.Cmd
	View(width, height int) string
	Done() bool
	Cancel()
}

// stopMsg tells the program that the context ended.
type stopMsg struct{}

// runInline runs f as a Bubble Tea program on t, without the alternate
// screen, until f is done or ctx ends. When ctx ends the form is
// cancelled and drawn one last time (its summary), so no half-answered
// list stays on the screen; the context's error is returned.
//
// The program installs no signal handler: SIGINT and SIGTERM stay with
// the process (the command's signal context), and Ctrl-C reaches the form
// as a key because the terminal is in raw mode.
func runInline(ctx context.Context, t Terminal, f form) error {
	// The program's own context ends a moment after ctx, should the
	// graceful stop below not get through.
	progCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	m := &inline{f: f}
	p := tea.NewProgram(m,
		tea.WithContext(progCtx),
		tea.WithInput(t.In),
		tea.WithOutput(t.Out),
		tea.WithoutSignalHandler(),
		// The size of an output that is not a terminal; a terminal's own
		// size replaces it.
		tea.WithWindowSize(80, 24),
	)
	// When ctx ends the form is stopped with a message, so the program
	// quits the ordinary way and draws its last frame; if that has not
	// happened a second later, the program's context ends it.
	ended := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		p.Send(stopMsg{})
		select {
		case <-ended:
		case <-time.After(time.Second):
			cancel()
		}
	})
	_, err := p.Run()
	close(ended) // ends the AfterFunc goroutine, if it runs
	stop()
	if err == nil && m.up > 0 {
		// The program leaves the cursor on the last line of its padded
		// frame; bring it back to the line under the summary.
		fmt.Fprint(t.Out, ansi.CursorUp(m.up))
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}

// inline adapts a form to a tea.Model: it tracks the terminal's size,
// draws the form's frame after every message, and quits once the form is
// done.
//
// Frames never get shorter: Bubble Tea v2.0.10 draws an inline frame that
// is shorter than the one before it too low on the screen (its renderer
// loses track of the cursor on a shrink), which left parts of the old
// list on the screen. So each frame is padded with empty lines to the
// tallest so far, and once the program has ended the cursor is moved up
// to the line under the summary (see up).
type inline struct {
	f             form
	width, height int
	sized         bool   // a WindowSizeMsg has arrived
	frame         string // what View shows
	tallest       int    // lines of the tallest frame so far
	up            int    // empty lines under the summary of the last frame
}

func (m *inline) Init() tea.Cmd { return nil }

func (m *inline) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height, m.sized = msg.Width, msg.Height, true
	case stopMsg:
		m.f.Cancel()
	default:
		cmd = m.f.Update(msg)
	}
	if m.sized || m.f.Done() {
		m.draw()
	}
	if m.f.Done() {
		return m, tea.Quit
	}
	return m, cmd
}

// draw renders the form into frame, padded to the tallest frame so far.
// One terminal line is left free below the form so the terminal does not
// scroll a full-height form off its top. A finished form's summary ends
// with a newline, so the cursor is left on an empty line below it.
func (m *inline) draw() {
	s := m.f.View(m.width, m.height-1)
	if m.f.Done() {
		s += "\n"
	}
	n := strings.Count(s, "\n") + 1
	m.tallest = max(m.tallest, n)
	m.up = m.tallest - n
	m.frame = s + strings.Repeat("\n", m.tallest-n)
}

func (m *inline) View() tea.View { return tea.NewView(keepStyle(m.frame)) }
