package session_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// TestRoundTrip runs real engine runs into a session and checks that the
// loaded conversation is exactly Result.Messages, for every terminal
// status, including concurrent results written in completion order.
func TestRoundTrip(t *testing.T) {
	image := tools.Result{Content: "a picture", Parts: []providers.Part{{Type: providers.PartImage, MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}}}
	cases := []struct {
		name    string
		turns   []scripted.Turn
		tools   func(g gates) []engine.Tool
		onEvent func(g gates) func(engine.Event, context.CancelFunc)
		status  engine.Status
		arrived string // tool result events in arrival order, when it matters
		pending []string
	}{
		{
			name: "completed after a concurrent read batch finishing in reverse order",
			turns: []scripted.Turn{
				{Reasoning: "look first", Text: "Reading.", ToolCalls: []scripted.Call{call("r1", `{}`), call("r2", `{}`), call("r3", `{}`)}},
				{ToolCalls: []scripted.Call{call("final_answer", `{"answer":"all read"}`)}},
			},
			tools: func(g gates) []engine.Tool {
				return []engine.Tool{g.tool("r1", tools.KindRead, tools.Text("one")), g.tool("r2", tools.KindRead, image), g.tool("r3", tools.KindRead, tools.Errorf("three failed"))}
			},
			onEvent: func(g gates) func(engine.Event, context.CancelFunc) {
				next := map[string]string{"r3": "r2", "r2": "r1"}
				return func(ev engine.Event, _ context.CancelFunc) {
					switch ev.Type {
					case engine.EventAssistantMessage:
						g.open("r3")
					case engine.EventToolResult, engine.EventToolError:
						g.open(next[ev.Call.Name])
					}
				}
			},
			status:  engine.StatusCompleted,
			arrived: "r3 r2 r1 final_answer",
		},
		{
			name:  "tool_calls leaves the ask pending and answers the read",
			turns: []scripted.Turn{{ToolCalls: []scripted.Call{call("peek", `{}`), call("ask_user_input", askArgs)}}},
			tools: func(g gates) []engine.Tool {
				return []engine.Tool{g.tool("peek", tools.KindRead, tools.Text("peeked"))}
			},
			onEvent: func(g gates) func(engine.Event, context.CancelFunc) {
				return func(ev engine.Event, _ context.CancelFunc) { g.open("peek") }
			},
			status:  engine.StatusToolCalls,
			pending: []string{"ask_user_input"},
		},
		{
			name:   "failed by blocked",
			turns:  []scripted.Turn{{ToolCalls: []scripted.Call{call("blocked", `{"reason":"no database access"}`)}}},
			status: engine.StatusFailed,
		},
		{
			name:  "cancelled while a tool runs",
			turns: []scripted.Turn{{ToolCalls: []scripted.Call{call("slow", `{}`)}}},
			tools: func(g gates) []engine.Tool {
				return []engine.Tool{g.tool("slow", tools.KindRead, tools.Text("never"))}
			},
			onEvent: func(g gates) func(engine.Event, context.CancelFunc) {
				return func(ev engine.Event, cancel context.CancelFunc) {
					if ev.Type == engine.EventToolStart {
						cancel()
					}
				}
			},
			status: engine.StatusCancelled,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rt := newRuntime(t, tc.turns...)
			store := &session.Store{Dir: t.TempDir()}
			g := gates{}
			req := engine.Request{
				Provider: "fake", Model: "test", WorkDir: t.TempDir(), BuiltIns: []string{"ask_user_input"},
				Messages: []engine.Message{
					providers.TextMessage(providers.RoleSystem, "Be brief."),
					providers.TextMessage(providers.RoleUser, "read everything"),
				},
			}
			if tc.tools != nil {
				req.Tools = tc.tools(g)
			}
			var onEvent func(engine.Event, context.CancelFunc)
			if tc.onEvent != nil {
				onEvent = tc.onEvent(g)
			}
			w, err := store.Create(session.Meta{Provider: "fake", Model: "test", WorkDir: req.WorkDir, Title: "read everything"})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range req.Messages {
				if err := w.WriteMessage(m); err != nil {
					t.Fatal(err)
				}
			}
			res, arrived := run(t, rt, w, req, g, onEvent)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.status {
				t.Fatalf("status: got %s, want %s (error %v)", res.Status, tc.status, res.Error)
			}
			if tc.arrived != "" && strings.Join(arrived, " ") != tc.arrived {
				t.Fatalf("result events arrived as %q, want %q", arrived, tc.arrived)
			}
			if got := strings.Join(fileToolOrder(t, store, w.ID()), " "); tc.arrived != "" && got != tc.arrived {
				t.Fatalf("tool lines in the file: got %q, want arrival order %q", got, tc.arrived)
			}
			s, err := store.Load(w.ID())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Messages, res.Messages) {
				t.Errorf("loaded messages differ from Result.Messages:\n got %s\nwant %s", js(s.Messages), js(res.Messages))
			}
			if len(s.Warnings) != 0 {
				t.Errorf("warnings: got %q, want none", s.Warnings)
			}
			want := session.End{Status: res.Status, RunID: res.RunID, Output: res.Output, Pending: res.PendingCalls,
				Usage: res.Usage, Iterations: res.Iterations, Warnings: res.Warnings, PauseKind: res.PauseKind, Token: res.Token}
			if res.Error != nil { // Err is not stored
				want.Error = &engine.RunError{Code: res.Error.Code, Message: res.Error.Message}
			}
			if s.Last == nil || !reflect.DeepEqual(*s.Last, want) {
				t.Errorf("last end: got %+v, want %+v", s.Last, want)
			}
			if !reflect.DeepEqual(s.Pending, res.PendingCalls) {
				t.Errorf("pending: got %+v, want %+v", s.Pending, res.PendingCalls)
			}
			for i, name := range tc.pending {
				if s.Pending[i].Name != name {
					t.Errorf("pending[%d]: got %s, want %s", i, s.Pending[i].Name, name)
				}
			}
		})
	}
}

// TestResume pauses a run on ask_user_input, answers it through Append the
// way `run --resume ID --answer` does, and checks the loaded session equals
// the resumed run's conversation, the earlier lines included.
func TestResume(t *testing.T) {
	rt := newRuntime(t,
		scripted.Turn{ToolCalls: []scripted.Call{call("ask_user_input", askArgs)}},
		// A final_answer right after the user's answer is accepted; its
		// result is made by the engine, and the session must hold it too.
		scripted.Turn{ToolCalls: []scripted.Call{call("final_answer", `{"answer":"using pg"}`)}},
	)
	store := &session.Store{Dir: t.TempDir()}
	req := engine.Request{Provider: "fake", Model: "test", WorkDir: t.TempDir(), BuiltIns: []string{"ask_user_input"},
		Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "set up the database")}}
	w, err := store.Create(session.Meta{Provider: "fake", Model: "test", Title: "set up the database"})
	if err != nil {
		t.Fatal(err)
	}
	_ = w.WriteMessage(req.Messages[0])
	first, _ := run(t, rt, w, req, nil, nil)
	w.Close()
	if first.Status != engine.StatusToolCalls {
		t.Fatalf("first run: got %s, want tool_calls", first.Status)
	}

	s, err := store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	asks, err := s.PendingAsks()
	if err != nil || len(asks) != 1 || asks[0].Input.Questions[0].ID != "db" {
		t.Fatalf("PendingAsks: got %+v, %v; want one ask with question db", asks, err)
	}
	ans, err := asks[0].Input.Resolve(tools.Answer{Selected: map[string][]string{"db": {"pg"}}})
	if err != nil {
		t.Fatal(err)
	}
	reply := providers.ToolResultMessage(asks[0].Call, ans.Content(), false)

	w, err = store.Append(s.Meta.ID)
	if err != nil {
		t.Fatal(err)
	}
	_ = w.WriteMessage(reply)
	req.Messages = append(s.Messages, reply)
	second, _ := run(t, rt, w, req, nil, nil)
	w.Close()
	if second.Status != engine.StatusCompleted {
		t.Fatalf("resumed run: got %s (%v), want completed", second.Status, second.Error)
	}
	s, err = store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Messages, second.Messages) || len(s.Pending) != 0 || s.Last.Status != engine.StatusCompleted {
		t.Errorf("after resume: got %s (pending %v, last %+v), want %s", js(s.Messages), s.Pending, s.Last, js(second.Messages))
	}
	sums, _ := store.List()
	if len(sums) != 1 || sums[0].Status != "completed" || sums[0].Messages != len(second.Messages) {
		t.Errorf("List after resume: got %+v, want one completed session with %d messages", sums, len(second.Messages))
	}
	data, _ := os.ReadFile(filepath.Join(store.Dir, w.ID()+".jsonl"))
	if n := strings.Count(string(data), `"type":"end"`); n != 2 {
		t.Errorf("end lines: got %d, want 2 (one per run)", n)
	}
}
