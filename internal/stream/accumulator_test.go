package stream

import (
	"runtime"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

func TestAccumulator(t *testing.T) {
	var a Accumulator
	a.Provider = "anthropic"
	for _, c := range []providers.Chunk{
		{Type: providers.ChunkReasoning, Text: "first "},
		{Type: providers.ChunkReasoning, Text: "thought"},
		{Type: providers.ChunkReasoning, Signature: "sig1"},
		{Type: providers.ChunkReasoning, Redacted: "opaque"},
		{Type: providers.ChunkReasoning, Text: "second"},
		{Type: providers.ChunkText, Text: "Hello "},
		{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{Index: 1, ID: "b", Name: "beta", Arguments: `{"y"`}},
		{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{Index: 0, Name: "alpha", Arguments: `{}`}},
		{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{Index: 1, Arguments: `:2}`}},
		{Type: providers.ChunkText, Text: "world"},
		{Type: providers.ChunkUsage, Usage: providers.Usage{InputTokens: 10}},
		{Type: providers.ChunkUsage, Usage: providers.Usage{OutputTokens: 7}},
		{Type: providers.ChunkStop, Stop: providers.StopNatural},
	} {
		a.Add(c)
	}
	r := a.Reply()
	if got := r.Message.Text(); got != "Hello world" {
		t.Errorf("text: got %q", got)
	}
	want := []providers.Reasoning{{Text: "first thought", Signature: "sig1", Provider: "anthropic"}, {Redacted: "opaque", Provider: "anthropic"}, {Text: "second", Provider: "anthropic"}}
	if len(r.Message.Reasoning) != 3 {
		t.Fatalf("reasoning blocks: got %+v", r.Message.Reasoning)
	}
	for i, w := range want {
		if r.Message.Reasoning[i] != w {
			t.Errorf("block %d: got %+v, want %+v", i, r.Message.Reasoning[i], w)
		}
	}
	calls := r.Message.ToolCalls
	if len(calls) != 2 || calls[0].Name != "beta" || calls[0].Arguments != `{"y":2}` || calls[1].Name != "alpha" || !strings.HasPrefix(calls[1].ID, "call_") {
		t.Errorf("calls (in arrival order, ids generated where missing): %+v", calls)
	}
	if r.Stop != providers.StopToolCalls || r.Usage != (providers.Usage{InputTokens: 10, OutputTokens: 7}) || !a.Emitted() {
		t.Errorf("stop %s usage %+v emitted %v", r.Stop, r.Usage, a.Emitted())
	}
	a.Reset()
	if a.Emitted() || a.Reply().Stop != providers.StopUnknown || a.Provider != "anthropic" {
		t.Errorf("Reset should clear the reply and keep the provider")
	}
}

// TestAccumulatorRestart: a stream_restarted warning drops what came
// before it, so the reply holds only the restarted attempt.
func TestAccumulatorRestart(t *testing.T) {
	a := Accumulator{Provider: "openai"}
	restart := providers.Warning{Code: providers.WarnStreamRestarted, Message: "broke off"}
	for _, c := range []providers.Chunk{
		{Type: providers.ChunkWarning, Warning: providers.Warning{Code: "web_search", Message: "ignored"}},
		{Type: providers.ChunkReasoning, Text: "half a thought"},
		{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{Index: 0, ID: "call_1", Name: "final_answer"}},
		{Type: providers.ChunkUsage, Usage: providers.Usage{InputTokens: 3}},
		{Type: providers.ChunkWarning, Warning: restart},
		{Type: providers.ChunkText, Text: "whole"},
		{Type: providers.ChunkStop, Stop: providers.StopNatural},
	} {
		a.Add(c)
	}
	r := a.Reply()
	if r.Message.Text() != "whole" || len(r.Message.ToolCalls) != 0 || len(r.Message.Reasoning) != 0 || r.Usage != (providers.Usage{}) {
		t.Errorf("got text %q, %d calls, %d reasoning blocks, usage %+v; want only the restarted attempt",
			r.Message.Text(), len(r.Message.ToolCalls), len(r.Message.Reasoning), r.Usage)
	}
	if len(r.Warnings) != 1 || r.Warnings[0] != restart || a.Provider != "openai" {
		t.Errorf("warnings %+v provider %q: want only the restart warning, provider kept", r.Warnings, a.Provider)
	}
}

// TestLongArgumentsCostTheirBytes: a call's arguments streamed in 20,000
// small pieces allocate about their size, not a copy of the growing text
// per piece (quadratic: some 2 GB here).
func TestLongArgumentsCostTheirBytes(t *testing.T) {
	var a Accumulator
	piece := strings.Repeat("x", 10)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a.Add(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{ID: "c1", Name: "final_answer"}})
	for range 20_000 {
		a.Add(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{Arguments: piece}})
		a.Add(providers.Chunk{Type: providers.ChunkReasoning, Text: piece})
	}
	r := a.Reply()
	runtime.ReadMemStats(&after)
	if got := len(r.Message.ToolCalls[0].Arguments); got != 200_000 {
		t.Fatalf("arguments: %d bytes, want 200000", got)
	}
	if got := len(r.Message.Reasoning[0].Text); got != 200_000 {
		t.Fatalf("reasoning: %d bytes, want 200000", got)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("streaming 400 KB allocated %d MB, want it linear in the bytes (under 8 MB)", alloc>>20)
	}
}
