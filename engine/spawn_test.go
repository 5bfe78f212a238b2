package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
			spawnCall := ""
			for _, ev := range log.evs {
				if ev.Type == engine.EventToolStart && ev.Call.Name == engine.SpawnAgentTool {
					spawnCall = ev.Call.ID
				}
				if ev.RunID != res.RunID {
					child++
					if ev.ParentID != res.RunID {
						t.Errorf("a sub-run event has parent %q, want %q", ev.ParentID, res.RunID)
					}
					if ev.Type == engine.EventRunStart && (ev.Call == nil || ev.Call.ID != spawnCall || spawnCall == "") {
						t.Errorf("the sub-run's run_start should name the spawn_agent call %q: %+v", spawnCall, ev.Call)
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
	var log eventLog
	done := make(chan engine.Result, 1)
	go func() {
		res, _ := rt.CompleteWith(ctx, spawnRequest(t, "parent"), func(ev engine.Event) {
			log.add(ev)
			if ev.Type == engine.EventModelStart && ev.ParentID != "" {
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
		if got := toolResultFor(res.Messages, engine.SpawnAgentTool); !strings.Contains(got, "cancelled") {
			t.Errorf("the spawn_agent call's result is %q, want it to say cancelled", got)
		}
		if ts := terminals(log.evs); len(ts) != 2 || ts[0].Type != engine.EventCancelled || ts[0].ParentID != res.RunID {
			t.Errorf("want the sub-run's cancelled event, with the parent's id, then the parent's; got %+v", ts)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling the parent did not stop the sub-run")
	}
}

// TestSpawnAgentDepth: sub-runs nest only as deep as configured (two
// levels by default; a negative depth forbids them).
func TestSpawnAgentDepth(t *testing.T) {
	cases := []struct {
		depth, runs int
		refusal     string
	}{
		{1, 2, "may nest 1 deep and this one would be at depth 2"},
		{0, 3, "may nest 2 deep and this one would be at depth 3"},
		{-1, 1, "may nest 0 deep and this one would be at depth 1"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.depth), func(t *testing.T) {
			rt := spawnRuntime(t, routed{
				"parent":     script(calls(spawnCall("child")), answer("parent done")),
				"child":      script(calls(spawnCall("grandchild")), answer("child done")),
				"grandchild": script(calls(spawnCall("great")), answer("grandchild done")),
				"great":      script(answer("should not run")),
			}, tc.depth)
			var log eventLog
			res, err := rt.CompleteWith(context.Background(), spawnRequest(t, "parent"), log.add)
			if err != nil || res.Status != engine.StatusCompleted {
				t.Fatal(err, res.Status)
			}
			runs := map[string]bool{}
			refused := false
			for _, ev := range log.evs {
				runs[ev.RunID] = true
				if ev.Call != nil && ev.Call.Name == engine.SpawnAgentTool && ev.Outcome != nil && strings.Contains(ev.Outcome.Content, tc.refusal) {
					refused = true
				}
			}
			if len(runs) != tc.runs || !refused {
				t.Errorf("got %d runs, refusal %q seen: %v; want %d runs and the refusal", len(runs), tc.refusal, refused, tc.runs)
			}
		})
	}
}

// TestSpawnAgentsOverlapAndCountUsage: two sub-runs of one reply run at
// the same time, and the parent's usage includes theirs.
func TestSpawnAgentsOverlapAndCountUsage(t *testing.T) {
	var mu sync.Mutex
	arrived, together := 0, 0
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
				mu.Lock()
				together++
				mu.Unlock()
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
	if together != 2 {
		t.Errorf("%d of 2 sub-runs met the other at the barrier, want both: they did not run at the same time", together)
	}
}
