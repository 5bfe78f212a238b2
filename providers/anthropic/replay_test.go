package anthropic

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestReplayStreams replays recorded Messages streams and checks the
// assembled reply and the request the adapter sent.
func TestReplayStreams(t *testing.T) {
	tests := []struct {
		file       string
		text       string // prefix of the reply text
		textLen    int
		reasoning  string // prefix of the reasoning text
		signatures int    // reasoning blocks with a signature
		redacted   int    // redacted_thinking blocks
		calls      []replay.Call
		stop       providers.StopReason
		usage      providers.Usage
	}{
		{file: "fantasy__AnthropicCommon.claude-sonnet-4.simple_streaming.json",
			text: "Olá! (That's \"hi\" in Portuguese)", textLen: 111, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 16, OutputTokens: 38}},
		{file: "langchaingo__anthropic.internal.anthropicclient.TestClient_CreateMessageStream.json",
			text: "1\n2\n3\n4\n5", textLen: 9, stop: providers.StopNatural, usage: providers.Usage{InputTokens: 15, OutputTokens: 13}},
		// Text, then two parallel calls.
		{file: "fantasy__AnthropicCommon.claude-sonnet-4.multi_tool_streaming__0.json",
			text: "I'll add and multiply the numbers 2 and 3 for you.", textLen: 50,
			calls: []replay.Call{{ID: "toolu_01UYxUYC2zRPY8wiutnF48eP", Name: "add", Args: `{"a": 2, "b": 3}`}, {ID: "toolu_01VaRx1jpWCvPhi7L4kywAcd", Name: "multiply", Args: `{"a": 2, "b": 3}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 502, OutputTokens: 137}},
		{file: "fantasy__AnthropicCommon.claude-sonnet-4.tool_streaming__0.json",
			text: "I'll get the weather information for Florence, Ita", textLen: 61,
			calls: []replay.Call{{ID: "toolu_01N2eM4V43kGCDkq2Lw7ChWQ", Name: "weather", Args: `{"location": "Florence,Italy"}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 394, OutputTokens: 67}},
		{file: "fantasy__AnthropicCommonWithCacheControl.claude-sonnet-4.tool_streaming__1.json",
			text: "The current weather in Florence, Italy is 40°C", textLen: 152, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 475, OutputTokens: 43}},
		{file: "fantasy__AnthropicObjectGeneration.claude-sonnet-4.simple_object_streaming.json",
			calls: []replay.Call{{ID: "toolu_01VjQqYBbz8DKsb5e7D3PPfY", Name: "Person", Args: `{"name": "Alice", "age": 30, "city": "Paris"}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 454, OutputTokens: 67}},
		// Two calls of a tool without parameters: no argument deltas, "{}".
		{file: "llm-anthropic__test_anthropic.test_tools__0.json",
			calls: []replay.Call{{ID: "toolu_01LtHJmixrs9NcWQkK8hu8hj", Name: "pelican_name_generator", Args: `{}`}, {ID: "toolu_01N8a4jWyf116qKTMqKKmjyt", Name: "pelican_name_generator", Args: `{}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 542, OutputTokens: 62}},
		// Thinking with a signature, then a call.
		{file: "fantasy__AnthropicThinking.claude-sonnet-4.thinking-streaming__0.json",
			reasoning: "The user is asking for weather information for Florence, Italy.", signatures: 1,
			calls: []replay.Call{{ID: "toolu_01Js4AMfx5qpTLhwTusnvT68", Name: "weather", Args: `{"location": "Florence, Italy"}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 424, OutputTokens: 119}},
		// thinking_tokens in output_tokens_details.
		{file: "llm-anthropic__test_anthropic.test_fixed_version_tool_chain_with_thinking_display_regression__0.json",
			reasoning: "The user wants me to:\n1. Use the fixed_version tool", signatures: 1,
			calls: []replay.Call{{ID: "toolu_01825dXWLSoJwCst1qTsiWdb", Name: "fixed_version", Args: `{}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 598, OutputTokens: 92, ReasoningTokens: 53}},
		{file: "pydantic-ai__models.test_anthropic.test_anthropic_model_thinking_part_stream.json",
			text: "Here are the basic steps for safely crossing the s", textLen: 1021,
			reasoning: "This is a straightforward question about pedestrian safety.", signatures: 1,
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 43, OutputTokens: 282}},
		{file: "ruby_llm__chat_with_extended_thinking_anthropic_claude-haiku-4-5_streams_thinking_content_when_available.json",
			text: "I'd ask: **\"What would you say if I asked you this", textLen: 1263,
			reasoning: "This is a clever paradox question.", signatures: 1,
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 80, OutputTokens: 638, ReasoningTokens: 353}},
		// Two redacted_thinking blocks, then text.
		{file: "pydantic-ai__models.test_anthropic.test_anthropic_model_thinking_part_redacted_stream.json",
			text: "I notice that you've sent what appears to be some ", textLen: 359, redacted: 2,
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 92, OutputTokens: 189}},
		{file: "ruby_llm__chat_function_calling_anthropic_claude-haiku-4-5_can_use_tools_with_multi-turn_streaming_conversations__2.json",
			calls: []replay.Call{{ID: "toolu_01WyBDTrFVoidP92YhrB1xZ2", Name: "weather", Args: `{"latitude": "48.8575", "longitude": "2.3514"}`}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 819, OutputTokens: 75}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, "anthropic/"+tt.file)
			srv := replay.Serve(t, rec)
			req := neutralRequest(t, rec.Request.Body)
			reply, chunks, err := replay.Run(t.Context(), providerFor(srv), req)
			if err != nil {
				t.Fatalf("Stream: got error %v, want nil", err)
			}
			replay.CheckReply(t, reply, chunks, replay.Want{Text: tt.text, TextLen: tt.textLen, Reasoning: tt.reasoning,
				Calls: tt.calls, Stop: tt.stop, Usage: tt.usage})
			var signed, redacted int
			for _, r := range reply.Message.Reasoning {
				if r.Signature != "" {
					signed++
				}
				if r.Redacted != "" {
					redacted++
				}
				if r.Provider != Name {
					t.Errorf("reasoning provider: got %q, want %q", r.Provider, Name)
				}
			}
			if signed != tt.signatures || redacted != tt.redacted {
				t.Errorf("reasoning blocks: got %d signed and %d redacted, want %d and %d", signed, redacted, tt.signatures, tt.redacted)
			}
			replay.CheckFragments(t, chunks, true)
			checkSent(t, srv, rec)
		})
	}
}

// checkSent asserts on the request the adapter sent: the Messages path,
// the key and version headers, streaming, and system and messages of the
// same shape as the recorded request.
func checkSent(t *testing.T, srv *replay.Server, rec *replay.Recording) {
	t.Helper()
	r := srv.OnlyRequest(t)
	if r.Path != "/v1/messages" || r.Method != "POST" {
		t.Errorf("request: got %s %s, want POST /v1/messages", r.Method, r.Path)
	}
	if got := r.Header.Get("X-Api-Key"); got != testKey {
		t.Errorf("x-api-key: got %q, want %q", got, testKey)
	}
	if got := r.Header.Get("Anthropic-Version"); got != "2023-06-01" {
		t.Errorf("anthropic-version: got %q, want 2023-06-01", got)
	}
	if body := r.JSON(t); body["stream"] != true {
		t.Errorf("stream: got %v, want true", body["stream"])
	}
	if got, want := shape(t, r.Body), shape(t, []byte(rec.Request.Body)); !slices.Equal(got, want) {
		t.Errorf("messages sent:\n got %q\nwant %q", got, want)
	}
}

// TestReplayMultiTurn replays a tool call, builds the follow-up from the
// assembled reply and the tool results, and checks the follow-up has the
// shape of the recorded second request: the assistant turn with its
// thinking and signature first, then text and tool_use blocks, and one user
// turn holding every tool_result paired by id.
func TestReplayMultiTurn(t *testing.T) {
	tests := []struct{ first, second string }{
		// Thinking with a signature sent back.
		{"fantasy__AnthropicThinking.claude-sonnet-4.thinking-streaming__0.json", "fantasy__AnthropicThinking.claude-sonnet-4.thinking-streaming__1.json"},
		{"llm-anthropic__test_anthropic.test_fixed_version_tool_chain_with_thinking_display_regression__0.json",
			"llm-anthropic__test_anthropic.test_fixed_version_tool_chain_with_thinking_display_regression__1.json"},
		// Two parallel calls answered in one user turn.
		{"fantasy__AnthropicCommon.claude-sonnet-4.multi_tool_streaming__0.json", "fantasy__AnthropicCommon.claude-sonnet-4.multi_tool_streaming__1.json"},
		{"llm-anthropic__test_anthropic.test_tools__0.json", "llm-anthropic__test_anthropic.test_tools__1.json"},
		{"fantasy__AnthropicCommonWithCacheControl.claude-sonnet-4.tool_streaming__0.json", "fantasy__AnthropicCommonWithCacheControl.claude-sonnet-4.tool_streaming__1.json"},
		// A later turn of a longer conversation.
		{"ruby_llm__chat_function_calling_anthropic_claude-haiku-4-5_can_use_tools_with_multi-turn_streaming_conversations__0.json",
			"ruby_llm__chat_function_calling_anthropic_claude-haiku-4-5_can_use_tools_with_multi-turn_streaming_conversations__1.json"},
		{"ruby_llm__chat_function_calling_anthropic_claude-haiku-4-5_can_use_tools_with_multi-turn_streaming_conversations__2.json",
			"ruby_llm__chat_function_calling_anthropic_claude-haiku-4-5_can_use_tools_with_multi-turn_streaming_conversations__3.json"},
	}
	for _, tt := range tests {
		t.Run(tt.second, func(t *testing.T) {
			first, second := replay.Load(t, "anthropic/"+tt.first), replay.Load(t, "anthropic/"+tt.second)
			srv := replay.Serve(t, first, second)
			p := providerFor(srv)
			req := neutralRequest(t, first.Request.Body)
			reply, _, err := replay.Run(t.Context(), p, req)
			if err != nil {
				t.Fatalf("first call: %v", err)
			}
			// Tool results in the recorded order, paired with our calls.
			results := replay.ToolResults(neutralRequest(t, second.Request.Body))
			replay.FollowUp(t, req, reply, results[len(results)-len(reply.Message.ToolCalls):])
			if _, _, err := replay.Run(t.Context(), p, req); err != nil {
				t.Fatalf("follow-up call: %v", err)
			}
			body := srv.Requests()[1].Body
			if got, want := shape(t, body), shape(t, []byte(second.Request.Body)); !slices.Equal(got, want) {
				t.Errorf("follow-up:\n got %q\nwant %q", got, want)
			}
			w := decodeWire(t, body)
			if rw := decodeWire(t, []byte(second.Request.Body)); (rw.Thinking != nil) != (w.Thinking != nil) {
				t.Errorf("thinking: got %+v, recorded %+v", w.Thinking, rw.Thinking)
			}
		})
	}
}

// TestReplayAllStreams sweeps every successful streamed recording of the
// Messages wire format (the two Vertex AI streamRawPredict ones included:
// same events, other URL): each parses into a reply that ends with a stop
// chunk and holds text, reasoning or a call.
func TestReplayAllStreams(t *testing.T) {
	n := 0
	for _, file := range replay.Glob(t, "anthropic/*.json") {
		rec := replay.Load(t, file)
		if !rec.Streaming || rec.Response.Status != 200 {
			continue
		}
		n++
		t.Run(file, func(t *testing.T) {
			srv := replay.Serve(t, rec)
			reply, chunks, err := replay.Run(t.Context(), providerFor(srv), neutralRequest(t, rec.Request.Body))
			if err != nil {
				t.Fatalf("Stream: got %v, want nil", err)
			}
			replay.CheckEndsWithStop(t, chunks)
			if reply.Empty() && len(reply.Message.Reasoning) == 0 {
				t.Errorf("reply: got nothing, want text, reasoning or a tool call")
			}
			if reply.Usage.InputTokens == 0 || reply.Usage.OutputTokens == 0 {
				t.Errorf("usage: got %+v, want input and output counts", reply.Usage)
			}
			replay.CheckFragments(t, chunks, true)
		})
	}
	if n < 29 {
		t.Errorf("streamed recordings: got %d, want the 29 the README lists", n)
	}
}

// TestReplayNonStreamed: a server that ignores stream:true and answers
// with one JSON message is an error naming the URL, never an empty reply.
func TestReplayNonStreamed(t *testing.T) {
	rec := replay.Load(t, "anthropic/fantasy__AnthropicCommon.claude-sonnet-4.simple.json")
	srv := replay.Serve(t, rec)
	_, chunks, err := replay.Run(t.Context(), providerFor(srv), simpleRequest())
	var pe *providers.Error
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "expected an event stream from "+srv.URL+"/v1/messages") {
		t.Errorf("error: got %v, want an empty-reply error naming the URL", err)
	}
	for _, c := range chunks {
		if c.Type == providers.ChunkStop || c.Type == providers.ChunkText {
			t.Errorf("chunks: got %+v, want no reply", c)
		}
	}
}
