package openai

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

func completed(status, extra string) string {
	return sseEvent("response."+status, `{"type":"response.`+status+`","response":{"status":"`+status+`","output":[]`+extra+`}}`)
}

// TestResponsesStreamShapes: streams as servers other than OpenAI's own
// (or OpenAI in corner cases) send them all assemble the same reply.
func TestResponsesStreamShapes(t *testing.T) {
	tests := []struct {
		name      string
		stream    string
		text      string
		reasoning string
		calls     []replay.Call
		stop      providers.StopReason
	}{
		{name: "summary parts are separated by a blank line",
			stream: sseEvent("x", `{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":"**One**"}`) +
				sseEvent("x", `{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":1,"delta":"**Two**"}`) +
				sseEvent("x", `{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_1","encrypted_content":"E","summary":[{"type":"summary_text","text":"**One**"},{"type":"summary_text","text":"**Two**"}]}}`) +
				completed("completed", ""),
			reasoning: "**One**\n\n**Two**", stop: providers.StopNatural},
		{name: "raw reasoning text (open-weight models behind a proxy)",
			stream: sseEvent("x", `{"type":"response.reasoning_text.delta","output_index":0,"delta":"hmm"}`) +
				sseEvent("x", `{"type":"response.output_text.delta","output_index":1,"delta":"hi"}`) + completed("completed", ""),
			text: "hi", reasoning: "hmm", stop: providers.StopNatural},
		{name: "a server sending only whole items",
			stream: sseEvent("x", `{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"plan"}]}}`) +
				sseEvent("x", `{"type":"response.output_item.done","output_index":1,"item":{"type":"message","content":[{"type":"output_text","text":"Hello"}]}}`) +
				sseEvent("x", `{"type":"response.output_item.done","output_index":2,"item":{"type":"function_call","call_id":"c1","name":"now","arguments":"{}"}}`) +
				completed("completed", ""),
			text: "Hello", reasoning: "plan", calls: []replay.Call{{ID: "c1", Name: "now", Args: "{}"}}, stop: providers.StopToolCalls},
		{name: "interleaved parallel calls keep apart by output index",
			stream: sseEvent("x", `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"a","name":"add","arguments":""}}`) +
				sseEvent("x", `{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","call_id":"b","name":"mul","arguments":""}}`) +
				sseEvent("x", `{"type":"response.function_call_arguments.delta","output_index":1,"delta":"{\"b\":"}`) +
				sseEvent("x", `{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"a\":1}"}`) +
				sseEvent("x", `{"type":"response.function_call_arguments.delta","output_index":1,"delta":"2}"}`) +
				sseEvent("x", `{"type":"response.function_call_arguments.done","output_index":1,"arguments":"{\"b\":2}"}`) +
				sseEvent("x", `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"a","name":"add","arguments":"{\"a\":1}"}}`) +
				completed("completed", ""),
			calls: []replay.Call{{ID: "a", Name: "add", Args: `{"a":1}`}, {ID: "b", Name: "mul", Args: `{"b":2}`}}, stop: providers.StopToolCalls},
		{name: "arguments only in the done event",
			stream: sseEvent("x", `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"a","name":"add"}}`) +
				sseEvent("x", `{"type":"response.function_call_arguments.done","output_index":0,"arguments":"{\"a\":1}"}`) +
				sseEvent("x", `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"a","name":"add","arguments":"{\"a\":1}"}}`) +
				completed("completed", ""),
			calls: []replay.Call{{ID: "a", Name: "add", Args: `{"a":1}`}}, stop: providers.StopToolCalls},
		{name: "the output limit",
			stream: sseEvent("x", `{"type":"response.output_text.delta","output_index":0,"delta":"Once upon"}`) +
				completed("incomplete", `,"incomplete_details":{"reason":"max_output_tokens"}`),
			text: "Once upon", stop: providers.StopLength},
		{name: "a content filter",
			stream: completed("incomplete", `,"incomplete_details":{"reason":"content_filter"}`) + "", stop: providers.StopContentFilter},
		{name: "a refusal is text",
			stream: sseEvent("x", `{"type":"response.refusal.delta","output_index":0,"delta":"I can't help with that."}`) + completed("completed", ""),
			text:   "I can't help with that.", stop: providers.StopNatural},
		{name: "a proxy's [DONE] after the end",
			stream: okEvents + "data: [DONE]\n\n", text: "ok", stop: providers.StopNatural},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Sequence{replay.SSE(tt.stream)}.Serve(t)
			req := &providers.Request{Model: "gpt-5", Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")},
				Tools: []providers.ToolSpec{{Name: "add"}, {Name: "mul"}, {Name: "now"}}}
			reply, chunks, err := replay.Run(t.Context(), NewResponses(Config{BaseURL: srv.URL}), req)
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			replay.CheckFragments(t, chunks, true)
			replay.CheckEndsWithStop(t, chunks)
			if got := replay.ReasoningText(reply); reply.Message.Text() != tt.text || got != tt.reasoning {
				t.Errorf("got text %q reasoning %q, want %q and %q", reply.Message.Text(), got, tt.text, tt.reasoning)
			}
			if got := replay.Calls(reply); !slices.Equal(got, tt.calls) || reply.Stop != tt.stop {
				t.Errorf("got calls %q stop %q, want %q stop %q", got, reply.Stop, tt.calls, tt.stop)
			}
		})
	}
}

// TestResponsesToolNames: a tool name the API would reject is encoded on
// the way out and decoded in the reply, and in replayed calls.
func TestResponsesToolNames(t *testing.T) {
	const odd = "mcp.server/tool name"
	req := &providers.Request{Model: "gpt-5", Tools: []providers.ToolSpec{{Name: odd}},
		Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi"),
			{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{{ID: "c0", Name: odd, Arguments: "{}"}}},
			{Role: providers.RoleTool, ToolCallID: "c0", Content: []providers.Part{providers.TextPart("ok")}}}}
	bodies, _ := sendResponses(t, req)
	wire := bodies[0]["tools"].([]any)[0].(map[string]any)["name"].(string)
	if wire == odd {
		t.Fatalf("tool name sent as is: %q", wire)
	}
	if call := bodies[0]["input"].([]any)[1].(map[string]any); call["name"] != wire {
		t.Errorf("replayed call name: got %v, want %q", call["name"], wire)
	}
	stream := sseEvent("x", `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c1","name":"`+wire+`","arguments":"{}"}}`) +
		completed("completed", "")
	srv := replay.Sequence{replay.SSE(stream)}.Serve(t)
	reply, _, err := replay.Run(t.Context(), NewResponses(Config{BaseURL: srv.URL}), req)
	if err != nil || len(reply.Message.ToolCalls) != 1 || reply.Message.ToolCalls[0].Name != odd {
		t.Errorf("got %+v, %v; want one call named %q", reply.Message.ToolCalls, err, odd)
	}
}

// The response closing a stream repeats the whole answer in its output;
// it is read for its status and usage, and the answer is not decoded a
// second time.
func TestCompletedResponseSkipsItsOutput(t *testing.T) {
	answer := strings.Repeat("w1 ", 1<<20/3)
	data, err := json.Marshal(map[string]any{
		"type": "response.completed",
		"response": map[string]any{
			"status": "completed",
			"output": []any{map[string]any{"type": "message", "content": []any{map[string]any{"type": "output_text", "text": answer}}}},
			"usage":  map[string]any{"input_tokens": 3, "output_tokens": 400000},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var s rstreamer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ev, err := s.decode(data)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Response == nil || ev.Response.Status != "completed" || ev.Response.Usage == nil || ev.Response.Usage.OutputTokens != 400000 {
		t.Fatalf("decoded %+v, want the status and usage", ev.Response)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > uint64(len(answer))/4 {
		t.Errorf("decoding the closing response allocated %d bytes for a %d-byte answer in its output", n, len(answer))
	}
}
