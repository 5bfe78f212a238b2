package engine_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// TestRawEvents: with Request.Raw every payload the adapter received
// reaches the consumer as a raw event naming the adapter, right after
// model_start and before the events decoded from it; without it there are
// none, and the other events are the same either way.
func TestRawEvents(t *testing.T) {
	run := func(raw bool) (types []engine.EventType, payloads []json.RawMessage) {
		h := newHarness(t, call("list_files", `{}`), answer("done"))
		req := h.request("list")
		req.Raw = raw
		for ev := range h.rt.Stream(context.Background(), req) {
			types = append(types, ev.Type)
			if ev.Type == engine.EventRaw {
				payloads = append(payloads, ev.Raw)
				if ev.Provider != "scripted" {
					t.Errorf("raw event names provider %q, want the adapter's own name, scripted", ev.Provider)
				}
			}
		}
		return types, payloads
	}
	plain, none := run(false)
	if len(none) != 0 {
		t.Errorf("without Raw: got %d raw events, want none", len(none))
	}
	types, payloads := run(true)
	if len(payloads) != 2 {
		t.Fatalf("with Raw: got %d raw events, want one per model call (2): %v", len(payloads), types)
	}
	for i, ty := range types {
		if ty == engine.EventRaw && types[i-1] != engine.EventModelStart {
			t.Errorf("event %d: raw follows %s, want model_start: %v", i, types[i-1], types)
		}
	}
	var turn struct {
		ToolCalls []struct{ Name string } `json:"tool_calls"`
	}
	if err := json.Unmarshal(payloads[0], &turn); err != nil || len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Name != "list_files" {
		t.Errorf("first raw payload: got %s (%v), want the scripted turn calling list_files", payloads[0], err)
	}
	types = slices.DeleteFunc(types, func(ty engine.EventType) bool { return ty == engine.EventRaw })
	if !slices.Equal(types, plain) {
		t.Errorf("other events changed with Raw:\ngot  %v\nwant %v", types, plain)
	}
}
