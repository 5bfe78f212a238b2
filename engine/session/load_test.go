package session_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
)

var (
	user  = providers.TextMessage(providers.RoleUser, "go")
	callA = engine.ToolCall{ID: "a", Name: "read_file", Arguments: `{"path":"a"}`}
	callB = engine.ToolCall{ID: "b", Name: "read_file", Arguments: `{"path":"b"}`}
	callC = engine.ToolCall{ID: "c", Name: "ask_user_input", Arguments: askArgs}
	asst  = engine.Message{Role: providers.RoleAssistant, ToolCalls: []engine.ToolCall{callA, callB}}
	resA  = providers.ToolResultMessage(callA, "A", false)
	resB  = providers.ToolResultMessage(callB, "B", false)
	intB  = providers.ToolResultMessage(callB, session.Interrupted, true)
)

// write creates a session holding msgs followed by ends, and returns its
// id and file path.
func write(t *testing.T, store *session.Store, msgs []engine.Message, ends ...engine.Result) (string, string) {
	t.Helper()
	w, err := store.Create(session.Meta{Title: "go", WorkDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, m := range msgs {
		if err := w.WriteMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range ends {
		if err := w.WriteEvent(engine.Event{Type: engine.EventToolCalls, Result: &r}); err != nil {
			t.Fatal(err)
		}
	}
	return w.ID(), filepath.Join(store.Dir, w.ID()+".jsonl")
}

// TestLoadNormalises checks the repairs that make a stored conversation
// replayable on every provider.
func TestLoadNormalises(t *testing.T) {
	paused := engine.Result{Status: engine.StatusToolCalls, PendingCalls: []engine.ToolCall{callC}}
	asstABC := engine.Message{Role: providers.RoleAssistant, ToolCalls: []engine.ToolCall{callA, callB, callC}}
	cases := []struct {
		name     string
		msgs     []engine.Message
		ends     []engine.Result
		want     []engine.Message
		pending  []engine.ToolCall
		warnings int
	}{
		{"complete conversation is unchanged", []engine.Message{user, asst, resA, resB}, nil,
			[]engine.Message{user, asst, resA, resB}, nil, 0},
		{"results in completion order load in call order", []engine.Message{user, asst, resB, resA}, nil,
			[]engine.Message{user, asst, resA, resB}, nil, 0},
		{"a call without a result gets an interrupted error", []engine.Message{user, asst, resA}, nil,
			[]engine.Message{user, asst, resA, intB}, nil, 1},
		{"a later user message does not hide the missing result", []engine.Message{user, asst, resA, user}, nil,
			[]engine.Message{user, asst, resA, intB, user}, nil, 1},
		{"a result behind a host message is pulled up", []engine.Message{user, asst, resA, user, resB}, nil,
			[]engine.Message{user, asst, resA, resB, user}, nil, 0},
		{"pending calls of a paused run stay open", []engine.Message{user, asstABC, resA, resB}, []engine.Result{paused},
			[]engine.Message{user, asstABC, resA, resB}, []engine.ToolCall{callC}, 0},
		{"a pending call answered by the host is no longer pending", []engine.Message{user, asstABC, resA, resB, providers.ToolResultMessage(callC, "{}", false)}, []engine.Result{paused},
			[]engine.Message{user, asstABC, resA, resB, providers.ToolResultMessage(callC, "{}", false)}, nil, 0},
		{"a pending call abandoned for a new prompt is interrupted", []engine.Message{user, asstABC, resA, resB, user}, []engine.Result{paused},
			[]engine.Message{user, asstABC, resA, resB, providers.ToolResultMessage(callC, session.Interrupted, true), user}, nil, 1},
		{"duplicate and orphan results are dropped", []engine.Message{user, resA, asst, resA, resA, resB}, nil,
			[]engine.Message{user, asst, resA, resB}, nil, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store := &session.Store{Dir: t.TempDir()}
			id, _ := write(t, store, tc.msgs, tc.ends...)
			s, err := store.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Messages, tc.want) {
				t.Errorf("messages:\n got %s\nwant %s", js(s.Messages), js(tc.want))
			}
			if !reflect.DeepEqual(s.Pending, tc.pending) {
				t.Errorf("pending: got %v, want %v", s.Pending, tc.pending)
			}
			if len(s.Warnings) != tc.warnings {
				t.Errorf("warnings: got %q, want %d", s.Warnings, tc.warnings)
			}
			assertReplayable(t, s.Messages, s.Pending)
		})
	}
}

// TestLoadTornLastLine simulates SIGKILL mid-write: the last line is cut
// short. Load skips it with a warning, the call it would have answered
// becomes interrupted, and Append continues the file cleanly.
func TestLoadTornLastLine(t *testing.T) {
	store := &session.Store{Dir: t.TempDir()}
	id, path := write(t, store, []engine.Message{user, asst, resA, resB})
	st, _ := os.Stat(path)
	if err := os.Truncate(path, st.Size()-7); err != nil {
		t.Fatal(err)
	}
	s, err := store.Load(id)
	if err != nil {
		t.Fatalf("Load of a torn file: %v", err)
	}
	want := []engine.Message{user, asst, resA, intB}
	if !reflect.DeepEqual(s.Messages, want) {
		t.Errorf("messages:\n got %s\nwant %s", js(s.Messages), js(want))
	}
	if len(s.Warnings) != 2 || !strings.Contains(s.Warnings[0], ":5: skipped a torn last line") {
		t.Errorf("warnings: got %q, want the torn line 5 and the interrupted call", s.Warnings)
	}
	assertReplayable(t, s.Messages, nil)

	w, err := store.Append(id)
	if err != nil {
		t.Fatal(err)
	}
	_ = w.WriteMessage(resB)
	w.Close()
	s, err = store.Load(id)
	if err != nil {
		t.Fatalf("Load after Append: %v", err)
	}
	want = []engine.Message{user, asst, resA, resB}
	if !reflect.DeepEqual(s.Messages, want) || len(s.Warnings) != 0 {
		t.Errorf("after Append: got %s (warnings %q), want %s and no warnings", js(s.Messages), s.Warnings, js(want))
	}
}

// TestAppendKeepsCompleteLastLine: a last line cut exactly before its
// newline is whole; Append must keep it and only add the newline.
func TestAppendKeepsCompleteLastLine(t *testing.T) {
	store := &session.Store{Dir: t.TempDir()}
	id, path := write(t, store, []engine.Message{user})
	st, _ := os.Stat(path)
	_ = os.Truncate(path, st.Size()-1)
	w, err := store.Append(id)
	if err != nil {
		t.Fatal(err)
	}
	_ = w.WriteMessage(user)
	w.Close()
	s, err := store.Load(id)
	if err != nil || len(s.Messages) != 2 || len(s.Warnings) != 0 {
		t.Fatalf("got %d messages, warnings %q, err %v; want 2, none, nil", len(s.Messages), s.Warnings, err)
	}
}

// TestLoadCorrupt: damage anywhere but the last line did not come from a
// kill, so Load refuses it and names the file and line.
func TestLoadCorrupt(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(lines []string) []string
		want   string
	}{
		{"garbage in the middle", func(l []string) []string { l[2] = `{"type":"message","mess`; return l }, ".jsonl:3: corrupt line"},
		{"meta not first", func(l []string) []string { return l[1:] }, ".jsonl:1: corrupt line: first line has type \"message\""},
		{"message without payload", func(l []string) []string { l[1] = `{"type":"message"}`; return l }, ".jsonl:2: corrupt line: message line without its payload"},
		{"empty file", func(l []string) []string { return nil }, "no meta line"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store := &session.Store{Dir: t.TempDir()}
			id, path := write(t, store, []engine.Message{user, asst, resA, resB})
			data, _ := os.ReadFile(path)
			lines := tc.mutate(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"))
			_ = os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o600)
			_, err := store.Load(id)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), id) {
				t.Errorf("Load: got error %v, want one naming %s and containing %q", err, id, tc.want)
			}
		})
	}
}

// TestLoadUnknownLineType: lines a newer llmrt adds are skipped, loudly.
func TestLoadUnknownLineType(t *testing.T) {
	store := &session.Store{Dir: t.TempDir()}
	id, path := write(t, store, []engine.Message{user})
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString(`{"type":"compaction","summary":"…"}` + "\n")
	f.Close()
	s, err := store.Load(id)
	if err != nil || len(s.Messages) != 1 || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], `unknown type "compaction"`) {
		t.Errorf("got %d messages, warnings %q, err %v; want 1 message and one unknown-type warning", len(s.Messages), s.Warnings, err)
	}
}

// assertReplayable checks that every tool call has exactly one result,
// except the pending ones, which have none.
func assertReplayable(t *testing.T, msgs []engine.Message, pending []engine.ToolCall) {
	t.Helper()
	results := map[string]int{}
	for _, m := range msgs {
		if m.Role == providers.RoleTool {
			results[m.ToolCallID]++
		}
	}
	isPending := map[string]bool{}
	for _, p := range pending {
		isPending[p.ID] = true
	}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			want := 1
			if isPending[c.ID] {
				want = 0
			}
			if results[c.ID] != want {
				t.Errorf("call %s (%s): got %d results, want %d", c.ID, c.Name, results[c.ID], want)
			}
		}
	}
}
