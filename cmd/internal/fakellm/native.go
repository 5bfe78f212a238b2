package fakellm

import (
	"encoding/json"
	"strings"

	"github.com/llmrt/llmrt/providers/scripted"
)

func usageOf(t scripted.Turn) (in, out int) {
	if t.Usage != nil {
		return t.Usage.InputTokens, t.Usage.OutputTokens
	}
	return 0, 0
}

func writeAnthropic(st *stream, t scripted.Turn) {
	st.w.Header().Set("Content-Type", "text/event-stream")
	in, out := usageOf(t)
	st.sse("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake", "content": []any{},
		"stop_reason": nil, "usage": map[string]any{"input_tokens": in, "output_tokens": 1}}})
	idx := 0
	block := func(start map[string]any, deltas []map[string]any) {
		st.sse("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": start})
		for _, d := range deltas {
			st.blockDelta(idx, d)
		}
		st.sse("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	if t.Reasoning != "" {
		var ds []map[string]any
		for _, p := range scripted.Words(t.Reasoning) {
			ds = append(ds, map[string]any{"type": "thinking_delta", "thinking": p})
		}
		ds = append(ds, map[string]any{"type": "signature_delta", "signature": "fake-signature"})
		block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, ds)
	}
	if t.Text != "" {
		var ds []map[string]any
		for _, p := range scripted.Words(t.Text) {
			ds = append(ds, map[string]any{"type": "text_delta", "text": p})
		}
		if t.Error != nil && t.Error.AfterOutput { // break off inside the text block
			st.sse("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, d := range ds {
				st.blockDelta(idx, d)
			}
			st.cut = true
			return
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	if t.Error != nil { // after_output without text, or after_call_header
		if c, args, ok := header(t); ok {
			st.sse("content_block_start", map[string]any{"type": "content_block_start", "index": idx,
				"content_block": map[string]any{"type": "tool_use", "id": "toolu_" + st.callID(0, c), "name": c.Name, "input": map[string]any{}}})
			if args != "" {
				st.sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": args}})
			}
		}
		st.cut = true
		return
	}
	for i, c := range t.ToolCalls {
		a := c.ArgumentText()
		half := len(a) / 2
		block(map[string]any{"type": "tool_use", "id": "toolu_" + st.callID(i, c), "name": c.Name, "input": map[string]any{}},
			[]map[string]any{{"type": "input_json_delta", "partial_json": a[:half]}, {"type": "input_json_delta", "partial_json": a[half:]}})
	}
	stop := "end_turn"
	if len(t.ToolCalls) > 0 {
		stop = "tool_use"
	}
	if t.Stop == "length" {
		stop = "max_tokens"
	}
	st.sse("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": out}})
	st.sse("message_stop", map[string]any{"type": "message_stop"})
}

// blockDelta writes an Anthropic content block delta: a text or thinking
// delta laid out as the API lays it out, another from its map.
func (st *stream) blockDelta(idx int, d map[string]any) {
	switch d["type"] {
	case "text_delta":
		st.sseData("content_block_delta", anthropicDelta(idx, "text_delta", "text", d["text"].(string)))
	case "thinking_delta":
		st.sseData("content_block_delta", anthropicDelta(idx, "thinking_delta", "thinking", d["thinking"].(string)))
	default:
		st.sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": d})
	}
}

func writeGemini(st *stream, t scripted.Turn) {
	st.w.Header().Set("Content-Type", "text/event-stream")
	st.eol = "\r\n"
	in, out := usageOf(t)
	chunk := func(parts []any, finish string) {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			cand["finishReason"] = finish
		}
		st.sse("", map[string]any{"candidates": []any{cand}, "modelVersion": "fake",
			"usageMetadata": map[string]any{"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out}})
	}
	for _, p := range scripted.Words(t.Reasoning) {
		st.sseData("", geminiText(p, true, in, out))
	}
	for _, p := range scripted.Words(t.Text) {
		st.sseData("", geminiText(p, false, in, out))
	}
	if t.Error != nil {
		if c, _, ok := header(t); ok { // Gemini sends a call whole
			chunk([]any{geminiCall(c)}, "")
		}
		st.cut = true
		return
	}
	var calls []any
	for _, c := range t.ToolCalls {
		calls = append(calls, geminiCall(c))
	}
	finish := "STOP"
	if t.Stop == "length" {
		finish = "MAX_TOKENS"
	}
	if len(calls) == 0 {
		calls = []any{map[string]any{"text": ""}}
	}
	chunk(calls, finish)
}

func writeOllama(st *stream, t scripted.Turn) {
	st.w.Header().Set("Content-Type", "application/x-ndjson")
	line := func(msg map[string]any, done bool, extra map[string]any) {
		m := map[string]any{"model": "fake", "created_at": "2026-11-22T00:00:00Z", "message": msg, "done": done}
		for k, v := range extra {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		st.frame(string(b) + "\n")
	}
	for _, p := range scripted.Words(t.Reasoning) {
		st.frame(ollamaLine("", p) + "\n")
	}
	for _, p := range scripted.Words(t.Text) {
		st.frame(ollamaLine(p, "") + "\n")
	}
	if t.Error != nil {
		if c, _, ok := header(t); ok { // Ollama sends a call whole
			line(map[string]any{"role": "assistant", "content": "", "tool_calls": []any{ollamaCall(c)}}, false, nil)
		}
		st.cut = true
		return
	}
	if len(t.ToolCalls) > 0 {
		var calls []any
		for _, c := range t.ToolCalls {
			calls = append(calls, ollamaCall(c))
		}
		line(map[string]any{"role": "assistant", "content": "", "tool_calls": calls}, false, nil)
	}
	in, out := usageOf(t)
	reason := "stop"
	if strings.EqualFold(t.Stop, "length") {
		reason = "length"
	}
	line(map[string]any{"role": "assistant", "content": ""}, true, map[string]any{"done_reason": reason, "prompt_eval_count": in, "eval_count": out})
}

// jsonArgs decodes a call's arguments for protocols that send them as an
// object; text that is not JSON becomes an empty object.
func jsonArgs(c scripted.Call) any {
	var a any
	if json.Unmarshal([]byte(c.ArgumentText()), &a) != nil {
		a = map[string]any{}
	}
	return a
}

func geminiCall(c scripted.Call) map[string]any {
	return map[string]any{"functionCall": map[string]any{"name": c.Name, "args": jsonArgs(c)}}
}

func ollamaCall(c scripted.Call) map[string]any {
	return map[string]any{"function": map[string]any{"name": c.Name, "arguments": jsonArgs(c)}}
}
