package cmd

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IO holds the process streams and what they are connected to. Tests build
// one from buffers.
type IO struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	InTTY, OutTTY, ErrTTY bool
	// Prompt is where answers to prompts are read: In, or the controlling
	// terminal when stdin is a pipe but a person sits at the terminal
	// (`git diff | llmrt run -p ...`). PromptTTY says Prompt is a terminal.
	Prompt    io.Reader
	PromptTTY bool
	// Color is whether stdout may be styled: a terminal, NO_COLOR unset,
	// TERM not dumb, and no --no-color. ErrColor is the same for stderr.
	// These are the one place the colour policy is decided.
	Color, ErrColor bool
	// Width is the terminal width of stdout (80 when unknown).
	Width int
}

// SystemIO returns IO for the real process streams.
func SystemIO(getenv func(string) string) *IO {
	io := &IO{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Width:  80,
	}
	io.Prompt, io.PromptTTY = io.In, io.InTTY
	if !io.InTTY && io.ErrTTY {
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			io.Prompt, io.PromptTTY = tty, true
		}
	}
	if io.OutTTY {
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
			io.Width = w
		}
	}
	colorOK := getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	io.Color = io.OutTTY && colorOK
	io.ErrColor = io.ErrTTY && colorOK
	return io
}

// DisableColor turns styling off on both streams (--no-color).
func (io *IO) DisableColor() { io.Color, io.ErrColor = false, false }

// Interactive reports whether a person can answer questions: prompts
// are read from a terminal (stdin, or /dev/tty when stdin is piped) and
// stderr, where they are shown, is one too.
func (io *IO) Interactive() bool { return (io.InTTY || io.PromptTTY) && io.ErrTTY }

// promptIn is the reader prompts take answers from.
func (io *IO) promptIn() io.Reader {
	if io.Prompt != nil {
		return io.Prompt
	}
	return io.In
}
