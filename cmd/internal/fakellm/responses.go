package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/llmrt/llmrt/providers/scripted"
)

// OpenAIChat is an OpenAI protocol server that speaks only Chat
// Completions, as many proxies and gateways do: /responses is not found.
// OpenAI itself serves both: POST .../responses gets the Responses API,
// any other path Chat Completions.
const OpenAIChat = "openai-chat"

// isResponses reports whether a request to path is a Responses API call.
func isResponses(path string) bool { return strings.HasSuffix(path, "/responses") }

// encryptedFor is the opaque reasoning state the server issues with the
// reasoning item of turn n.
func encryptedFor(n int) string { return "fake-encrypted-reasoning-" + strconv.Itoa(n) }

// checkResponses applies the rules the real API enforces on what a
// stateless client sends, and returns what is wrong, or "": store must be
// false (nothing is kept to look an id up in), and each reasoning item
// replayed must carry encrypted content this server issued, be followed
// by another item, and not be sent twice. include reports whether the
// request asked for encrypted reasoning, which the reply then carries.
func (s *Server) checkResponses(body []byte) (include bool, problem string) {
	var req struct {
		Store   *bool             `json:"store"`
		Include []string          `json:"include"`
		Input   []json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return false, "the body is not a JSON object: " + err.Error()
	}
	if req.Store == nil || *req.Store {
		return false, "store must be false: this server keeps no responses"
	}
	include = slices.Contains(req.Include, "reasoning.encrypted_content")
	seen := map[string]bool{}
	for i, raw := range req.Input {
		var it struct {
			Type      string  `json:"type"`
			Encrypted *string `json:"encrypted_content"`
			Summary   []any   `json:"summary"`
		}
		json.Unmarshal(raw, &it)
		if it.Type != "reasoning" {
			continue
		}
		switch {
		case it.Encrypted == nil || !s.issued[*it.Encrypted]:
			return false, fmt.Sprintf("input[%d]: reasoning encrypted_content was not issued by this server", i)
		case it.Summary == nil:
			return false, fmt.Sprintf("input[%d]: a reasoning item needs its summary (may be empty)", i)
		case i == len(req.Input)-1:
			return false, fmt.Sprintf("input[%d]: a reasoning item was provided without its required following item", i)
		case seen[*it.Encrypted]:
			return false, fmt.Sprintf("input[%d]: duplicate reasoning item", i)
		}
		seen[*it.Encrypted] = true
	}
	return include, ""
}

// badRequest answers 400 with an OpenAI error body.
func badRequest(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}})
}

// notFound answers 404 the way a server without the endpoint does.
func notFound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": "Invalid URL (" + r.Method + " " + r.URL.Path + ")", "type": "invalid_request_error"}})
}

// writeResponses streams t as a Responses API reply: a reasoning item
// when the turn reasons (with its summary, and enc as its encrypted state
// when not empty), a message item for its text, one function_call item
// per call, then response.completed, or response.incomplete for a turn
// stopped at the output limit.
func writeResponses(st *stream, t scripted.Turn, enc string) {
	st.w.Header().Set("Content-Type", "text/event-stream")
	seq := 0
	ev := func(v map[string]any) {
		v["sequence_number"] = seq
		seq++
		st.sse(v["type"].(string), v)
	}
	resp := func(status string, output []any) map[string]any {
		r := map[string]any{"id": "resp_fake_" + strconv.Itoa(st.turn), "object": "response", "model": "fake",
			"status": status, "output": output, "store": false}
		if status != "in_progress" {
			in, out := usageOf(t)
			cached, reasoning := 0, 0
			if t.Usage != nil {
				cached, reasoning = t.Usage.CacheReadTokens, t.Usage.ReasoningTokens
			}
			r["usage"] = map[string]any{"input_tokens": in, "output_tokens": out, "total_tokens": in + out,
				"input_tokens_details":  map[string]any{"cached_tokens": cached},
				"output_tokens_details": map[string]any{"reasoning_tokens": reasoning}}
		}
		return r
	}
	ev(map[string]any{"type": "response.created", "response": resp("in_progress", []any{})})
	ev(map[string]any{"type": "response.in_progress", "response": resp("in_progress", []any{})})
	var output []any
	idx := 0
	item := func(added, done map[string]any, body func()) {
		ev(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": added})
		body()
		if done != nil {
			ev(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": done})
			output = append(output, done)
		}
		idx++
	}
	if t.Reasoning != "" {
		id := "rs_fake_" + strconv.Itoa(st.turn)
		added := map[string]any{"id": id, "type": "reasoning", "summary": []any{}}
		done := map[string]any{"id": id, "type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": t.Reasoning}}}
		if enc != "" {
			added["encrypted_content"], done["encrypted_content"] = enc, enc
		}
		item(added, done,
			func() {
				for _, p := range scripted.Words(t.Reasoning) {
					st.sseData("response.reasoning_summary_text.delta", responsesSummary(p, id, idx, seq))
					seq++
				}
			})
	}
	if t.Text != "" {
		id := "msg_fake_" + strconv.Itoa(st.turn)
		cutInText := t.Error != nil && t.Error.AfterOutput
		done := map[string]any{"id": id, "type": "message", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}}}}
		if cutInText {
			done = nil // the stream breaks off inside the text
		}
		item(map[string]any{"id": id, "type": "message", "role": "assistant", "status": "in_progress", "content": []any{}}, done, func() {
			for _, p := range scripted.Words(t.Text) {
				st.sseData("response.output_text.delta", responsesText(p, id, idx, seq))
				seq++
			}
		})
	}
	if t.Error != nil { // after_output or after_call_header: break off mid-reply
		if c, args, ok := header(t); ok {
			id := "fc_fake_" + strconv.Itoa(st.turn) + "_1"
			ev(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": map[string]any{
				"id": id, "type": "function_call", "status": "in_progress", "call_id": st.callID(0, c), "name": c.Name, "arguments": ""}})
			if args != "" {
				ev(map[string]any{"type": "response.function_call_arguments.delta", "item_id": id, "output_index": idx, "delta": args})
			}
		}
		st.cut = true
		return
	}
	for i, c := range t.ToolCalls {
		id := "fc_fake_" + strconv.Itoa(st.turn) + "_" + strconv.Itoa(i+1)
		a := c.ArgumentText()
		half := len(a) / 2
		call := map[string]any{"id": id, "type": "function_call", "status": "completed", "call_id": st.callID(i, c), "name": c.Name, "arguments": a}
		item(map[string]any{"id": id, "type": "function_call", "status": "in_progress", "call_id": st.callID(i, c), "name": c.Name, "arguments": ""}, call, func() {
			ev(map[string]any{"type": "response.function_call_arguments.delta", "item_id": id, "output_index": idx, "delta": a[:half]})
			ev(map[string]any{"type": "response.function_call_arguments.delta", "item_id": id, "output_index": idx, "delta": a[half:]})
			ev(map[string]any{"type": "response.function_call_arguments.done", "item_id": id, "output_index": idx, "arguments": a})
		})
	}
	if t.Stop == "length" {
		r := resp("incomplete", output)
		r["incomplete_details"] = map[string]any{"reason": "max_output_tokens"}
		ev(map[string]any{"type": "response.incomplete", "response": r})
		return
	}
	ev(map[string]any{"type": "response.completed", "response": resp("completed", output)})
}
