package sessiontest

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
)

// Run runs every check against backends open returns; each call must
// return a backend holding no sessions.
func Run(t *testing.T, open func(t *testing.T) session.Backend) {
	checks := []struct {
		name string
		fn   func(t *testing.T, b session.Backend)
	}{
		{"RoundTrip", roundTrip},
		{"Append", appendMore},
		{"Pending", pending},
		{"Compacted", compacted},
		{"NotFound", notFound},
		{"ChosenID", chosenID},
		{"List", list},
		{"Lock", lock},
		{"LockRace", lockRace},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.fn(t, open(t)) })
	}
}

var (
	ctx  = context.Background()
	call = engine.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.go"}`}
	ask  = engine.ToolCall{ID: "call_2", Name: engine.AskUserTool, Arguments: `{"questions":[]}`}
	conv = []engine.Message{
		engine.SystemMessage("be brief"),
		engine.UserMessage("fix the test"),
		{Role: engine.RoleAssistant, ToolCalls: []engine.ToolCall{call}},
		engine.ToolResultMessage(call, "package a", false),
		engine.TextMessage(engine.RoleAssistant, "done"),
	}
)

// record writes msgs and a terminal event of status to a new session and
// returns its id.
func record(t *testing.T, b session.Backend, meta session.Meta, msgs []engine.Message, res engine.Result, at time.Time) string {
	t.Helper()
	w, err := b.CreateContext(ctx, meta)
	if err != nil {
		t.Fatalf("CreateContext: %v", err)
	}
	defer w.Close()
	write(t, w, msgs, res, at)
	return w.ID()
}

func write(t *testing.T, w *session.Writer, msgs []engine.Message, res engine.Result, at time.Time) {
	t.Helper()
	for _, m := range msgs {
		if err := w.WriteMessage(m); err != nil {
			t.Fatalf("WriteMessage: %v", err)
		}
	}
	ev := engine.Event{Type: engine.EventCompleted, Time: at, Result: &res}
	if res.Status == engine.StatusToolCalls {
		ev.Type = engine.EventToolCalls
	}
	if err := w.WriteEvent(ev); err != nil {
		t.Fatalf("WriteEvent: %v", err)
	}
}

func load(t *testing.T, b session.Backend, id string) *session.Session {
	t.Helper()
	s, err := b.LoadContext(ctx, id)
	if err != nil {
		t.Fatalf("LoadContext(%s): %v", id, err)
	}
	return s
}

func roundTrip(t *testing.T, b session.Backend) {
	meta := session.Meta{Provider: "openai", Model: "gpt", WorkDir: "/src", Title: "fix\nthe test", BaseURL: "https://u:p@h/v1?key=k"}
	id := record(t, b, meta, conv, engine.Result{Status: engine.StatusCompleted, RunID: "run_1", Output: "done", Iterations: 2}, time.Now())
	s := load(t, b, id)
	if m := s.Meta; m.ID != id || m.Provider != "openai" || m.Model != "gpt" || m.WorkDir != "/src" || m.Title != "fix the test" || m.BaseURL != "https://h/v1" || m.Created.IsZero() {
		t.Errorf("meta: got %+v", m)
	}
	if !reflect.DeepEqual(s.Messages, conv) || !reflect.DeepEqual(s.History, conv) {
		t.Errorf("messages: got %+v, want %+v", s.Messages, conv)
	}
	if s.Last == nil || s.Last.Status != engine.StatusCompleted || s.Last.Output != "done" || s.Last.Iterations != 2 || len(s.Warnings) != 0 {
		t.Errorf("last: got %+v, warnings %q", s.Last, s.Warnings)
	}
}

func appendMore(t *testing.T, b session.Backend) {
	id := record(t, b, session.Meta{}, conv[:2], engine.Result{Status: engine.StatusFailed}, time.Now())
	w, err := b.AppendContext(ctx, id)
	if err != nil {
		t.Fatalf("AppendContext: %v", err)
	}
	write(t, w, conv[2:], engine.Result{Status: engine.StatusCompleted, Output: "done"}, time.Now())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteMessage(conv[0]); err == nil {
		t.Error("WriteMessage after Close: got nil error")
	}
	s := load(t, b, id)
	if !reflect.DeepEqual(s.Messages, conv) || s.Last == nil || s.Last.Status != engine.StatusCompleted {
		t.Errorf("after append: got %d messages, last %+v; want %d, completed", len(s.Messages), s.Last, len(conv))
	}
}

func pending(t *testing.T, b session.Backend) {
	msgs := append(conv[:2:2], engine.Message{Role: engine.RoleAssistant, ToolCalls: []engine.ToolCall{ask}})
	res := engine.Result{Status: engine.StatusToolCalls, PendingCalls: []engine.ToolCall{ask}, PauseKind: engine.PauseQuestion, Token: "t"}
	s := load(t, b, record(t, b, session.Meta{}, msgs, res, time.Now()))
	if !reflect.DeepEqual(s.Pending, []engine.ToolCall{ask}) || s.Last.PauseKind != engine.PauseQuestion || s.Last.Token != "t" {
		t.Errorf("pending: got %+v, last %+v", s.Pending, s.Last)
	}
}

func compacted(t *testing.T, b session.Backend) {
	w, err := b.CreateContext(ctx, session.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	short := []engine.Message{engine.UserMessage("summary of the work so far")}
	for _, ev := range []engine.Event{
		{Type: engine.EventAssistantMessage, Message: &conv[4]},
		{Type: engine.EventWarning, Warning: &engine.Warning{Code: "context_compacted"}, Compacted: short},
	} {
		if err := w.WriteEvent(ev); err != nil {
			t.Fatal(err)
		}
	}
	s := load(t, b, w.ID())
	if !reflect.DeepEqual(s.Messages, short) || len(s.History) != 1 {
		t.Errorf("compacted: got messages %+v, history %d; want the compacted conversation, 1", s.Messages, len(s.History))
	}
}

func notFound(t *testing.T, b session.Backend) {
	const id = "20200101-000000-000000"
	if _, err := b.LoadContext(ctx, id); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("LoadContext of a missing session: got %v, want ErrNotFound", err)
	}
	if _, err := b.AppendContext(ctx, id); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("AppendContext of a missing session: got %v, want ErrNotFound", err)
	}
	if _, err := b.Lock(ctx, id); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Lock of a missing session: got %v, want ErrNotFound", err)
	}
	for _, bad := range []string{"", "../x", "a/b"} {
		if _, err := b.LoadContext(ctx, bad); err == nil {
			t.Errorf("LoadContext(%q): got nil error", bad)
		}
	}
	if l, err := b.ListContext(ctx); err != nil || len(l) != 0 {
		t.Errorf("ListContext of an empty backend: got %v, %v; want none", l, err)
	}
}

func chosenID(t *testing.T, b session.Backend) {
	w, err := b.CreateContext(ctx, session.Meta{ID: "my-session"})
	if err != nil || w.ID() != "my-session" {
		t.Fatalf("CreateContext with a chosen id: got %v", err)
	}
	w.Close()
	if _, err := b.CreateContext(ctx, session.Meta{ID: "my-session"}); err == nil {
		t.Error("CreateContext with an existing id: got nil error, want a refusal")
	}
	if _, err := b.CreateContext(ctx, session.Meta{ID: "../escape"}); err == nil {
		t.Error("CreateContext with an invalid id: got nil error")
	}
}

func list(t *testing.T, b session.Backend) {
	now := time.Now().Truncate(time.Millisecond)
	older := record(t, b, session.Meta{Title: "older", WorkDir: "/a"}, conv, engine.Result{Status: engine.StatusCompleted}, now.Add(time.Hour))
	newer := record(t, b, session.Meta{Title: "newer", WorkDir: "/b"}, conv[:2], engine.Result{Status: engine.StatusToolCalls}, now.Add(2*time.Hour))
	w, err := b.CreateContext(ctx, session.Meta{Title: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	l, err := b.ListContext(ctx)
	if err != nil || len(l) != 3 {
		t.Fatalf("ListContext: got %+v, %v; want 3 sessions", l, err)
	}
	got := []session.Summary{l[0], l[1]}
	want := []session.Summary{
		{ID: newer, Title: "newer", WorkDir: "/b", Status: string(engine.StatusToolCalls), Messages: 2, Updated: now.Add(2 * time.Hour)},
		{ID: older, Title: "older", WorkDir: "/a", Status: string(engine.StatusCompleted), Messages: len(conv), Updated: now.Add(time.Hour)},
	}
	// Bytes is the record's size where a backend knows it; the longer
	// conversation takes more room.
	if got[0].Bytes < 0 || got[1].Bytes < 0 || (got[0].Bytes != 0 && got[1].Bytes <= got[0].Bytes) {
		t.Errorf("sizes: newer %d bytes, older %d bytes; want zero or the longer one larger", got[0].Bytes, got[1].Bytes)
	}
	for i := range got {
		got[i].Bytes = 0
		updated, wantUpdated := got[i].Updated, want[i].Updated
		got[i].Created, got[i].Updated, want[i].Updated = time.Time{}, time.Time{}, time.Time{}
		if !reflect.DeepEqual(got[i], want[i]) || !updated.Truncate(time.Millisecond).Equal(wantUpdated) {
			t.Errorf("summary %d: got %+v updated %v, want %+v updated %v", i, got[i], updated, want[i], wantUpdated)
		}
	}
	if e := l[2]; e.Title != "empty" || e.Status != "" || e.Messages != 0 {
		t.Errorf("summary of a session without messages: got %+v", e)
	}
	if sum, err := session.Latest(ctx, b, "/a"); err != nil || sum.ID != older {
		t.Errorf("Latest(/a): got %+v, %v; want %s", sum, err, older)
	}
}

func lock(t *testing.T, b session.Backend) {
	id := record(t, b, session.Meta{}, conv, engine.Result{Status: engine.StatusCompleted}, time.Now())
	unlock, err := b.Lock(ctx, id)
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	if _, err := b.Lock(ctx, id); !errors.Is(err, session.ErrLocked) {
		t.Errorf("second Lock: got %v, want ErrLocked", err)
	}
	if w, err := b.AppendContext(ctx, id); err != nil {
		t.Errorf("AppendContext while locked: %v; writers take no lock", err)
	} else {
		w.Close()
	}
	if err := unlock(); err != nil {
		t.Errorf("unlock: %v", err)
	}
	unlock, err = b.Lock(ctx, id)
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	unlock()
}

func lockRace(t *testing.T, b session.Backend) {
	id := record(t, b, session.Meta{}, conv, engine.Result{Status: engine.StatusCompleted}, time.Now())
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	unlocks := make([]func() error, n)
	for i := range n {
		wg.Go(func() { unlocks[i], errs[i] = b.Lock(ctx, id) })
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
			defer unlocks[i]()
		case !errors.Is(err, session.ErrLocked):
			t.Errorf("Lock: got %v, want nil or ErrLocked", err)
		}
	}
	if won != 1 {
		t.Errorf("concurrent Locks that won: got %d, want 1", won)
	}
}
