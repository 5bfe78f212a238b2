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

// Interactive reports whether a person can answer questions: stdin and
// stderr are both terminals.
func (io *IO) Interactive() bool { return io.InTTY && io.ErrTTY }
