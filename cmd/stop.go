package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
)

// resultError maps a finished run to its exit code and message. cause is
// why the run's context ended (see host.run); sessionID names the session
// an interrupted run can be resumed from.
func resultError(s *settings, res engine.Result, cause error, sessionID string) error {
	msg := ""
	if res.Error != nil {
		msg = res.Error.Message
	}
	switch res.Status {
	case engine.StatusCompleted:
		return nil
	case engine.StatusToolCalls:
		return silentExit(exitPaused)
	case engine.StatusMaxIterations:
		e := &exitError{code: exitMaxIterations, err: errors.New(msg), hint: "raise the limit with --max-iterations, or narrow the task"}
		if sessionID != "" {
			e.err = fmt.Errorf("%w; session %s is saved", e.err, sessionID)
			e.hint = fmt.Sprintf("continue with: llmrt run --resume %s --max-iterations %d, or narrow the task", sessionID, 2*max(res.Iterations, 1))
		}
		return e
	case engine.StatusCancelled:
		if errors.Is(cause, context.DeadlineExceeded) && s.timeout > 0 {
			return withResume(&exitError{code: exitFailed, err: fmt.Errorf("the run timed out after --timeout %s", s.timeout)}, sessionID)
		}
		return stoppedError(cause, sessionID)
	}
	if res.Error != nil && res.Error.Code == engine.CodeBlocked {
		return &exitError{code: exitFailed, err: fmt.Errorf("blocked: %s", msg)}
	}
	e := &exitError{code: exitFailed, err: errors.New(msg), hint: providerHint(s, res.Error)}
	if sessionID != "" && res.Error != nil && res.Error.Code == engine.CodeProviderError {
		// The conversation so far is kept: once the provider is back (or
		// the key fixed), the run goes on from where it stopped.
		e.err = fmt.Errorf("%w; session %s is saved", e.err, sessionID)
		e.hint = strings.TrimPrefix(e.hint+"; then resume with: llmrt run --resume "+sessionID, "; then ")
	}
	return e
}

// stoppedError is exit 130 for a run a person stopped: a signal, or
// cancelling at a prompt. It says how, and how to resume.
func stoppedError(cause error, sessionID string) error {
	var sig errSignal
	var at *engine.CancelError
	msg := "the run was cancelled"
	switch {
	case errors.As(cause, &sig) && sig.sig == syscall.SIGPIPE:
		// The reader of the output went away (| head): nobody is left to
		// tell, as a pipeline's other commands say nothing either.
		return &exitError{code: exitBrokenPipe, err: errors.New("the output pipe closed"), quiet: true}
	case errors.As(cause, &sig):
		msg = fmt.Sprintf("interrupted (signal: %s)", sig.sig)
	case errors.As(cause, &at):
		msg = "the run was " + at.Error()
	}
	return withResume(&exitError{code: exitCancelled, err: errors.New(msg)}, sessionID)
}

// withResume adds where the conversation is saved and the command that
// resumes it.
func withResume(e *exitError, sessionID string) error {
	if sessionID == "" {
		e.hint = "this run was not saved, so it cannot be resumed"
		return e
	}
	e.err = fmt.Errorf("%w; session %s is saved", e.err, sessionID)
	e.hint = "resume with: llmrt run --resume " + sessionID
	return e
}

// providerHint suggests a fix for common provider failures.
func providerHint(s *settings, re *engine.RunError) string {
	var pe *providers.Error
	if re == nil || !errors.As(re.Err, &pe) {
		return ""
	}
	spec, _ := catalog.Lookup(s.provider)
	switch {
	case pe.StatusCode == 401 || pe.StatusCode == 403:
		if len(spec.KeyVars) > 0 {
			return fmt.Sprintf("check %s (see .env.example)", spec.KeyVars[0])
		}
	case (pe.StatusCode == 404 || pe.StatusCode == 405) && strings.HasSuffix(pe.URL, "/responses"):
		return fmt.Sprintf("check the model name (%s) and the base URL; a server that speaks only Chat Completions needs --api chat (or LLMRT_API=chat, or \"api\": \"chat\" in the config)", s.model)
	case pe.StatusCode == 404:
		return fmt.Sprintf("check the model name (%s) and the base URL", s.model)
	case pe.StatusCode == 0 && spec.BaseURLVar != "":
		return fmt.Sprintf("check that the server is up, or set --base-url / %s", spec.BaseURLVar)
	}
	return ""
}
