package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// Main runs the llmrt command line and returns the process exit code.
//
// Whatever llmrt started is stopped before it returns, by every path:
// llmrt is the subreaper of its descendants, so commands that detached
// from their call are still found. The secrets in llmrt's environment are
// hidden from the commands it runs, which could otherwise read them in
// /proc/<llmrt's pid>/environ.
func Main() int {
	startingHeap()
	_ = tools.EnableSubreaper()
	_ = tools.HideEnvironment()
	defer tools.StopAll(exitGrace)
	f := NewFactory(SystemIO(os.Getenv), os.Getenv)
	ctx, stop := signalContext()
	defer stop()
	return Execute(ctx, f, os.Args[1:])
}

// exitGrace is how long leftover processes have between SIGTERM and
// SIGKILL when llmrt exits.
const exitGrace = 500 * time.Millisecond

// Execute runs the command tree with args; tests call it with a test
// Factory.
func Execute(ctx context.Context, f *Factory, args []string) int {
	root := newRootCmd(f)
	root.SetArgs(route(root, args, f.IO.InTTY && f.IO.OutTTY))
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	code, msg, hint := classify(err)
	if isFlagError(err) {
		code = exitUsage
	}
	if msg != "" {
		// Messages quote servers, files and commands: they are printed
		// as text, never as control sequences.
		fmt.Fprintf(f.IO.ErrOut, "llmrt: %s\n", ui.Sanitize(f.secrets.string(msg)))
		if hint != "" {
			fmt.Fprintf(f.IO.ErrOut, "hint: %s\n", ui.Sanitize(f.secrets.string(hint)))
		}
	}
	return code
}

// signalContext is cancelled by the first SIGINT, SIGTERM, SIGHUP (the
// terminal went away) or SIGQUIT, so runs stop cleanly (children killed,
// session saved); a second one exits at once, and so does a run that is
// still not done stopDeadline after the first, whatever it was blocked
// on. Either way nothing llmrt started is left running.
//
// A broken stdout or stderr pipe (SIGPIPE: the reader of `llmrt run |
// head` is gone; a SIGPIPE from a pipe to a child is not counted) stops
// the run the same way instead of killing llmrt on
// the spot, which would leave its commands running; the writes that follow
// fail and raise SIGPIPE again, which does not count as a second signal.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	hardExit := func() {
		tools.StopAll(0)
		os.Exit(exitCancelled)
	}
	go func() {
		var sig os.Signal
		for sig = range ch {
			if sig != syscall.SIGPIPE || stdioGone() {
				break
			}
		}
		if sig == nil {
			return
		}
		cancel(errSignal{sig})
		deadline := time.NewTimer(stopDeadline)
		defer deadline.Stop()
		for {
			select {
			case sig, ok := <-ch:
				if !ok {
					return
				}
				if sig != syscall.SIGPIPE {
					hardExit()
				}
			case <-deadline.C:
				hardExit()
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(ch)
		cancel(nil)
	}
}

// stopDeadline is how long llmrt takes at most to exit after a signal:
// enough for a command's grace period and for saving the session.
const stopDeadline = 5 * time.Second

// errSignal is the cancellation cause when a signal stopped the program.
type errSignal struct{ sig os.Signal }

func (e errSignal) Error() string { return "interrupted by " + e.sig.String() }

// interrupted reports whether ctx ended because of a signal.
func interrupted(ctx context.Context) bool {
	var es errSignal
	return errors.As(context.Cause(ctx), &es)
}

// isFlagError reports cobra's flag parsing errors, which are usage errors.
func isFlagError(err error) bool {
	var fe *flagError
	return errors.As(err, &fe)
}

type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

func flagErrorFunc(_ *cobra.Command, err error) error {
	return &exitError{code: exitUsage, err: &flagError{err}, hint: "see --help"}
}
