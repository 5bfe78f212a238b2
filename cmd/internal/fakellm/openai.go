package fakellm

import (
	"github.com/llmrt/llmrt/providers/scripted"
)

func writeOpenAI(st *stream, t scripted.Turn) {
	st.w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	st.sse("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, p := range scripted.Words(t.Reasoning) {
		st.sse("", chunk(map[string]any{"reasoning_content": p}, nil))
	}
	for _, p := range scripted.Words(t.Text) {
		st.sseData("", chatText(p))
	}
	if t.Error != nil { // after_output or after_call_header: break off mid-reply
		if c, args, ok := header(t); ok {
			st.sse("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": st.callID(0, c), "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": args}}}}, nil))
		}
		st.cut = true
		return
	}
	for i, c := range t.ToolCalls {
		a := c.ArgumentText()
		half := len(a) / 2
		st.sse("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": st.callID(i, c), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": a[:half]}}}}, nil))
		st.sse("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": a[half:]}}}}, nil))
	}
	finish := "stop"
	if len(t.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	if t.Stop == "length" {
		finish = "length"
	}
	st.sse("", chunk(map[string]any{}, finish))
	if t.Usage != nil {
		st.sse("", map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "choices": []any{},
			"usage": map[string]any{"prompt_tokens": t.Usage.InputTokens, "completion_tokens": t.Usage.OutputTokens,
				"total_tokens": t.Usage.InputTokens + t.Usage.OutputTokens}})
	}
	st.frame("data: [DONE]\n\n")
}
