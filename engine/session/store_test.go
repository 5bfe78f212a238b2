package session_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
)

func TestDefaultDir(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/state", "HOME": "/home/u"}, "/state/llmrt/sessions"},
		{map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/home/u"}, "/home/u/.local/state/llmrt/sessions"},
		{map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/llmrt/sessions"},
		{map[string]string{}, ""},
	}
	for _, tc := range cases {
		if got := session.DefaultDir(func(k string) string { return tc.env[k] }); got != filepath.FromSlash(tc.want) {
			t.Errorf("DefaultDir(%v): got %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestCreate checks ids, permissions, title shortening and that no secret
// in a base URL reaches the file.
func TestCreate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "sessions")
	store := &session.Store{Dir: dir}
	long := "  please\nfix   the " + strings.Repeat("very ", 30) + "long bug  "
	w, err := store.Create(session.Meta{Provider: "openai", Model: "gpt", BaseURL: "https://user:pass@example.com/v1?key=abc#frag", Title: long, Version: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if !regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{6}$`).MatchString(w.ID()) {
		t.Errorf("id %q: want YYYYMMDD-HHMMSS-xxxxxx", w.ID())
	}
	path := filepath.Join(dir, w.ID()+".jsonl")
	data, _ := os.ReadFile(path)
	for _, secret := range []string{"user", "pass", "key=abc", "frag"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("session file contains %q:\n%s", secret, data)
		}
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != want {
			t.Errorf("mode of %s: got %v (%v), want %v", p, st.Mode().Perm(), err, want)
		}
	}
	s, err := store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	m := s.Meta
	if m.BaseURL != "https://example.com/v1" || m.Version != "1.2.3" || m.ID != w.ID() || m.Created.IsZero() {
		t.Errorf("meta: got %+v", m)
	}
	if n := len([]rune(m.Title)); n > 80 || !strings.HasPrefix(m.Title, "please fix the very") || !strings.HasSuffix(m.Title, "…") {
		t.Errorf("title: got %q (%d runes), want one line of at most 80 with an ellipsis", m.Title, n)
	}
	if _, err := store.Create(session.Meta{ID: w.ID()}); err == nil {
		t.Error("Create with an existing id: got nil error, want a refusal to overwrite")
	}
}

func TestInvalidIDs(t *testing.T) {
	store := &session.Store{Dir: t.TempDir()}
	for _, id := range []string{"", "../x", "a/b", `a\b`, ".hidden", "x..y", "/etc/passwd", "a b"} {
		if _, err := store.Load(id); err == nil || errors.Is(err, session.ErrNotFound) {
			t.Errorf("Load(%q): got %v, want an invalid id error", id, err)
		}
		if _, err := store.Append(id); err == nil || errors.Is(err, session.ErrNotFound) {
			t.Errorf("Append(%q): got %v, want an invalid id error", id, err)
		}
		if _, err := store.Create(session.Meta{ID: id}); id != "" && err == nil {
			t.Errorf("Create(ID %q): got nil error, want an invalid id error", id)
		}
	}
	if _, err := store.Load("20260101-000000-abcdef"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Load of a missing session: got %v, want ErrNotFound", err)
	}
}

// TestListAndLatest checks the listing order (last update first), status
// and counts, and that Latest picks by work directory.
func TestListAndLatest(t *testing.T) {
	store := &session.Store{Dir: t.TempDir()}
	if got, err := store.List(); err != nil || len(got) != 0 {
		t.Fatalf("List of an empty store: got %v, %v", got, err)
	}
	base := time.Now().Add(-10 * time.Hour).UTC()
	mk := func(id, workdir string, at time.Time, ends ...engine.Status) {
		w, err := store.Create(session.Meta{ID: id, WorkDir: workdir, Created: at, Title: id})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		_ = w.WriteEvent(engine.Event{Type: engine.EventAssistantMessage, Time: at.Add(time.Minute), Message: &asst})
		for _, st := range ends {
			_ = w.WriteEvent(engine.Event{Type: engine.EventCompleted, Time: at.Add(2 * time.Minute), Result: &engine.Result{Status: st}})
		}
	}
	mk("a", "/proj", base, engine.StatusCompleted)
	mk("b", "/proj/", base.Add(time.Hour))
	mk("c", "/other", base.Add(2*time.Hour), engine.StatusFailed)
	_ = os.WriteFile(filepath.Join(store.Dir, "d.jsonl"), []byte("not json\n{}\n"), 0o600)
	_ = os.WriteFile(filepath.Join(store.Dir, "notes.txt"), []byte("ignored"), 0o600)

	got, err := store.List()
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range got {
		order = append(order, s.ID+":"+s.Status)
	}
	// d has no readable times, so its file's modification time (now)
	// counts as its update.
	if strings.Join(order, " ") != "d: c:failed b:incomplete a:completed" {
		t.Errorf("List: got %v, want d: c:failed b:incomplete a:completed (last updated first)", order)
	}
	if got[0].Error == "" {
		t.Errorf("summary of the corrupt d: got %+v, want Error set", got[0])
	}
	if c := got[1]; c.Messages != 1 || c.Title != "c" || !c.Created.Equal(base.Add(2*time.Hour)) || !c.Updated.Equal(base.Add(2*time.Hour+2*time.Minute)) {
		t.Errorf("summary of c: got %+v", c)
	}
	latest, err := store.Latest("/proj")
	if err != nil || latest.ID != "b" {
		t.Errorf("Latest(/proj): got %q, %v; want b", latest.ID, err)
	}
	if _, err := store.Latest("/nowhere"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Latest(/nowhere): got %v, want ErrNotFound", err)
	}
}

// TestConcurrentWrites: lines from many goroutines never interleave.
func TestConcurrentWrites(t *testing.T) {
	store := &session.Store{Dir: t.TempDir()}
	w, err := store.Create(session.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if err := w.WriteMessage(user); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	w.Close()
	if err := w.WriteMessage(user); err == nil {
		t.Error("WriteMessage after Close: got nil error")
	}
	s, err := store.Load(w.ID())
	if err != nil || len(s.Messages) != 160 {
		t.Errorf("got %d messages, %v; want 160", len(s.Messages), err)
	}
}

// TestStoreRedactAndOptions: lines written by Create and Append pass
// through Redact, and the meta's options come back on Load.
func TestStoreRedactAndOptions(t *testing.T) {
	store := &session.Store{Dir: t.TempDir(), Redact: func(b []byte) []byte {
		return []byte(strings.ReplaceAll(string(b), "sk-secret", "[X]"))
	}}
	opts := json.RawMessage(`{"finish":"text","allow":["write_file(path=out/**)"],"temperature":0.5}`)
	w, err := store.Create(session.Meta{Provider: "openai", Title: "use sk-secret", Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteMessage(providers.TextMessage(providers.RoleUser, "my key is sk-secret"))
	w.Close()
	a, err := store.Append(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	result := providers.ToolResultMessage(engine.ToolCall{ID: "c1", Name: "read_file"}, "sk-secret", false)
	a.WriteEvent(engine.Event{Type: engine.EventToolResult, Call: &engine.CallInfo{ID: "c1", Name: "read_file"}, Outcome: &engine.ToolOutcome{Content: "sk-secret"}, Message: &result})
	// A result that does not join the conversation (a call made by a
	// running tool) carries no message and is not recorded.
	a.WriteEvent(engine.Event{Type: engine.EventToolResult, Call: &engine.CallInfo{ID: "c2", Name: "read_file"}, Outcome: &engine.ToolOutcome{Content: "nested"}})
	a.Close()
	data, _ := os.ReadFile(filepath.Join(store.Dir, w.ID()+".jsonl"))
	if strings.Contains(string(data), "sk-secret") || strings.Count(string(data), "[X]") != 3 || strings.Contains(string(data), "nested") {
		t.Errorf("got %s, want the secret replaced in the title, the prompt and the result", data)
	}
	s, err := store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.Meta.Options); got != string(opts) {
		t.Errorf("options: got %s, want %s", got, opts)
	}
}
