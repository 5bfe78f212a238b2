package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// recorder wraps a provider and keeps a copy of every request it receives,
// so tests can assert on exactly what the loop sent.
type recorder struct {
	p    providers.Provider
	mu   sync.Mutex
	reqs []providers.Request
	errs []error // what each call returned
}

func (r *recorder) Name() string { return r.p.Name() }

func (r *recorder) Stream(ctx context.Context, req *providers.Request, emit func(providers.Chunk)) error {
	r.mu.Lock()
	cp := *req
	cp.Messages = append([]providers.Message(nil), req.Messages...)
	r.reqs = append(r.reqs, cp)
	r.mu.Unlock()
	err := r.p.Stream(ctx, req, emit)
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.mu.Unlock()
	return err
}

func (r *recorder) lastErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.errs) == 0 {
		return nil
	}
	return r.errs[len(r.errs)-1]
}

func (r *recorder) calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

func (r *recorder) request(i int) providers.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reqs[i]
}

type harness struct {
	t   *testing.T
	rt  *engine.Runtime
	rec *recorder
	dir string
}

func newHarness(t *testing.T, turns ...scripted.Turn) *harness {
	t.Helper()
	sp := scripted.New()
	sp.Register("test", &scripted.Script{Turns: turns})
	rec := &recorder{p: sp}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": rec}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return &harness{t: t, rt: rt, rec: rec, dir: t.TempDir()}
}

func (h *harness) request(prompt string) engine.Request {
	return engine.Request{
		Provider: "fake",
		Model:    "test",
		WorkDir:  h.dir,
		BuiltIns: engine.AllBuiltIns(),
		Messages: []engine.Message{providers.TextMessage(providers.RoleUser, prompt)},
	}
}

func (h *harness) complete(req engine.Request) engine.Result {
	h.t.Helper()
	res, err := h.rt.Complete(context.Background(), req)
	if err != nil {
		h.t.Fatalf("Complete: unexpected error %v", err)
	}
	return res
}

// Script helpers.

func say(text string) scripted.Turn { return scripted.Turn{Text: text} }

func call(name, args string) scripted.Turn { return calls(c(name, args)) }

func calls(cs ...scripted.Call) scripted.Turn { return scripted.Turn{ToolCalls: cs} }

func c(name, args string) scripted.Call {
	raw, _ := json.Marshal(args) // a JSON string: sent verbatim, even if invalid JSON
	return scripted.Call{Name: name, Arguments: raw}
}

func answer(s string) scripted.Turn {
	b, _ := json.Marshal(map[string]string{"answer": s})
	return call("final_answer", string(b))
}

// counterTool is a host tool that counts its calls and records their order.
type counterTool struct {
	mu    sync.Mutex
	n     int
	order []string
}

func (ct *counterTool) tool(name string, kind tools.Kind) engine.Tool {
	return engine.Tool{
		Name:        name,
		Description: "test tool " + name,
		Schema:      json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}`),
		Kind:        kind,
		Execute: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			ct.mu.Lock()
			defer ct.mu.Unlock()
			ct.n++
			ct.order = append(ct.order, name+string(args))
			return tools.Text("ok " + name), nil
		},
	}
}

func (ct *counterTool) count() int {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	return ct.n
}

// assertReplayable checks that every tool call in msgs has exactly one
// result, except the pending ones.
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
		for _, tc := range m.ToolCalls {
			want := 1
			if isPending[tc.ID] {
				want = 0
			}
			if results[tc.ID] != want {
				t.Errorf("tool call %s (%s): got %d results, want %d", tc.ID, tc.Name, results[tc.ID], want)
			}
		}
	}
}

// lastSystem returns the text of a trailing system message, if any.
func lastSystem(req providers.Request) string {
	m := req.Messages[len(req.Messages)-1]
	if m.Role != providers.RoleSystem {
		return ""
	}
	return m.Text()
}

func toolResults(msgs []engine.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role == providers.RoleTool {
			out = append(out, fmt.Sprintf("%s:%v:%s", m.ToolName, m.IsError, firstLine(m.Text())))
		}
	}
	return out
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
