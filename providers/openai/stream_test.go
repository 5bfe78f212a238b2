package openai

import (
	"slices"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestToolCallFragments: interleaved parallel calls are kept apart by
// index, and a server sending no index gets one per new call ID.
func TestToolCallFragments(t *testing.T) {
	const stream = `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"add","arguments":"{\"a\":"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"mul","arguments":""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"arguments":"1}"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"b\":2}"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"c","type":"function","function":{"name":"x","arguments":"{}"}}]}}]}

data: {"choices":[{"index":0,"delta":{"refusal":null},"finish_reason":"tool_calls"}]}

data: [DONE]

`
	srv := replay.Sequence{replay.SSE(stream)}.Serve(t)
	reply, chunks, err := replay.Run(t.Context(), New(Config{Name: "openai", BaseURL: srv.URL}), simpleRequest())
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	replay.CheckFragments(t, chunks, false)
	got := replay.Calls(reply)
	want := []replay.Call{{ID: "a", Name: "add", Args: `{"a":1}`}, {ID: "b", Name: "mul", Args: `{"b":2}`}, {ID: "c", Name: "x", Args: "{}"}}
	if !slices.Equal(got, want) || reply.Stop != providers.StopToolCalls {
		t.Errorf("got calls %q stop %q, want %q stop tool_calls", got, reply.Stop, want)
	}
}

func TestStopReason(t *testing.T) {
	for in, want := range map[string]providers.StopReason{
		"stop": providers.StopNatural, "tool_calls": providers.StopToolCalls, "function_call": providers.StopToolCalls,
		"length": providers.StopLength, "content_filter": providers.StopContentFilter, "": providers.StopUnknown, "weird": providers.StopUnknown,
	} {
		if got := stopReason(in); got != want {
			t.Errorf("stopReason(%q): got %q, want %q", in, got, want)
		}
	}
}
