package openai

import (
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestReplayStreams replays recorded streams of every provider this adapter
// serves and checks the assembled reply and what the adapter sent.
func TestReplayStreams(t *testing.T) {
	tests := []struct {
		file      string
		name      string
		text      string // prefix of the reply text
		textLen   int
		reasoning string // prefix of the reasoning text
		calls     []replay.Call
		stop      providers.StopReason
		usage     providers.Usage
	}{
		{file: "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.simple_streaming.json", name: "openai",
			text: "Olá!", textLen: 5, stop: providers.StopNatural, usage: providers.Usage{InputTokens: 20, OutputTokens: 2}},
		{file: "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.multi_tool_streaming__0.json", name: "openai",
			calls: []replay.Call{{ID: "call_cclGbjTQkZDEnnHrRiU0n7NO", Name: "add", Args: `{"a": 2, "b": 3}`}, {ID: "call_Nob2SzTcxIjro1HvSBPQS6XG", Name: "multiply", Args: `{"a": 2, "b": 3}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 106, OutputTokens: 50}},
		{file: "openai/fantasy__OpenAICommon.openai-gpt-5.tool_streaming__0.json", name: "openai",
			calls: []replay.Call{{ID: "call_eKRQDHJdZUhEXo1K1cobzFrl", Name: "weather", Args: `{"location":"Florence, Italy"}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 145, OutputTokens: 89, ReasoningTokens: 64}},
		{file: "openai/simonw-llm__test_tools.test_tool_use_basic__0.json", name: "openai",
			calls: []replay.Call{{ID: "call_1EYWDzueHEp8OsB8jJSEp7WB", Name: "multiply", Args: `{"a":1231,"b":2331}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 54, OutputTokens: 20}},
		// Azure /openai/v1 endpoint.
		{file: "azure/fantasy__AzureCommon.azure-gpt-5-mini.simple_streaming.json", name: "azure",
			text: "Oi!", textLen: 3, stop: providers.StopNatural, usage: providers.Usage{InputTokens: 19, OutputTokens: 76, ReasoningTokens: 64}},
		{file: "azure/fantasy__AzureCommon.azure-gpt-5-mini.tool_streaming__0.json", name: "azure",
			calls: []replay.Call{{ID: "call_tWA8BJziGlCyhQEXhEHn6eXK", Name: "weather", Args: `{"location":"Florence, Italy"}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 145, OutputTokens: 154, ReasoningTokens: 128}},
		// Azure AI Foundry /models endpoint.
		{file: "azure/ruby_llm__chat_function_calling_azure_grok-4-1-fast-non-reasoning_can_use_tools_without_parameters_in_multi-turn_streami__0.json", name: "azure",
			calls: []replay.Call{{ID: "call_39096608", Name: "best_language_to_learn", Args: `{}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 205, OutputTokens: 18, CacheReadTokens: 159}},
		{file: "azure/ruby_llm__chat_with_extended_thinking_azure_gpt-5-nano_streams_thinking_content_when_available.json", name: "azure",
			text: "- The question to ask: \"Will your answer", textLen: 842,
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 50, OutputTokens: 4350, ReasoningTokens: 4160}},
		// xAI counts reasoning outside completion_tokens: output = total - prompt.
		{file: "xai/fantasy__OpenAICompatibleCommon.xai-grok-4-fast.simple_streaming.json", name: "xai",
			text: "Olá!", textLen: 5, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 165, OutputTokens: 131, ReasoningTokens: 129, CacheReadTokens: 164}},
		{file: "xai/fantasy__OpenAICompatibleCommon.xai-grok-4-fast.multi_tool_streaming__0.json", name: "xai",
			calls: []replay.Call{{ID: "call_55070233", Name: "add", Args: `{"a":2,"b":3}`}, {ID: "call_12016531", Name: "multiply", Args: `{"a":2,"b":3}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 432, OutputTokens: 204, ReasoningTokens: 136, CacheReadTokens: 153}},
		{file: "xai/fantasy__OpenAICompatibleThinking.xai-grok-3-mini.thinking-streaming__0.json", name: "xai",
			reasoning: "First, the user is asking for the weather in Florence, Italy",
			calls:     []replay.Call{{ID: "call_45048949", Name: "weather", Args: `{"location":"Florence, Italy"}`}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 288, OutputTokens: 340, ReasoningTokens: 313, CacheReadTokens: 287}},
		{file: "xai/fantasy__OpenAICompatibleCommon.xai-grok-code-fast.tool_streaming__0.json", name: "xai",
			reasoning: "The user asked for the weather in Florence, Italy.",
			calls:     []replay.Call{{ID: "call_53816330", Name: "weather", Args: `{"location":"Florence,Italy"}`}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 390, OutputTokens: 103, ReasoningTokens: 77, CacheReadTokens: 384}},
		// Groq: usage only in x_groq / top level, reasoning in "reasoning".
		{file: "openai-compatible/fantasy__OpenAICompatibleCommon.groq-kimi-k2.simple_streaming.json", name: "openai-compatible",
			text: "Olá!", textLen: 5, stop: providers.StopNatural, usage: providers.Usage{InputTokens: 20, OutputTokens: 4}},
		{file: "openai-compatible/pydantic-ai__models.test_groq.test_tool_use_failed_error_streaming__1.json", name: "openai-compatible",
			reasoning: `We need to call the function with correct parameter "name".`,
			calls:     []replay.Call{{ID: "fc_bfb39741-3748-4def-9886-a93fc9c64a90", Name: "get_something_by_name", Args: `{"name":"example"}`}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 304, OutputTokens: 49, ReasoningTokens: 23}},
		// DeepSeek: reasoning_content, then content.
		{file: "openai-compatible/pydantic-ai__models.test_deepseek.test_deepseek_model_thinking_stream.json", name: "openai-compatible",
			text: "Hello there! 😊 How can I help you today?", textLen: 43, reasoning: `Hmm, the user just said "Hello".`,
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 6, OutputTokens: 212, ReasoningTokens: 198}},
		// Mistral: thinking parts inside content.
		{file: "openai-compatible/ruby_llm__chat_mistral_hybrid_reasoning_streams_thinking_separately_from_content.json", name: "openai-compatible",
			text: "144", textLen: 3, reasoning: "The user is asking for the product of 12 multiplied by 12.",
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 31, OutputTokens: 66}},
		// OpenRouter: ": OPENROUTER PROCESSING" comments, reasoning + reasoning_details.
		{file: "openai-compatible/fantasy__OpenRouterCommon.glm.tool_streaming__0.json", name: "openai-compatible",
			reasoning: "The user wants to know the weather in Florence, Italy.",
			calls:     []replay.Call{{ID: "call_9400b8b3405c4d74b5b97e12", Name: "weather", Args: `{"location":"Florence, Italy"}`}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 173, OutputTokens: 33, ReasoningTokens: 19, CacheReadTokens: 128}},
		{file: "openai-compatible/fantasy__OpenRouterCommon.openai.multi_tool_streaming__0.json", name: "openai-compatible",
			calls: []replay.Call{{ID: "call_8I6muAnyFaBjKyotk1gPRTwU", Name: "add", Args: `{"a":2,"b":3}`}, {ID: "call_pKAAv6bKX2qLYJ85RW4Hxqfp", Name: "multiply", Args: `{"a":2,"b":3}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 109, OutputTokens: 54}},
		{file: "openai-compatible/langchaingo__openai.TestOpenRouterStreaming__0.json", name: "openai-compatible",
			text: "test response", textLen: 13, stop: providers.StopNatural, usage: providers.Usage{InputTokens: 586, OutputTokens: 3}},
		{file: "openai-compatible/fantasy__OpenAICompatibleThinking.llama-cpp-gpt-oss.thinking-streaming__0.json", name: "openai-compatible",
			reasoning: "We need to call function 'weather'",
			calls:     []replay.Call{{ID: "1wNpqrejg1FCTjf6xq8JRCGKgWZO74AL", Name: "weather", Args: `{"location":"Florence, Italy"}`}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 139, OutputTokens: 42}},
		{file: "openai-compatible/fantasy__OpenAICompatibleCommon.zai-glm-4-7-flash.tool_streaming__0.json", name: "openai-compatible",
			text: "I'll get the current weather", textLen: 69, reasoning: "The user is asking for the weather in Florence, Italy.",
			calls: []replay.Call{{ID: "call_3532c842716b4c72a7dd7498", Name: "weather", Args: `{"location":"Florence,Italy"}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 173, OutputTokens: 93, ReasoningTokens: 65, CacheReadTokens: 172}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, tt.file)
			srv := replay.Serve(t, rec)
			p := providerFor(tt.name, srv, rec)
			req := neutralRequest(t, rec.Request.Body)

			reply, chunks, err := replay.Run(t.Context(), p, req)
			if err != nil {
				t.Fatalf("Stream: got error %v, want nil", err)
			}
			replay.CheckReply(t, reply, chunks, replay.Want{Text: tt.text, TextLen: tt.textLen, Reasoning: tt.reasoning,
				Calls: tt.calls, Stop: tt.stop, Usage: tt.usage})
			replay.CheckFragments(t, chunks, false)
			checkSent(t, tt.name, srv, rec)
		})
	}
}

// checkSent asserts on the request the adapter sent: the recorded path and
// api-version, the auth header shape, streaming with usage, and messages of
// the same shape as the recorded request.
func checkSent(t *testing.T, name string, srv *replay.Server, rec *replay.Recording) {
	t.Helper()
	sent := srv.OnlyRequest(t)
	wantPath := strings.TrimPrefix(rec.Request.URL, "https://"+rec.Host)
	wantPath = strings.TrimPrefix(wantPath, "http://"+rec.Host)
	wantPath, wantQuery, _ := strings.Cut(wantPath, "?")
	if sent.Path != wantPath {
		t.Errorf("path: got %q, want %q", sent.Path, wantPath)
	}
	if got := sent.Query.Encode(); got != wantQuery {
		t.Errorf("query: got %q, want %q", got, wantQuery)
	}
	switch name {
	case NameAzure:
		if got := sent.Header.Get("Api-Key"); got != testKey {
			t.Errorf("api-key header: got %q, want %q", got, testKey)
		}
		if got := sent.Header.Get("Authorization"); got != "" {
			t.Errorf("Authorization header: got %q, want none for azure", got)
		}
	default:
		if got := sent.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("Authorization header: got %q, want %q", got, "Bearer "+testKey)
		}
	}
	body := sent.JSON(t)
	if body["stream"] != true {
		t.Errorf("stream: got %v, want true", body["stream"])
	}
	if so, _ := body["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options: got %v, want include_usage true", body["stream_options"])
	}
	if got, want := shape(t, sent.Body), shape(t, []byte(rec.Request.Body)); !slices.Equal(got, want) {
		t.Errorf("messages sent:\n got %q\nwant %q", got, want)
	}
}

// TestReplayMultiTurn replays a tool call, builds the follow-up from the
// assembled reply and tool results paired by call, and checks the follow-up
// has the shape of the recorded second request.
func TestReplayMultiTurn(t *testing.T) {
	tests := []struct{ name, first, second string }{
		{"openai", "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.multi_tool_streaming__0.json",
			"openai/fantasy__OpenAICommon.openai-gpt-4o-mini.multi_tool_streaming__1.json"},
		{"xai", "xai/fantasy__OpenAICompatibleCommon.xai-grok-4-fast.multi_tool_streaming__0.json",
			"xai/fantasy__OpenAICompatibleCommon.xai-grok-4-fast.multi_tool_streaming__1.json"},
		{"azure", "azure/ruby_llm__chat_function_calling_azure_grok-4-1-fast-non-reasoning_can_use_tools_without_parameters_in_multi-turn_streami__0.json",
			"azure/ruby_llm__chat_function_calling_azure_grok-4-1-fast-non-reasoning_can_use_tools_without_parameters_in_multi-turn_streami__1.json"},
		{"openai-compatible", "openai-compatible/ruby_llm__chat_function_calling_deepseek_deepseek-chat_can_use_tools_with_multi-turn_streaming_conversations__0.json",
			"openai-compatible/ruby_llm__chat_function_calling_deepseek_deepseek-chat_can_use_tools_with_multi-turn_streaming_conversations__1.json"},
		{"openai-compatible", "openai-compatible/ruby_llm__chat_function_calling_mistral_mistral-small-latest_can_use_tools_with_multi-turn_streaming_conversations__0.json",
			"openai-compatible/ruby_llm__chat_function_calling_mistral_mistral-small-latest_can_use_tools_with_multi-turn_streaming_conversations__1.json"},
	}
	for _, tt := range tests {
		t.Run(tt.second, func(t *testing.T) {
			first, second := replay.Load(t, tt.first), replay.Load(t, tt.second)
			srv := replay.Serve(t, first, second)
			p := providerFor(tt.name, srv, first)
			req := neutralRequest(t, first.Request.Body)
			reply, _, err := replay.Run(t.Context(), p, req)
			if err != nil {
				t.Fatalf("first call: %v", err)
			}
			// Tool results, in the recorded order, paired with our calls.
			replay.FollowUp(t, req, reply, replay.ToolResults(neutralRequest(t, second.Request.Body)))
			if _, _, err := replay.Run(t.Context(), p, req); err != nil {
				t.Fatalf("follow-up call: %v", err)
			}
			sent := srv.Requests()[1]
			if got, want := shape(t, sent.Body), shape(t, []byte(second.Request.Body)); !slices.Equal(got, want) {
				t.Errorf("follow-up messages:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestReplayNonStreamed replays plain chat.completion bodies, as from a
// server that ignores stream:true: the same chunks come out.
func TestReplayNonStreamed(t *testing.T) {
	tests := []struct {
		file, name string
		text       string
		reasoning  bool
		calls      int
		stop       providers.StopReason
	}{
		{"openai/fantasy__OpenAICommon.openai-gpt-4o-mini.simple.json", "openai", "Olá", false, 0, providers.StopNatural},
		{"openai/fantasy__OpenAICommon.openai-gpt-4o-mini.multi_tool__0.json", "openai", "", false, 2, providers.StopToolCalls},
		{"xai/fantasy__OpenAICompatibleThinking.xai-grok-3-mini.thinking__0.json", "xai", "", true, 1, providers.StopToolCalls},
		{"azure/pydantic-ai__providers.test_azure.test_azure_provider_call.json", "azure", "The capital of France is **Paris**.", false, 0, providers.StopNatural},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, tt.file)
			srv := replay.Serve(t, rec)
			p := providerFor(tt.name, srv, rec)
			reply, _, err := replay.Run(t.Context(), p, neutralRequest(t, rec.Request.Body))
			if err != nil {
				t.Fatalf("Stream: got %v, want nil", err)
			}
			if !strings.HasPrefix(reply.Message.Text(), tt.text) || (tt.text == "") != (reply.Message.Text() == "") {
				t.Errorf("text: got %q, want prefix %q", reply.Message.Text(), tt.text)
			}
			if got := replay.ReasoningText(reply) != ""; got != tt.reasoning {
				t.Errorf("reasoning present: got %v, want %v", got, tt.reasoning)
			}
			if len(reply.Message.ToolCalls) != tt.calls || reply.Stop != tt.stop || reply.Usage.InputTokens == 0 {
				t.Errorf("got %d calls, stop %q, usage %+v; want %d calls, stop %q, usage set",
					len(reply.Message.ToolCalls), reply.Stop, reply.Usage, tt.calls, tt.stop)
			}
			for _, c := range reply.Message.ToolCalls {
				if c.ID == "" || c.Name == "" || !strings.HasPrefix(c.Arguments, "{") {
					t.Errorf("tool call: got %+v, want id, name and JSON arguments", c)
				}
			}
		})
	}
}

// TestReplayAllChatRecordings sweeps every successful Chat Completions
// recording of the four providers, streamed or not: each parses into a
// reply that ends with a stop chunk and holds text, reasoning or a call
// (legacy function_call included). One OpenRouter stream sends no
// finish_reason at all; its stop is "unknown", not a guess.
// The one recording of an in-stream error must fail instead.
func TestReplayAllChatRecordings(t *testing.T) {
	const inStreamError = "openai-compatible/pydantic-ai__models.test_groq.test_tool_use_failed_error_streaming__0.json"
	for _, dir := range []string{"openai", "azure", "xai", "openai-compatible"} {
		for _, file := range replay.Glob(t, dir+"/*.json") {
			rec := replay.Load(t, file)
			if rec.API != "openai:chat.completions" || rec.Response.Status != 200 {
				continue
			}
			t.Run(file, func(t *testing.T) {
				srv := replay.Serve(t, rec)
				reply, chunks, err := replay.Run(t.Context(), providerFor(dir, srv, rec), neutralRequest(t, rec.Request.Body))
				if file == inStreamError {
					if err == nil {
						t.Fatal("error: got nil, want the in-stream error")
					}
					return
				}
				if err != nil {
					t.Fatalf("Stream: got %v, want nil", err)
				}
				replay.CheckEndsWithStop(t, chunks)
				if reply.Empty() && replay.ReasoningText(reply) == "" {
					t.Errorf("reply: got nothing, want text, reasoning or a tool call")
				}
				replay.CheckFragments(t, chunks, false)
			})
		}
	}
}
