package cmd

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
)

// TestBrokenSessionIsNotOffered: once a session write fails (a full disk),
// the run goes on with a warning, and the session is no longer offered
// for resuming, since the file lacks part of the run.
func TestBrokenSessionIsNotOffered(t *testing.T) {
	st := &session.Store{Dir: t.TempDir()}
	w, err := st.Create(session.Meta{Title: "x", WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	rec := &recorder{id: w.ID(), w: w, errOut: &errOut}
	rec.add(providers.TextMessage(providers.RoleUser, "first"))
	if got := rec.resumable(); got != w.ID() {
		t.Fatalf("after a good write: resumable %q, want %q", got, w.ID())
	}
	w.Close() // every later write fails, as on a full disk
	rec.add(providers.TextMessage(providers.RoleUser, "second"))
	if got := rec.resumable(); got != "" {
		t.Errorf("after a failed write: resumable %q, want none", got)
	}
	if !strings.Contains(errOut.String(), "cannot record the run") {
		t.Errorf("the failure should be a warning, got %q", errOut.String())
	}
	cancelled := engine.Result{Status: engine.StatusCancelled, Error: &engine.RunError{Code: engine.CodeCancelled, Message: "cancelled"}}
	if err := resultError(&settings{}, cancelled, errSignal{os.Interrupt}, rec.resumable()); !strings.Contains(err.(*exitError).hint, "cannot be resumed") {
		t.Errorf("an interrupted run with a broken session: hint %q, want it to say it cannot be resumed", err.(*exitError).hint)
	}
}
