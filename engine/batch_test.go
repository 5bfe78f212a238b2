package engine_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/tools"
)

// rendezvous is a read tool whose calls each wait until n calls are
// running at once (or a second has passed); overlap records whether they
// ever were.
type rendezvous struct {
	mu      sync.Mutex
	n, in   int // calls wanted at once, calls running
	all     chan struct{}
	overlap bool
}

func newRendezvous(n int) *rendezvous { return &rendezvous{n: n, all: make(chan struct{})} }

func (z *rendezvous) tool(name string) engine.Tool {
	return engine.Tool{
		Name: name, Description: "waits for its siblings", Kind: tools.KindRead,
		Schema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`),
		Execute: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			z.mu.Lock()
			z.in++
			if z.in == z.n {
				z.overlap = true
				close(z.all)
			}
			z.mu.Unlock()
			select {
			case <-z.all:
			case <-time.After(time.Second):
			}
			z.mu.Lock()
			z.in--
			z.mu.Unlock()
			return tools.Text("met " + string(args)), nil
		},
	}
}

// TestExecuteToolCalls: a batch outside the loop follows the loop's rules
// for a batch: read calls run together, mutating calls one at a time in
// the given order under the permission policy, invalid and host-owned
// calls get their outcome without running, and outcomes come back in the
// order of the calls. Read calls between two mutating ones run together;
// a mutating call waits for the reads before it.
func TestExecuteToolCalls(t *testing.T) {
	h := newHarness(t)
	z := newRendezvous(2)
	ct := &counterTool{}
	req := engine.Request{
		WorkDir:  h.dir,
		BuiltIns: []string{},
		Tools: []engine.Tool{z.tool("peek"), ct.tool("poke", tools.KindWrite),
			{Name: "ask_host", Description: "host-owned", Kind: tools.KindRead}},
		Permission: engine.Permission{Mode: engine.ModeAsk, Rules: []engine.Rule{{Action: engine.RuleAllow, Tool: "poke", Params: map[string]string{"x": "ok*"}}}},
	}
	calls := []engine.ToolCall{
		{ID: "1", Name: "peek", Arguments: `{"x":"a"}`},
		{ID: "2", Name: "peek", Arguments: `{"x":"b"}`},
		{ID: "3", Name: "poke", Arguments: `{"x":"ok1"}`},
		{ID: "4", Name: "poke", Arguments: `{"x":"no"}`},
		{ID: "5", Name: "poke", Arguments: `{"x":"ok2"}`},
		{ID: "6", Name: "peek", Arguments: `{"x":1}`},
		{ID: "7", Name: "ask_host", Arguments: `{}`},
	}
	var mu sync.Mutex
	var started []string
	out := h.rt.ExecuteToolCallsWith(context.Background(), calls, req, func(ev engine.Event) {
		if ev.Type == engine.EventToolStart {
			mu.Lock()
			started = append(started, ev.Call.ID)
			mu.Unlock()
		}
	})
	if len(out) != len(calls) {
		t.Fatalf("outcomes: got %d, want %d", len(out), len(calls))
	}
	want := []struct {
		content string
		code    string
	}{
		{`met {"x":"a"}`, ""},
		{`met {"x":"b"}`, ""},
		{"ok poke", ""},
		{"", engine.OutcomePermissionDenied},
		{"ok poke", ""},
		{"", engine.OutcomeInvalidArguments},
		{"", engine.OutcomeNotRun},
	}
	for i, w := range want {
		if out[i].Code != w.code || w.content != "" && out[i].Content != w.content {
			t.Errorf("call %s: got %q (code %q), want %q (code %q)", calls[i].ID, out[i].Content, out[i].Code, w.content, w.code)
		}
	}
	if !z.overlap {
		t.Errorf("the two peek calls did not run at the same time")
	}
	if got := ct.order; len(got) != 2 || got[0] != `poke{"x":"ok1"}` || got[1] != `poke{"x":"ok2"}` {
		t.Errorf("mutating calls: got %v, want ok1 then ok2", got)
	}
	if len(started) != 4 {
		t.Errorf("tool_start events: got %v, want one per call that ran (4)", started)
	}
}

// TestExecuteToolCallsMisuse: a request that cannot run gives every call
// an invalid_request outcome.
func TestExecuteToolCallsMisuse(t *testing.T) {
	h := newHarness(t)
	req := engine.Request{WorkDir: h.dir, Permission: engine.Permission{Mode: "bogus"}}
	out := h.rt.ExecuteToolCalls(context.Background(), []engine.ToolCall{{ID: "1", Name: "list_files"}, {ID: "2", Name: "read_file"}}, req)
	if len(out) != 2 || out[0].Code != string(engine.CodeInvalidRequest) || out[1].Code != string(engine.CodeInvalidRequest) {
		t.Errorf("got %+v, want two invalid_request outcomes", out)
	}
}
