package openai

import (
	"slices"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// checkFragments asserts the tool call fragment contract: the first
// fragment of each index carries the name and the ID (a legacy
// function_call has none), later ones only arguments.
func checkFragments(t *testing.T, chunks []providers.Chunk) {
	t.Helper()
	seen := map[int]bool{}
	for _, c := range chunks {
		if c.Type != providers.ChunkToolCall {
			continue
		}
		d := c.ToolCall
		if !seen[d.Index] && d.Name == "" {
			t.Errorf("first fragment of call %d: got %+v, want its name", d.Index, d)
		}
		if seen[d.Index] && (d.ID != "" || d.Name != "") {
			t.Errorf("later fragment of call %d: got %+v, want arguments only", d.Index, d)
		}
		seen[d.Index] = true
	}
}

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
	reply, chunks, err := run(t.Context(), New(Config{Name: "openai", BaseURL: srv.URL}), simpleRequest())
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	checkFragments(t, chunks)
	var got []call
	for _, c := range reply.Message.ToolCalls {
		got = append(got, call{c.ID, c.Name, c.Arguments})
	}
	want := []call{{"a", "add", `{"a":1}`}, {"b", "mul", `{"b":2}`}, {"c", "x", "{}"}}
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
