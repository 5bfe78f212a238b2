package host

import (
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
)

// TestBrokenSessionIsNotOffered: once a session write fails (a full disk),
// the conversation goes on with one note, and the session is no longer
// offered for resuming, since the file lacks part of it.
func TestBrokenSessionIsNotOffered(t *testing.T) {
	st := &session.Store{Dir: t.TempDir()}
	w, err := st.Create(session.Meta{Title: "x", WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{id: w.ID(), w: w}
	rec.add(providers.TextMessage(providers.RoleUser, "first"))
	if got := rec.resumable(); got != w.ID() {
		t.Fatalf("after a good write: resumable %q, want %q", got, w.ID())
	}
	w.Close() // every later write fails, as on a full disk
	rec.add(providers.TextMessage(providers.RoleUser, "second"), providers.TextMessage(providers.RoleUser, "third"))
	if got := rec.resumable(); got != "" {
		t.Errorf("after a failed write: resumable %q, want none", got)
	}
	if notes := rec.takeNotes(); len(notes) != 1 || !strings.Contains(notes[0], "cannot record the run") {
		t.Errorf("the failure should be one note, got %q", notes)
	}
}

// TestRecorderKeepsACompactionWhileHolding: answers to a paused run are
// held back until the run replies; a compaction that comes first is
// written after them, not lost, so the session resumes compacted.
func TestRecorderKeepsACompactionWhileHolding(t *testing.T) {
	st := &session.Store{Dir: t.TempDir()}
	w, err := st.Create(session.Meta{Provider: "scripted", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{id: w.ID(), w: w}
	old := engine.UserMessage("an old question")
	rec.add(old, engine.TextMessage(engine.RoleAssistant, "an old answer"))
	answer := engine.UserMessage("the held answer")
	rec.hold(answer)
	summary := engine.UserMessage("[Summary] earlier: a question and its answer")
	compacted := []engine.Message{summary, answer}
	warn := engine.Warning{Code: engine.WarningContextCompacted, Message: "compacted"}
	rec.event(engine.Event{Type: engine.EventWarning, Warning: &warn, Compacted: compacted})
	reply := engine.TextMessage(engine.RoleAssistant, "the new reply")
	rec.event(engine.Event{Type: engine.EventAssistantMessage, Message: &reply})
	rec.close()

	s, err := st.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range s.Messages {
		got = append(got, m.Text())
	}
	want := []string{summary.Text(), "the held answer", "the new reply"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("resumed conversation %q, want %q", got, want)
	}
	if len(s.History) != 4 {
		t.Fatalf("history should keep all %d messages recorded, got %d", 4, len(s.History))
	}
}
