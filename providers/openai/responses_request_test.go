package openai

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// okEvents is the smallest complete Responses stream: the text "ok".
var okEvents = sseEvent("response.created", `{"type":"response.created","response":{"status":"in_progress","output":[]}}`) +
	sseEvent("response.output_item.added", `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`) +
	sseEvent("response.output_text.delta", `{"type":"response.output_text.delta","output_index":0,"delta":"ok"}`) +
	sseEvent("response.completed", `{"type":"response.completed","response":{"status":"completed","output":[],"usage":{"input_tokens":5,"output_tokens":1,"total_tokens":6}}}`)

// sendResponses streams req through a Responses client against a server
// answering with handlers (okEvents when none), and returns the bodies
// sent, decoded, and the chunks.
func sendResponses(t *testing.T, req *providers.Request, handlers ...string) ([]map[string]any, []providers.Chunk) {
	t.Helper()
	seq := replay.Sequence{replay.SSE(okEvents)}
	if len(handlers) > 0 {
		seq = nil
		for _, h := range handlers {
			seq = append(seq, replay.SSE(h))
		}
	}
	srv := seq.Serve(t)
	_, chunks, err := replay.Run(t.Context(), NewResponses(Config{BaseURL: srv.URL + "/v1", APIKey: testKey}), req)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	var bodies []map[string]any
	for _, r := range srv.Requests() {
		bodies = append(bodies, r.JSON(t))
	}
	return bodies, chunks
}

func TestResponsesRequestOptions(t *testing.T) {
	zero := 0.0
	weather := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)
	tests := []struct {
		name   string
		req    providers.Request
		want   map[string]any
		absent []string
	}{
		{name: "reasoning model with effort, limits and web search",
			req: providers.Request{Model: "gpt-5-mini", MaxTokens: 100, Temperature: &zero, ReasoningEffort: providers.EffortLow,
				WebSearch: &providers.WebSearch{ContextSize: "high"}, Tools: []providers.ToolSpec{{Name: "weather", Description: "Weather.", Parameters: weather}}},
			want: map[string]any{"model": "gpt-5-mini", "stream": true, "store": false, "max_output_tokens": 100.0, "temperature": 0.0,
				"include": []any{"reasoning.encrypted_content"}, "reasoning": map[string]any{"effort": "low", "summary": "auto"},
				"tools": []any{
					map[string]any{"type": "function", "name": "weather", "description": "Weather.", "strict": false,
						"parameters": map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}},
					map[string]any{"type": "web_search", "search_context_size": "high"},
				}},
			absent: []string{"messages", "max_completion_tokens", "reasoning_effort", "web_search_options", "previous_response_id"}},
		{name: "reasoning model by default: encrypted reasoning, no summaries asked",
			req:    providers.Request{Model: "o4-mini"},
			want:   map[string]any{"include": []any{"reasoning.encrypted_content"}},
			absent: []string{"reasoning", "tools", "max_output_tokens", "temperature"}},
		{name: "effort none asks for no summary",
			req:  providers.Request{Model: "gpt-5.1", ReasoningEffort: providers.EffortNone},
			want: map[string]any{"reasoning": map[string]any{"effort": "none"}}},
		{name: "a model that does not reason is not asked for encrypted reasoning",
			req:    providers.Request{Model: "gpt-4.1-mini", WebSearch: &providers.WebSearch{}},
			want:   map[string]any{"tools": []any{map[string]any{"type": "web_search"}}},
			absent: []string{"include", "reasoning"}},
		{name: "a tool without parameters gets an empty object schema",
			req: providers.Request{Model: "gpt-5", Tools: []providers.ToolSpec{{Name: "now"}}},
			want: map[string]any{"tools": []any{map[string]any{"type": "function", "name": "now", "strict": false,
				"parameters": map[string]any{"type": "object", "properties": map[string]any{}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Messages = []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}
			bodies, _ := sendResponses(t, &tt.req)
			replay.CheckFields(t, "", bodies[0], tt.want, tt.absent)
		})
	}
}

// TestResponsesInput: the conversation as input items. System text stays
// in place (as "developer" for reasoning models); an assistant turn
// becomes its reasoning items, its text and its calls; tool results answer
// their call by id, media included; reasoning goes back only with its
// encrypted content, only to this provider, and only ahead of something.
func TestResponsesInput(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n....")
	own := func(id, enc, text string) providers.Reasoning {
		return providers.Reasoning{Text: text, Signature: encodeReasoning(id, enc), Provider: "openai"}
	}
	msgs := []providers.Message{
		providers.TextMessage(providers.RoleSystem, "Be brief."),
		{Role: providers.RoleUser, Content: []providers.Part{providers.TextPart("Look:"), {Type: providers.PartImage, MediaType: "image/png", Data: png},
			{Type: providers.PartDocument, MediaType: "application/pdf", Data: []byte("%PDF-1.4"), Name: "a.pdf"}}},
		{Role: providers.RoleAssistant, Reasoning: []providers.Reasoning{
			own("rs_1", "ENC1", "**Plan**\n\nRead it."),
			own("rs_2", "", "not replayable: no encrypted content"),
			{Text: "thinking", Signature: "sig", Provider: "anthropic"},
		}, ToolCalls: []providers.ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a"}`}, {ID: "call_2", Name: "now"}}},
		{Role: providers.RoleTool, ToolCallID: "call_1", Content: []providers.Part{providers.TextPart("contents")}},
		{Role: providers.RoleTool, ToolCallID: "call_2", Content: []providers.Part{providers.TextPart(""), {Type: providers.PartImage, MediaType: "image/png", Data: png}}},
		providers.TextMessage(providers.RoleSystem, "Recovery note."),
		// Cancelled before anything but reasoning: the item has nothing to
		// lead to and is left out.
		{Role: providers.RoleAssistant, Reasoning: []providers.Reasoning{own("rs_3", "ENC3", "")}},
		{Role: providers.RoleAssistant, Reasoning: []providers.Reasoning{own("rs_4", "ENC4", "")}, Content: []providers.Part{providers.TextPart("Done.")}},
		providers.TextMessage(providers.RoleUser, "Thanks"),
	}
	bodies, _ := sendResponses(t, &providers.Request{Model: "gpt-5", Messages: msgs})
	got, _ := json.Marshal(bodies[0]["input"])
	pngURL := "data:image/png;base64,iVBORw0KGgouLi4u"
	want := `[
		{"type":"message","role":"developer","content":"Be brief."},
		{"type":"message","role":"user","content":[{"type":"input_text","text":"Look:"},{"type":"input_image","image_url":"` + pngURL + `"},
			{"type":"input_file","filename":"a.pdf","file_data":"data:application/pdf;base64,JVBERi0xLjQ="}]},
		{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**Plan**\n\nRead it."}],"encrypted_content":"ENC1"},
		{"type":"function_call","call_id":"call_1","name":"read_file","arguments":"{\"path\":\"a\"}"},
		{"type":"function_call","call_id":"call_2","name":"now","arguments":"{}"},
		{"type":"function_call_output","call_id":"call_1","output":"contents"},
		{"type":"function_call_output","call_id":"call_2","output":[{"type":"input_image","image_url":"` + pngURL + `"}]},
		{"type":"message","role":"developer","content":"Recovery note."},
		{"type":"reasoning","id":"rs_4","summary":[],"encrypted_content":"ENC4"},
		{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]},
		{"type":"message","role":"user","content":"Thanks"}
	]`
	if replay.CompactJSON(string(got)) != replay.CompactJSON(want) {
		t.Errorf("input:\n got %s\nwant %s", replay.CompactJSON(string(got)), replay.CompactJSON(want))
	}

	// A model that does not reason (a switch to gpt-4o mid-conversation)
	// gets the system role by its own name, and no reasoning items.
	bodies, _ = sendResponses(t, &providers.Request{Model: "gpt-4o", Messages: msgs})
	if first := bodies[0]["input"].([]any)[0].(map[string]any); first["role"] != "system" {
		t.Errorf("gpt-4o system role: got %v, want system", first["role"])
	}
	if got, _ := json.Marshal(bodies[0]["input"]); strings.Contains(string(got), `"type":"reasoning"`) {
		t.Errorf("gpt-4o input holds reasoning items: %s", got)
	}
}

// TestResponsesInputErrors: content the API cannot take is an error before
// anything is sent.
func TestResponsesInputErrors(t *testing.T) {
	srv := replay.Sequence{replay.SSE(okEvents)}.Serve(t)
	req := &providers.Request{Model: "gpt-5", Messages: []providers.Message{{Role: providers.RoleUser,
		Content: []providers.Part{{Type: providers.PartDocument, MediaType: "application/zip", Data: []byte("PK"), Name: "a.zip"}}}}}
	_, _, err := replay.Run(t.Context(), NewResponses(Config{BaseURL: srv.URL}), req)
	if err == nil || !strings.Contains(err.Error(), "application/zip") || srv.Hits() != 0 {
		t.Errorf("got %v after %d requests, want an error naming the type before any request", err, srv.Hits())
	}
}

// TestResponsesDowngrade: a model that refuses the include of encrypted
// reasoning, or an organization refused reasoning summaries, is asked
// again without them; the second case says so in a warning. Another 400
// is returned as it is.
func TestResponsesDowngrade(t *testing.T) {
	t.Run("include", func(t *testing.T) {
		srv := replay.Sequence{replay.Status(400, `{"error":{"message":"Encrypted content is not supported with this model.","type":"invalid_request_error","param":"include","code":null}}`),
			replay.SSE(okEvents)}.Serve(t)
		reply, chunks, err := replay.Run(t.Context(), NewResponses(Config{BaseURL: srv.URL}), &providers.Request{Model: "my-proxy-model",
			Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}})
		if err != nil || reply.Message.Text() != "ok" {
			t.Fatalf("got %q, %v; want ok", reply.Message.Text(), err)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || reqs[0].JSON(t)["include"] == nil || reqs[1].JSON(t)["include"] != nil {
			t.Errorf("want the include sent once, then dropped: %d requests", len(reqs))
		}
		for _, c := range chunks {
			if c.Type == providers.ChunkWarning {
				t.Errorf("unexpected warning %+v", c.Warning)
			}
		}
	})
	t.Run("include with reasoning in the history", func(t *testing.T) {
		// The model refusing encrypted reasoning cannot take it back
		// either: the replayed items go with the include.
		srv := replay.Sequence{replay.Status(400, `{"error":{"message":"Encrypted content is not supported with this model.","type":"invalid_request_error","param":"include","code":null}}`),
			replay.SSE(okEvents)}.Serve(t)
		msgs := []providers.Message{providers.TextMessage(providers.RoleUser, "hi"),
			{Role: providers.RoleAssistant, Reasoning: []providers.Reasoning{{Signature: encodeReasoning("rs_1", "E"), Provider: "openai"}},
				Content: []providers.Part{providers.TextPart("hello")}},
			providers.TextMessage(providers.RoleUser, "again")}
		if _, _, err := replay.Run(t.Context(), NewResponses(Config{BaseURL: srv.URL}), &providers.Request{Model: "my-proxy-model", Messages: msgs}); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		if !strings.Contains(string(reqs[0].Body), `"type":"reasoning"`) || strings.Contains(string(reqs[1].Body), `"type":"reasoning"`) {
			t.Errorf("want the reasoning item in the first request only:\n%s\n%s", reqs[0].Body, reqs[1].Body)
		}
	})
	t.Run("summary", func(t *testing.T) {
		srv := replay.Sequence{replay.Status(400, `{"error":{"message":"Your organization must be verified to generate reasoning summaries.","type":"invalid_request_error","param":"reasoning.summary","code":"unsupported_value"}}`),
			replay.SSE(okEvents)}.Serve(t)
		_, chunks, err := replay.Run(t.Context(), NewResponses(Config{BaseURL: srv.URL}), &providers.Request{Model: "o3", ReasoningEffort: providers.EffortHigh,
			Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi")}})
		if err != nil {
			t.Fatal(err)
		}
		second := srv.Requests()[1].JSON(t)
		if !reflect.DeepEqual(second["reasoning"], map[string]any{"effort": "high"}) {
			t.Errorf("second request reasoning: got %v, want effort only", second["reasoning"])
		}
		if chunks[0].Type != providers.ChunkWarning || chunks[0].Warning.Code != "reasoning_summary_unavailable" ||
			!strings.Contains(chunks[0].Warning.Message, "verified") {
			t.Errorf("first chunk: got %+v, want a warning quoting the server", chunks[0])
		}
	})
	t.Run("another 400", func(t *testing.T) {
		srv := replay.Sequence{replay.Status(400, `{"error":{"message":"Invalid 'input[0].content'.","type":"invalid_request_error"}}`)}.Serve(t)
		_, _, err := replay.Run(t.Context(), NewResponses(Config{BaseURL: srv.URL}), responsesRequest0())
		if err == nil || srv.Hits() != 1 {
			t.Errorf("got %v after %d requests, want the error after one", err, srv.Hits())
		}
	})
}
