package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// routed answers each run from its own script, chosen by the run's first
// user message, so a parent and its concurrent sub-runs each follow
// theirs whatever order they call in.
type routed map[string]*scripted.Provider

func (routed) Name() string { return "scripted" }

func (r routed) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	for _, m := range req.Messages {
		if m.Role == providers.RoleUser {
			if p, ok := r[m.Text()]; ok {
				return p.Stream(ctx, req, emit)
			}
			break
		}
	}
	return errors.New("no script for this run")
}

func script(turns ...scripted.Turn) *scripted.Provider {
	p := scripted.New()
	p.Register("test", &scripted.Script{Turns: turns})
	return p
}

func spawnCall(task string) scripted.Call {
	b, _ := json.Marshal(map[string]string{"task": task})
	return scripted.Call{Name: engine.SpawnAgentTool, Arguments: b}
}

func withUsage(t scripted.Turn, in, out int) scripted.Turn {
	t.Usage = &providers.Usage{InputTokens: in, OutputTokens: out}
	return t
}

func spawnRuntime(t *testing.T, r routed, depth int) *engine.Runtime {
	t.Helper()
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": r}, SpawnDepth: depth})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt
}

func spawnRequest(t *testing.T, prompt string) engine.Request {
	return engine.Request{
		Provider: "fake", Model: "test", WorkDir: t.TempDir(), MaxIterations: 4, BuiltIns: engine.AllBuiltIns(),
		Messages: []engine.Message{providers.TextMessage(providers.RoleUser, prompt)},
	}
}

// TestSpawnAgentReportsHowTheSubRunEnded: the parent model gets the
// sub-run's answer, or why it did not give one.
func TestSpawnAgentReportsHowTheSubRunEnded(t *testing.T) {
	blocked, _ := json.Marshal(map[string]string{"reason": "no network"})
	cases := []struct {
		name  string
		child *scripted.Provider
		want  string
		isErr bool
	}{
		{"completed", script(answer("child found 3 files")), "child found 3 files", false},
		{"blocked", script(call("blocked", string(blocked))), "blocked: no network", true},
		{"max iterations", script(call("path_exists", `{"path":"a"}`), call("path_exists", `{"path":"b"}`), call("path_exists", `{"path":"c"}`), call("path_exists", `{"path":"d"}`), call("path_exists", `{"path":"e"}`)), "stopped after 4 model calls", true},
		{"failed", script(scripted.Turn{Error: &scripted.TurnError{Status: 400, Message: "bad request"}}), "failed (provider_error)", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt := spawnRuntime(t, routed{
				"parent":     script(calls(spawnCall("child task")), answer("parent done")),
				"child task": c.child,
			}, 0)
			var log eventLog
			res, err := rt.CompleteWith(context.Background(), spawnRequest(t, "parent"), log.add)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engine.StatusCompleted || res.Output != "parent done" {
				t.Fatalf("parent: %s %q %+v", res.Status, res.Output, res.Error)
			}
			var got *engine.Message
			for i, m := range res.Messages {
				if m.Role == providers.RoleTool && m.ToolName == engine.SpawnAgentTool {
					got = &res.Messages[i]
				}
			}
			if got == nil || !strings.Contains(got.Text(), c.want) || got.IsError != c.isErr {
				t.Errorf("the parent model got %+v, want %q (error %v)", got, c.want, c.isErr)
			}
			var child int
			for _, ev := range log.evs {
				if ev.RunID != res.RunID {
					child++
					if ev.ParentID != res.RunID {
						t.Errorf("a sub-run event has parent %q, want %q", ev.ParentID, res.RunID)
					}
				}
			}
			if child == 0 {
				t.Error("the sub-run's events should reach the parent's consumer")
			}
			if ts := terminals(log.evs); len(ts) < 1 || ts[len(ts)-1].RunID != res.RunID {
				t.Errorf("the last terminal event should be the parent's")
			}
		})
	}
}

// TestSpawnAgentCancelled: cancelling the parent stops its sub-run.
func TestSpawnAgentCancelled(t *testing.T) {
	rt := spawnRuntime(t, routed{
		"parent": script(calls(spawnCall("slow")), answer("never")),
		"slow":   script(scripted.Turn{DelayMS: 30_000, Text: "late"}),
	}, 0)
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	done := make(chan engine.Result, 1)
	go func() {
		res, _ := rt.CompleteWith(ctx, spawnRequest(t, "parent"), func(ev engine.Event) {
			if ev.Type == engine.EventRunStart && ev.ParentID != "" {
				once.Do(cancel)
			}
		})
		done <- res
	}()
	select {
	case res := <-done:
		if res.Status != engine.StatusCancelled {
			t.Errorf("parent status %s, want cancelled", res.Status)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling the parent did not stop the sub-run")
	}
}

// TestSpawnAgentDepth: sub-runs nest only as deep as configured.
func TestSpawnAgentDepth(t *testing.T) {
	rt := spawnRuntime(t, routed{
		"parent":     script(calls(spawnCall("child")), answer("parent done")),
		"child":      script(calls(spawnCall("grandchild")), answer("child done")),
		"grandchild": script(answer("should not run")),
	}, 1)
	var log eventLog
	res, err := rt.CompleteWith(context.Background(), spawnRequest(t, "parent"), log.add)
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status)
	}
	runs := map[string]bool{}
	refused := false
	for _, ev := range log.evs {
		runs[ev.RunID] = true
		if ev.Call != nil && ev.Call.Name == engine.SpawnAgentTool && ev.Outcome != nil && strings.Contains(ev.Outcome.Content, "may nest 1 deep") {
			refused = true
		}
	}
	if len(runs) != 2 || !refused {
		t.Errorf("want the parent and one child, the grandchild refused; got %d runs, refused %v", len(runs), refused)
	}
}

// TestSpawnAgentsOverlapAndCountUsage: two sub-runs of one reply run at
// the same time, and the parent's usage includes theirs.
func TestSpawnAgentsOverlapAndCountUsage(t *testing.T) {
	var mu sync.Mutex
	arrived := 0
	both := make(chan struct{})
	barrier := engine.Tool{
		Name: "barrier", Description: "waits for the other sub-run", Kind: tools.KindRead,
		Schema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			mu.Lock()
			arrived++
			if arrived == 2 {
				close(both)
			}
			mu.Unlock()
			select {
			case <-both:
				return tools.Text("together"), nil
			case <-time.After(5 * time.Second):
				return tools.Errorf("alone"), nil
			}
		},
	}
	rt := spawnRuntime(t, routed{
		"parent": script(withUsage(calls(spawnCall("a"), spawnCall("b")), 100, 10), withUsage(answer("parent done"), 200, 20)),
		"a":      script(withUsage(call("barrier", `{}`), 1, 1), withUsage(answer("a done"), 2, 2)),
		"b":      script(withUsage(call("barrier", `{}`), 3, 3), withUsage(answer("b done"), 4, 4)),
	}, 0)
	req := spawnRequest(t, "parent")
	req.Tools = []engine.Tool{barrier}
	res, err := rt.Complete(context.Background(), req)
	if err != nil || res.Status != engine.StatusCompleted {
		t.Fatal(err, res.Status, res.Error)
	}
	var results []string
	for _, m := range res.Messages {
		if m.Role == providers.RoleTool && m.ToolName == engine.SpawnAgentTool {
			results = append(results, m.Text())
		}
	}
	if strings.Join(results, "|") != "a done|b done" {
		t.Errorf("results %q", results)
	}
	if res.Usage.InputTokens != 310 || res.Usage.OutputTokens != 40 {
		t.Errorf("usage %+v, want the children's 10 in and 10 out added to the parent's 300/30", res.Usage)
	}
	if arrived != 2 {
		t.Errorf("both sub-runs should have reached the barrier")
	}
}
