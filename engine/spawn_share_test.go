package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// TestSpawnAgentEvidence: a write a sub-run made is work done for its
// parent, so the parent's plain-text reply after it ends the run; a
// sub-run that only read leaves the parent to finish with final_answer.
func TestSpawnAgentEvidence(t *testing.T) {
	cases := []struct {
		name  string
		child *scripted.Provider
		ends  bool
	}{
		{"the sub-run wrote", script(call("write_file", `{"path":"x.txt","content":"x"}`), answer("wrote x.txt")), true},
		{"the sub-run read", script(call("path_exists", `{"path":"x.txt"}`), answer("no x.txt")), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rt := spawnRuntime(t, routed{
				"parent": script(calls(spawnCall("child")), say("All done."), answer("finished")),
				"child":  tc.child,
			}, 0)
			res, err := rt.Complete(context.Background(), spawnRequest(t, "parent"))
			if err != nil || res.Status != engine.StatusCompleted {
				t.Fatal(err, res.Status, res.Error)
			}
			if ended := res.Output == "All done."; ended != tc.ends {
				t.Errorf("the parent's text reply ended the run: %v (output %q), want %v", ended, res.Output, tc.ends)
			}
		})
	}
}

// TestSpawnAgentBudget: a sub-run may spend only what is left of its
// parent's budget, and what it spent counts against the parent's.
func TestSpawnAgentBudget(t *testing.T) {
	rt := spawnRuntime(t, routed{
		"parent": script(withUsage(calls(spawnCall("child")), 50, 0), answer("never")),
		"child":  script(withUsage(call("path_exists", `{"path":"a"}`), 30, 0), withUsage(call("path_exists", `{"path":"b"}`), 30, 0), answer("never")),
	}, 0)
	req := spawnRequest(t, "parent")
	req.TokenBudget = 100
	res, err := rt.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolResultFor(res.Messages, engine.SpawnAgentTool); !strings.Contains(got, "budget_exceeded") || !strings.Contains(got, "budget of 50") {
		t.Errorf("the parent model got %q, want the sub-run stopped at the 50 tokens left", got)
	}
	if res.Status != engine.StatusFailed || res.Error == nil || res.Error.Code != engine.CodeBudgetExceeded || res.Usage.Total() != 110 {
		t.Errorf("parent: %s %+v with %d tokens, want failed/budget_exceeded with 110", res.Status, res.Error, res.Usage.Total())
	}
}

// TestSpawnAgentSharesDecisions: what a person allowed always holds across
// a parent and its sub-runs, in both directions, so the same write is put
// to them once.
func TestSpawnAgentSharesDecisions(t *testing.T) {
	write := func(name string) scripted.Turn {
		return call("write_file", `{"path":"`+name+`","content":"x"}`)
	}
	cases := []struct {
		name           string
		parent, child  *scripted.Provider
		written, asked int
	}{
		{"parent first", script(write("a.txt"), calls(spawnCall("child")), answer("done")), script(write("b.txt"), answer("child done")), 2, 1},
		{"child first", script(calls(spawnCall("child")), write("a.txt"), answer("done")), script(write("b.txt"), answer("child done")), 2, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rt := spawnRuntime(t, routed{"parent": tc.parent, "child": tc.child}, 0)
			req := spawnRequest(t, "parent")
			req.Permission.Mode = engine.ModeAsk
			var mu sync.Mutex
			asked := 0
			req.Permission.Approver = engine.ApproverFunc(func(context.Context, engine.PermissionRequest) (engine.Decision, error) {
				mu.Lock()
				asked++
				mu.Unlock()
				return engine.Decision{Action: engine.AllowAlways, Rule: "write_file"}, nil
			})
			res, err := rt.Complete(context.Background(), req)
			if err != nil || res.Status != engine.StatusCompleted {
				t.Fatal(err, res.Status, res.Error)
			}
			written := 0
			for _, n := range []string{"a.txt", "b.txt"} {
				if _, err := os.Stat(filepath.Join(req.WorkDir, n)); err == nil {
					written++
				}
			}
			if written != tc.written || asked != tc.asked {
				t.Errorf("%d files written after %d questions, want %d after %d", written, asked, tc.written, tc.asked)
			}
		})
	}
}

// TestContainersRunWithoutApproval: run_code and spawn_agent change
// nothing by themselves, so under mode read, and in ask mode with no one
// to ask, a program that reads and a sub-run that reads both run (in one
// reply, at the same time) instead of being refused as changes.
func TestContainersRunWithoutApproval(t *testing.T) {
	for _, mode := range []engine.Mode{engine.ModeRead, engine.ModeAsk} {
		t.Run(string(mode), func(t *testing.T) {
			rt := spawnRuntime(t, routed{
				"parent": script(calls(spawnCall("child"), c(engine.RunCodeTool, runCode(`print("exists:", path_exists(path=".")["exists"])`))), answer("done")),
				"child":  script(call("path_exists", `{"path":"."}`), answer("child read")),
			}, 0)
			req := spawnRequest(t, "parent")
			req.Permission.Mode = mode
			res, err := rt.Complete(context.Background(), req)
			if err != nil || res.Status != engine.StatusCompleted {
				t.Fatal(err, res.Status, res.Error)
			}
			got := toolResultFor(res.Messages, engine.SpawnAgentTool) + " | " + toolResultFor(res.Messages, engine.RunCodeTool)
			if !strings.Contains(got, "child read") || !strings.Contains(got, "exists: True") {
				t.Errorf("under mode %s the containers returned %q, want the sub-run's answer and the program's output", mode, got)
			}
		})
	}
}

// TestSpawnAgentTools: a sub-run gets the tools its call names, or its
// parent's; a name the parent does not have is refused before it starts.
func TestSpawnAgentTools(t *testing.T) {
	spawnWith := func(names string) scripted.Turn {
		return call(engine.SpawnAgentTool, `{"task":"child","tools":`+names+`}`)
	}
	cases := []struct {
		name   string
		parent scripted.Turn
		want   string // in the parent's spawn_agent result
	}{
		{"the named tools only", spawnWith(`["path_exists"]`), "unknown tool \"read_file\""},
		{"the parent's tools", call(engine.SpawnAgentTool, `{"task":"child"}`), "child read it"},
		{"a tool the parent lacks", spawnWith(`["no_such_tool"]`), "unknown tool \"no_such_tool\" for the sub-agent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rt := spawnRuntime(t, routed{
				"parent": script(tc.parent, answer("done")),
				"child":  script(call("read_file", `{"path":"a.txt"}`), scripted.Turn{ToolCalls: []scripted.Call{c("final_answer", `{"answer":"child read it"}`)}}),
			}, 0)
			var log eventLog
			req := spawnRequest(t, "parent")
			if err := os.WriteFile(filepath.Join(req.WorkDir, "a.txt"), []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := rt.CompleteWith(context.Background(), req, log.add)
			if err != nil || res.Status != engine.StatusCompleted {
				t.Fatal(err, res.Status, res.Error)
			}
			got := toolResultFor(res.Messages, engine.SpawnAgentTool)
			for _, ev := range log.evs {
				if ev.RunID != res.RunID && ev.Outcome != nil {
					got += " | " + ev.Outcome.Content
				}
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q in it", got, tc.want)
			}
		})
	}
}

// TestSpawnAgentsAskOneAtATime: two sub-runs running side by side that
// both need the person (an approval, a question) ask one after the other.
func TestSpawnAgentsAskOneAtATime(t *testing.T) {
	for _, first := range []scripted.Turn{
		call("write_file", `{"path":"x.txt","content":"x"}`),
		call(engine.AskUserTool, langAsk),
	} {
		t.Run(first.ToolCalls[0].Name, func(t *testing.T) {
			rt := spawnRuntime(t, routed{
				"parent": script(calls(spawnCall("a"), spawnCall("b")), answer("done")),
				"a":      script(first, answer("a done")),
				"b":      script(first, answer("b done")),
			}, 0)
			var mu sync.Mutex
			asked, inside, most := 0, 0, 0
			// person stays with each prompt long enough for the other
			// sub-run to reach the person too, unless it must wait.
			person := func(ctx context.Context) {
				mu.Lock()
				asked++
				inside++
				most = max(most, inside)
				mu.Unlock()
				select {
				case <-time.After(300 * time.Millisecond):
				case <-ctx.Done():
				}
				mu.Lock()
				inside--
				mu.Unlock()
			}
			req := spawnRequest(t, "parent")
			req.Permission.Mode = engine.ModeAsk
			req.Permission.Approver = engine.ApproverFunc(func(ctx context.Context, _ engine.PermissionRequest) (engine.Decision, error) {
				person(ctx)
				return engine.Decision{Action: engine.AllowOnce}, nil
			})
			req.Asker = engine.AskerFunc(func(ctx context.Context, q engine.Question) (tools.Answer, error) {
				person(ctx)
				return pickGo(ctx, q)
			})
			res, err := rt.Complete(context.Background(), req)
			if err != nil || res.Status != engine.StatusCompleted {
				t.Fatal(err, res.Status, res.Error)
			}
			if asked != 2 || most != 1 {
				t.Errorf("%d prompts, at most %d at once; want 2, one at a time", asked, most)
			}
		})
	}
}
