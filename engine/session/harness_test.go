package session_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// gates make concurrent read calls finish in a chosen order: a call's tool
// waits for its gate, and the test opens the next gate when it sees the
// previous call's result event. Nothing sleeps.
type gates map[string]chan struct{}

func (g gates) open(name string) {
	if ch, ok := g[name]; ok {
		delete(g, name)
		close(ch)
	}
}

func (g gates) tool(name string, kind tools.Kind, res tools.Result) engine.Tool {
	ch := make(chan struct{})
	g[name] = ch
	return engine.Tool{
		Name: name, Description: "test tool " + name, Kind: kind,
		Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			select {
			case <-ch:
				return res, nil
			case <-ctx.Done():
				return tools.Result{}, ctx.Err()
			case <-time.After(10 * time.Second): // a broken test fails, never hangs
				return tools.Errorf("gate %s never opened", name), nil
			}
		},
	}
}

func call(name, args string) scripted.Call {
	return scripted.Call{Name: name, Arguments: json.RawMessage(args)}
}

const askArgs = `{"questions":[{"header":"DB","id":"db","question":"Which database?","options":[{"id":"pg","label":"Postgres"},{"id":"my","label":"MySQL"}]}]}`

// run drives one engine run through Stream, feeding every event to w the
// way the CLI does, and returns the Result of the terminal event and the
// tool_result/tool_error call names in the order they arrived.
func run(t *testing.T, rt *engine.Runtime, w *session.Writer, req engine.Request, g gates, onEvent func(engine.Event, context.CancelFunc)) (engine.Result, []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var res *engine.Result
	var arrived []string
	for ev := range rt.Stream(ctx, req) {
		if err := w.WriteEvent(ev); err != nil {
			t.Fatalf("WriteEvent(%s): %v", ev.Type, err)
		}
		if onEvent != nil {
			onEvent(ev, cancel)
		}
		if ev.Type == engine.EventToolResult || ev.Type == engine.EventToolError {
			arrived = append(arrived, ev.Call.Name)
		}
		if ev.Type.Terminal() {
			res = ev.Result
		}
	}
	if res == nil {
		t.Fatal("no terminal event")
	}
	return *res, arrived
}

func newRuntime(t *testing.T, turns ...scripted.Turn) *engine.Runtime {
	t.Helper()
	sp := scripted.New()
	sp.Register("test", &scripted.Script{Turns: turns})
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": sp}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt
}

// fileToolOrder returns the tool names of the tool message lines of a
// session file, in file order.
func fileToolOrder(t *testing.T, store *session.Store, id string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(store.Dir, id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var v struct {
			Message *engine.Message `json:"message"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if v.Message != nil && v.Message.Role == providers.RoleTool {
			names = append(names, v.Message.ToolName)
		}
	}
	return names
}

func js(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}
