package openai

import (
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestResponsesReplayStreams replays recorded Responses streams (OpenAI,
// and Azure's and xAI's /v1/responses, which speak the same protocol) and
// checks the assembled reply and what the adapter sent.
func TestResponsesReplayStreams(t *testing.T) {
	const (
		fantasy = "openai/fantasy__OpenAIResponses"
		ruby    = "openai/ruby_llm__chat_"
	)
	weather := `{"location":"Florence, Italy"}`
	tests := []struct {
		file, name string
		text       string // prefix of the reply text
		textLen    int
		reasoning  string // prefix of the reasoning text
		signatures int    // reasoning blocks carrying encrypted state
		calls      []replay.Call
		stop       providers.StopReason
		usage      providers.Usage
	}{
		{file: fantasy + "Common.openai-gpt-5.simple_streaming.json", name: "openai",
			text: "Oi!", textLen: 3, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 19, OutputTokens: 118, ReasoningTokens: 64}},
		{file: fantasy + "Common.openai-gpt-4o-mini.multi_tool_streaming__0.json", name: "openai",
			calls: []replay.Call{{ID: "call_ZckkKeJQwcJPC27VXT61xFLf", Name: "add", Args: `{"a":2,"b":3}`},
				{ID: "call_M9h2AZgoLEv6q5gkex1QMtm2", Name: "multiply", Args: `{"a":2,"b":3}`}},
			stop: providers.StopToolCalls, usage: providers.Usage{InputTokens: 104, OutputTokens: 51}},
		// A reasoning item without encrypted content (not asked for) is
		// kept, but there is nothing to replay.
		{file: fantasy + "Common.openai-gpt-5.multi_tool_streaming__0.json", name: "openai",
			calls: []replay.Call{{ID: "call_inViAUr9eV0GDtyOywkCxp59", Name: "add", Args: `{"a":2,"b":3}`},
				{ID: "call_Op66UUnzuOoKmgGeFJQJFTUY", Name: "multiply", Args: `{"a":2,"b":3}`}},
			stop: providers.StopToolCalls, usage: providers.Usage{InputTokens: 109, OutputTokens: 223, ReasoningTokens: 128}},
		{file: fantasy + "WithSummaryThinking.openai-gpt-5.thinking-streaming__0.json", name: "openai", signatures: 1,
			reasoning: "**Getting weather info**\n\nI need to respond to the user's qu",
			calls:     []replay.Call{{ID: "call_zgUaIBRPTwxxOusyyKw5NVMH", Name: "weather", Args: weather}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 63, OutputTokens: 121, ReasoningTokens: 64}},
		{file: fantasy + "WithSummaryThinking.openai-gpt-5.thinking-streaming__1.json", name: "openai", signatures: 1,
			text: "Right now in Florence, Italy, it’s about", textLen: 119, reasoning: "**Finalizing the response**\n\nI can mention",
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 92, OutputTokens: 456, ReasoningTokens: 384}},
		{file: fantasy + "WithSummaryThinking.openai-o4-mini.thinking-streaming__1.json", name: "openai", signatures: 1,
			text: "The current temperature in Florence, Ita", textLen: 312, reasoning: "**Summarizing Florence's weather**",
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 89, OutputTokens: 196, ReasoningTokens: 64}},
		// The built-in web search: its call item is not a tool call.
		{file: "openai/fantasy__OpenAIWebSearch.stream.json", name: "openai",
			text: "Here is the most recent and reliable off", textLen: 643, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 17407, OutputTokens: 164}},
		{file: ruby + "function_calling_openai_gpt-5-nano_can_use_tools_with_multi-turn_streaming_conversations__2.json", name: "openai", signatures: 1,
			calls: []replay.Call{{ID: "call_eX5cppckqGeLFEXcFS3pW2cE", Name: "weather", Args: `{"latitude":"48.8575","longitude":"2.3514"}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 197, OutputTokens: 224, ReasoningTokens: 192}},
		{file: ruby + "with_extended_thinking_openai_gpt-5_4_streams_thinking_content_when_available.json", name: "openai", signatures: 1,
			text: "Ask:\n\n**“Is the answer to this question ", textLen: 638, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 50, OutputTokens: 667, ReasoningTokens: 516}},
		{file: "openai/simonw-llm__test_openai_responses.test_responses_tool_use_streaming__1.json", name: "openai",
			text: "1231 × 2331 = **2,869,461**", textLen: 28, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 94, OutputTokens: 18}},
		// Azure /openai/v1/responses.
		{file: "azure/fantasy__AzureResponsesWithSummaryThinking.azure-gpt-5-mini.thinking-streaming__0.json", name: "azure", signatures: 1,
			reasoning: "**Getting weather for Florence**\n\nThe user wants to know the",
			calls:     []replay.Call{{ID: "call_ylSv4Nh5Sjuh7A6vOintVfwF", Name: "weather", Args: weather}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 63, OutputTokens: 139, ReasoningTokens: 64}},
		// xAI: cached input, reasoning summaries.
		{file: "xai/ruby_llm__chat_function_calling_xai_grok-4-1-fast-non-reasoning_can_use_tools_with_multi-turn_streaming_conversations__0.json", name: "xai", signatures: 1,
			reasoning: `The user asked: "What's the weather in Berlin? (52.5200, 13.`,
			calls:     []replay.Call{{ID: "call-5386e269-cd64-432e-aa64-5c80dd4e0286-0", Name: "weather", Args: `{"latitude":"52.5200","longitude":"13.4050"}`}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 340, OutputTokens: 105, ReasoningTokens: 83, CacheReadTokens: 320}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, tt.file)
			srv := replay.Serve(t, rec)
			p := responsesFor(tt.name, srv, rec)
			req := neutralResponsesRequest(t, tt.name, rec.Request.Body)
			reply, chunks, err := replay.Run(t.Context(), p, req)
			if err != nil {
				t.Fatalf("Stream: got error %v, want nil", err)
			}
			replay.CheckReply(t, reply, chunks, replay.Want{Text: tt.text, TextLen: tt.textLen, Reasoning: tt.reasoning,
				Calls: tt.calls, Stop: tt.stop, Usage: tt.usage})
			replay.CheckFragments(t, chunks, true)
			if got := encrypted(reply); got != tt.signatures {
				t.Errorf("reasoning blocks with encrypted state: got %d, want %d (%+v)", got, tt.signatures, reply.Message.Reasoning)
			}
			checkResponsesSent(t, srv, rec)
		})
	}
}

// encrypted counts the reasoning blocks of reply that carry a reasoning
// item's encrypted content.
func encrypted(reply providers.Reply) int {
	n := 0
	for _, r := range reply.Message.Reasoning {
		if st, ok := decodeReasoning(r.Signature); ok && st.Encrypted != "" && st.ID != "" {
			n++
		}
	}
	return n
}

// checkResponsesSent asserts on the request the adapter sent: the
// recorded path, bearer or api-key auth, a stateless stream asking for
// encrypted reasoning from reasoning models, and input items of the same
// shape as the recorded request's.
func checkResponsesSent(t *testing.T, srv *replay.Server, rec *replay.Recording) {
	t.Helper()
	sent := srv.OnlyRequest(t)
	wantPath := strings.TrimPrefix(strings.TrimPrefix(rec.Request.URL, "https://"+rec.Host), "http://"+rec.Host)
	if sent.Path != wantPath {
		t.Errorf("path: got %q, want %q", sent.Path, wantPath)
	}
	auth := sent.Header.Get("Authorization")
	if rec.Provider == "azure" {
		auth = sent.Header.Get("Api-Key")
	} else {
		auth = strings.TrimPrefix(auth, "Bearer ")
	}
	if auth != testKey {
		t.Errorf("auth header: got %q, want the key", auth)
	}
	body := sent.JSON(t)
	replay.CheckFields(t, "", body, map[string]any{"stream": true, "store": false, "model": rec.Model}, []string{"messages", "previous_response_id"})
	inc, _ := body["include"].([]any)
	if want := reasoningModel(rec.Model); want != slices.Contains(inc, any(includeReasoning)) {
		t.Errorf("include: got %v, want %q exactly when the model reasons (%v)", inc, includeReasoning, want)
	}
	if got, want := responsesShape(t, sent.Body), responsesShape(t, []byte(rec.Request.Body)); !slices.Equal(got, want) {
		t.Errorf("input sent:\n got %q\nwant %q", got, want)
	}
}

// TestResponsesReplayReasoningLoop replays recorded tool loops of
// reasoning models turn by turn, building each follow-up from the replies
// the adapter assembled: every request carries the earlier reasoning items
// with their encrypted content, where the recorded client sent them, in
// the same place, and the calls and results paired as recorded.
func TestResponsesReplayReasoningLoop(t *testing.T) {
	loops := []struct {
		name  string
		files []string
	}{
		{"openai", []string{ // non-streamed, one reasoning item per turn
			"openai/simonw-llm__test_openai_responses.test_responses_interleaved_reasoning_between_tool_calls__0.json",
			"openai/simonw-llm__test_openai_responses.test_responses_interleaved_reasoning_between_tool_calls__1.json",
			"openai/simonw-llm__test_openai_responses.test_responses_interleaved_reasoning_between_tool_calls__2.json",
			"openai/simonw-llm__test_openai_responses.test_responses_interleaved_reasoning_between_tool_calls__3.json",
		}},
		{"openai", []string{ // streamed, two user turns
			"openai/ruby_llm__chat_function_calling_openai_gpt-5-nano_can_use_tools_with_multi-turn_streaming_conversations__0.json",
			"openai/ruby_llm__chat_function_calling_openai_gpt-5-nano_can_use_tools_with_multi-turn_streaming_conversations__1.json",
			"openai/ruby_llm__chat_function_calling_openai_gpt-5-nano_can_use_tools_with_multi-turn_streaming_conversations__2.json",
			"openai/ruby_llm__chat_function_calling_openai_gpt-5-nano_can_use_tools_with_multi-turn_streaming_conversations__3.json",
		}},
		{"azure", []string{
			"azure/ruby_llm__chat_responses_protocol_dialects_with_azure_gpt-5-nano_round-trips_tool_calls__0.json",
			"azure/ruby_llm__chat_responses_protocol_dialects_with_azure_gpt-5-nano_round-trips_tool_calls__1.json",
		}},
		{"xai", []string{ // reasoning summaries replayed with the encrypted content
			"xai/ruby_llm__chat_function_calling_xai_grok-4-1-fast-non-reasoning_can_use_parallel_tool_calls__0.json",
			"xai/ruby_llm__chat_function_calling_xai_grok-4-1-fast-non-reasoning_can_use_parallel_tool_calls__1.json",
		}},
	}
	for _, loop := range loops {
		t.Run(loop.files[0], func(t *testing.T) {
			recs := make([]*replay.Recording, len(loop.files))
			for i, f := range loop.files {
				recs[i] = replay.Load(t, f)
			}
			srv := replay.Serve(t, recs...)
			p := responsesFor(loop.name, srv, recs[0])
			req := neutralResponsesRequest(t, loop.name, recs[0].Request.Body)
			for i, rec := range recs {
				if i > 0 {
					continueLike(t, req, rec)
				}
				reply, _, err := replay.Run(t.Context(), p, req)
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if encrypted(reply) == 0 {
					t.Errorf("call %d: the reply kept no encrypted reasoning: %+v", i, reply.Message.Reasoning)
				}
				sent := srv.Requests()[i]
				if got, want := responsesShape(t, sent.Body), responsesShape(t, []byte(rec.Request.Body)); !slices.Equal(got, want) {
					t.Errorf("call %d input:\n got %q\nwant %q", i, got, want)
				}
				req.Messages = append(req.Messages, reply.Message)
			}
		})
	}
}

// continueLike appends to req, which ends with the assistant message of
// the last reply, what the recorded client added after that reply: tool
// results and user messages from the recorded request's tail.
func continueLike(t *testing.T, req *providers.Request, rec *replay.Recording) {
	t.Helper()
	recorded := neutralResponsesRequest(t, "", rec.Request.Body).Messages
	// The recorded history up to our last reply has as many messages as
	// ours; what follows is new.
	if len(recorded) < len(req.Messages) {
		t.Fatalf("recorded request has %d messages, ours %d", len(recorded), len(req.Messages))
	}
	for _, m := range recorded[len(req.Messages):] {
		req.Messages = append(req.Messages, m)
	}
}

// TestResponsesReplayAll sweeps every successful Responses recording of
// OpenAI, Azure and xAI, streamed or not: each parses into a reply that
// ends with a stop chunk and holds text, reasoning or a call.
func TestResponsesReplayAll(t *testing.T) {
	for _, dir := range []string{"openai", "azure", "xai"} {
		for _, file := range replay.Glob(t, dir+"/*.json") {
			rec := replay.Load(t, file)
			if rec.API != "openai:responses" || rec.Response.Status != 200 {
				continue
			}
			t.Run(file, func(t *testing.T) {
				srv := replay.Serve(t, rec)
				reply, chunks, err := replay.Run(t.Context(), responsesFor(dir, srv, rec), neutralResponsesRequest(t, dir, rec.Request.Body))
				if err != nil {
					t.Fatalf("Stream: got %v, want nil", err)
				}
				replay.CheckEndsWithStop(t, chunks)
				if reply.Empty() {
					t.Errorf("reply: got nothing, want text or a tool call")
				}
				if reply.Usage.InputTokens == 0 || reply.Usage.OutputTokens == 0 {
					t.Errorf("usage: got %+v, want input and output", reply.Usage)
				}
				replay.CheckFragments(t, chunks, true)
			})
		}
	}
}

// TestResponsesReplayErrors: recorded error statuses become errors
// carrying the status and the server's message, not retried.
func TestResponsesReplayErrors(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"openai/ruby_llm__chat_error_handling_with_openai_gpt-5-nano_raises_appropriate_auth_error.json", "openai: 401 from 127.0.0.1"},
		{"openai/pydantic-ai__cassettes.test_model_name_suggestions.test_model_name_suggestion_openai-responses.json", "The requested model 'gpt-5.2-proo' does not exist."},
		{"openai/pydantic-ai__models.test_openai_responses.test_openai_responses_model_http_error.json", "Invalid 'temperature'"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, tt.file)
			_, srv, err := replay.Target{
				New: func(srv *replay.Server, to providers.Timeouts) providers.Provider {
					return NewResponses(Config{BaseURL: srv.URL + "/v1", APIKey: testKey, Timeouts: to})
				},
				Request: responsesRequest0,
			}.Retried(t, replay.Sequence{rec}, providers.Timeouts{})
			pe := replay.ProviderError(t, err)
			replay.ErrorContains(t, err, tt.want)
			if pe.StatusCode != rec.Response.Status || pe.Retryable || srv.Hits() != 1 {
				t.Errorf("got status %d, retryable %v after %d attempts; want %d, not retried", pe.StatusCode, pe.Retryable, srv.Hits(), rec.Response.Status)
			}
		})
	}
}
