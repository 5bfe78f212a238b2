package ui

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/llmrt/llmrt/engine"
)

// Options configure the chat screen.
type Options struct {
	Host Host
	// Commands are the host's handlers of slash commands, by name
	// (Command.Name): one for each command of Commands the host
	// implements. A handler for a screen command or for a name that is
	// no command is never called.
	Commands map[string]CommandFunc
	// Custom are the host's prompt commands (custom commands, skills),
	// listed after the built-in ones in /help and the completions. One
	// named like a built-in command is left out.
	Custom  []Command
	Palette Palette
	// Dark says the terminal's background is dark (Markdown styles).
	Dark   bool
	Status Status
	// History is a resumed conversation to show; Pending says its
	// questions are waiting, and the screen starts a turn to ask them.
	History []engine.Message
	Pending bool
	// Prompt, when set, is sent as soon as the screen is up.
	Prompt string
	// Notes are shown first (start-up warnings).
	Notes []string
	// StatusLine, when set, gives the person's own status line, drawn
	// above llmrt's. The screen calls it off its loop when the facts
	// change (the start, each turn's end, a command's new status), at
	// most once per 300 ms.
	StatusLine StatusLineFunc
	// Found says what the host found to work with (MCP servers, skills),
	// for the first note of a new chat; "" says nothing.
	Found string
	// Args lists the values of commands' arguments, by command name, for
	// the menu that opens when one is typed (/model, /resume).
	Args map[string]ArgsFunc
	// Notify is how the person hears that a long turn ended or that a
	// prompt waits for them.
	Notify Notify
	// Notified, when set, is told each notification's text, whatever
	// Notify says (the host's Notification hooks); it must not block.
	Notified func(text string)
	// In and Out are the terminal; nil means the process's own.
	In  io.Reader
	Out io.Writer
}

// Model is the chat screen's Bubble Tea model.
type Model struct {
	host Host
	cmds commandSet
	// base is the program's context: turns and host calls derive theirs
	// from it, since Bubble Tea hands commands no context of their own.
	base   context.Context
	look   look
	width  int
	height int
	tr     transcript
	in     input
	status Status

	// The turn: turn numbers the turns, so a late message from an old one
	// is recognised; busy while one runs.
	turn       int
	q          *queue // the running turn's
	busy       bool
	cancel     context.CancelFunc
	cancelling bool
	state      string // what the run is doing, for the status line
	ticks      int    // the generation of the spinner's ticks
	since      time.Time
	runUsage   engine.Usage // the running turn's tokens so far
	runs       map[string]*runView
	calls      map[string]*toolItem
	forms      []*openForm
	diagnosed  map[string]bool // diagnostics shown, once a session
	pending    bool            // start a turn for waiting questions once the screen is up
	first      string          // the prompt to send once the screen is up

	memo      memo
	clean     cleaner   // the text of events on their way to the screen
	quitArmed time.Time // when Ctrl-C was pressed on an empty prompt
	// rewindArmed is when Esc was pressed on an empty prompt.
	rewindArmed time.Time
	hint        string // a one-off hint above the input

	// own is the person's status line; notifyKind how they are told
	// the chat needs them.
	own        ownStatus
	notifyKind Notify
	notified   func(string)
	// queued are prompts sent while a turn ran, waiting for it to end.
	queued []string
	// planned is the plan a turn in plan mode answered with, until the
	// turn is closed and the choice of what to do with it is shown;
	// follow is the turn to send once a host command answers (an
	// approved plan, or /plan's prompt).
	planned string
	follow  *followUp
	// args lists commands' argument values (Options.Args).
	args map[string]ArgsFunc
}

// New returns the chat screen for opts. ctx is the program's context.
func New(ctx context.Context, opts Options) *Model {
	m := &Model{
		host:       opts.Host,
		cmds:       commandSet{handlers: opts.Commands, custom: customCommands(opts.Custom)},
		base:       ctx,
		look:       look{pal: opts.Palette, md: newRenderer(opts.Dark), now: time.Now()},
		width:      80,
		height:     24,
		tr:         newTranscript(),
		in:         newInput(opts.Palette),
		status:     opts.Status,
		runs:       map[string]*runView{},
		calls:      map[string]*toolItem{},
		diagnosed:  map[string]bool{},
		pending:    opts.Pending,
		first:      opts.Prompt,
		own:        ownStatus{fn: opts.StatusLine},
		args:       opts.Args,
		notifyKind: opts.Notify,
		notified:   opts.Notified,
	}
	m.showHistory(opts.History)
	for _, n := range opts.Notes {
		m.tr.add(&noteItem{kind: noteWarn, text: n})
	}
	if len(opts.History) == 0 && len(opts.Notes) == 0 {
		m.tr.add(&noteItem{text: welcome(opts.Status, opts.Found)})
	}
	return m
}

// welcome is the first note of a new chat: where it works, with what,
// what it found, and the keys to start with.
func welcome(s Status, found string) string {
	var b strings.Builder
	b.WriteString("llmrt chat")
	if s.Dir != "" {
		b.WriteString(" in " + homeShort(s.Dir))
	}
	b.WriteString("\n" + s.Provider + "/" + s.Model)
	if s.Permission != "" {
		b.WriteString(" · permission " + s.Permission)
	}
	if s.Sandbox != "" {
		b.WriteString(" · sandbox " + s.Sandbox)
	}
	if found != "" {
		b.WriteString("\n" + found)
	}
	b.WriteString("\nEnter sends · Alt+Enter adds a line · @ mentions a file · /help lists commands")
	return b.String()
}

// homeShort writes dir under the home directory with ~.
func homeShort(dir string) string {
	home, _ := os.UserHomeDir()
	return ShortHome(dir, home)
}

// Init starts the first turn when the screen was opened with a prompt or
// with questions waiting.
func (m *Model) Init() tea.Cmd {
	own := tea.Batch(m.refreshStatusLine(), m.loadCustom())
	switch {
	case m.pending:
		m.pending = false
		return tea.Batch(own, m.startTurn(""))
	case m.first != "":
		p := m.first
		m.first = ""
		return tea.Batch(own, m.submit(p))
	}
	return tea.Batch(own, textarea.Blink)
}

// Run shows the chat screen until the person quits or ctx ends.
func Run(ctx context.Context, opts Options) error {
	// At 120 frames a second the first frame is on screen half a frame
	// sooner, and streamed text moves more smoothly; a frame costs well
	// under a millisecond.
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithFPS(120)}
	if opts.In != nil {
		popts = append(popts, tea.WithInput(opts.In))
	}
	if opts.Out != nil {
		popts = append(popts, tea.WithOutput(opts.Out))
	}
	if !opts.Palette.Color {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	// What the screen's goroutines still do for it (a host still starting
	// its servers for CommandsHost) ends with it.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	m := New(ctx, opts)
	_, err := tea.NewProgram(m, popts...).Run()
	if m.cancel != nil {
		m.cancel()
	}
	return err
}
