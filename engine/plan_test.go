package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
)

// TestPlanModeRefusesChanges runs the built-in writing tools and a command
// in plan mode: each is refused by permission with a message that says
// planning allows only reading, nothing is written, and the run ends with
// the model's plan.
func TestPlanModeRefusesChanges(t *testing.T) {
	h := newHarness(t,
		calls(c("write_file", `{"path":"a.txt","content":"x"}`),
			c("edit_file", `{"path":"b.txt","old_string":"a","new_string":"b"}`),
			c("create_directory", `{"path":"d"}`),
			c("shell_cmd", `{"command":"touch made.txt"}`)),
		answer("## Plan\n1. write a.txt"))
	if err := os.WriteFile(filepath.Join(h.dir, "b.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := h.request("plan it")
	req.Permission = engine.Permission{Mode: engine.ModePlan}
	res := h.complete(req)
	if res.Status != engine.StatusCompleted || !strings.Contains(res.Output, "## Plan") {
		t.Fatalf("got status %s answer %q, want completed with the plan", res.Status, res.Output)
	}
	var refused int
	for _, m := range res.Messages {
		if m.Role != providers.RoleTool {
			continue
		}
		text := m.Text()
		if text == "final answer recorded" {
			continue
		}
		if !strings.Contains(text, "planning mode allows only reading") || !strings.Contains(text, "plan") {
			t.Errorf("result %q: want it to say planning mode allows only reading", text)
		}
		refused++
	}
	if refused != 4 {
		t.Errorf("got %d refused results, want 4", refused)
	}
	for _, name := range []string{"a.txt", "d", "made.txt"} {
		if _, err := os.Stat(filepath.Join(h.dir, name)); err == nil {
			t.Errorf("%s exists; plan mode must not change the workspace", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "b.txt")); string(b) != "a" {
		t.Errorf("b.txt is %q, want it unchanged", b)
	}
}

// TestPlanModeDescribesThePlan checks what the model is told in plan mode:
// final_answer's description and the system prompt say the answer is a
// plan; outside plan mode they do not.
func TestPlanModeDescribesThePlan(t *testing.T) {
	for _, mode := range []engine.Mode{engine.ModePlan, engine.ModeAsk} {
		h := newHarness(t, answer("done"))
		req := h.request("go")
		req.Permission = engine.Permission{Mode: mode}
		h.complete(req)
		sent := h.rec.request(0)
		var desc string
		for _, s := range sent.Tools {
			if s.Name == engine.FinalAnswerTool {
				desc = s.Description
			}
		}
		system := sent.Messages[0].Text()
		plan := mode == engine.ModePlan
		if got := strings.Contains(desc, "plan in Markdown"); got != plan {
			t.Errorf("mode %s: final_answer described as %q; mentions the plan: %v, want %v", mode, desc, got, plan)
		}
		if got := strings.Contains(system, "planning mode"); got != plan {
			t.Errorf("mode %s: system prompt mentions planning mode: %v, want %v", mode, got, plan)
		}
	}
}

// TestPlanModeMarksToolContext checks that tools run in plan mode learn
// it from their context, which is how shell_cmd knows to confine its
// command read-only, and that tools run in other modes do not.
func TestPlanModeMarksToolContext(t *testing.T) {
	for _, mode := range []engine.Mode{engine.ModePlan, engine.ModeAuto} {
		var seen, ran bool
		probe := engine.Tool{Name: "probe", Kind: tools.KindRead, Schema: json.RawMessage(`{"type":"object"}`),
			Execute: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
				ran, seen = true, tools.Planning(ctx)
				return tools.Result{Content: "ok"}, nil
			}}
		h := newHarness(t, call("probe", `{}`), answer("done"))
		req := h.request("go")
		req.Tools = []engine.Tool{probe}
		req.Permission = engine.Permission{Mode: mode}
		h.complete(req)
		if !ran || seen != (mode == engine.ModePlan) {
			t.Errorf("mode %s: tool ran %v, saw planning %v; want it to see planning only in plan mode", mode, ran, seen)
		}
	}
}
