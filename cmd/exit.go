package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
)

// Exit codes, as docs/design.md lists them for users.
const (
	exitOK            = 0
	exitFailed        = 1
	exitUsage         = 2
	exitPaused        = 3
	exitMaxIterations = 4
	exitCancelled     = 130
	// exitBrokenPipe is a run stopped because the reader of its output
	// went away (128 + SIGPIPE, as a shell reports a process SIGPIPE
	// killed).
	exitBrokenPipe = 141
)

// exitError carries an exit code and an optional hint for the user.
type exitError struct {
	code int
	err  error
	hint string
	// quiet means the message was already shown.
	quiet bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is a bad flag or argument: exit 2.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// withHint attaches a hint to a usage error.
func withHint(err error, hint string) error {
	var ee *exitError
	if errors.As(err, &ee) {
		ee.hint = hint
		return ee
	}
	return &exitError{code: exitUsage, err: err, hint: hint}
}

// silentExit ends with code after the output already said why.
func silentExit(code int) error { return &exitError{code: code, err: errors.New("exit"), quiet: true} }

// classify maps any error to an exit code, a message and a hint. It is the
// one place that decides how failures look to the user.
func classify(err error) (code int, msg, hint string) {
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.quiet {
			return ee.code, "", ""
		}
		code, msg, hint = ee.code, ee.err.Error(), ee.hint
		if hint == "" {
			_, _, hint = classify(ee.err)
		}
		return code, msg, hint
	}
	var se *providers.SetupError
	var fe *config.FileError
	var re *engine.RunError
	switch {
	case errors.As(err, &se):
		return exitUsage, se.Error(), fmt.Sprintf("set %s in the environment or in .env (see .env.example), or pick another --provider",
			strings.Join(se.Vars, " or "))
	case errors.As(err, &fe):
		return exitUsage, fe.Error(), "fix the file or move it aside"
	case errors.As(err, &re) && re.Code == engine.CodeInvalidRequest:
		return exitUsage, re.Message, ""
	case errors.Is(err, context.Canceled):
		return exitCancelled, "cancelled", ""
	}
	return exitFailed, err.Error(), ""
}
