package google

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// call is a tool call as asserted: id "" means Gemini sent none and the
// Accumulator made one up.
type call struct {
	id, name, args string
	sig            bool
}

// TestReplayStreams replays recorded streams and checks the assembled reply
// and what the adapter sent.
func TestReplayStreams(t *testing.T) {
	tests := []struct {
		file      string
		text      string // prefix of the reply text
		textLen   int    // in runes
		reasoning string // prefix of the reasoning text
		textSigs  int    // reasoning blocks holding a text-part signature
		calls     []call
		stop      providers.StopReason
		usage     providers.Usage
	}{
		{file: "gemini/fantasy__GoogleCommon.gemini-2.5-flash.simple_streaming.json",
			text: "Olá!", textLen: 4, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 11, OutputTokens: 23, ReasoningTokens: 21}},
		// Parallel calls without ids; the signature rides on the first.
		{file: "gemini/fantasy__GoogleCommon.gemini-2.5-pro.multi_tool_streaming__0.json",
			calls: []call{{"", "add", `{"a":2,"b":3}`, true}, {"", "multiply", `{"a":2,"b":3}`, false}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 121, OutputTokens: 229, ReasoningTokens: 193}},
		// Gemini 3 sends call ids; they are kept.
		{file: "gemini/fantasy__GoogleCommon.gemini-3-pro-preview.multi_tool_streaming__0.json",
			calls: []call{{"8hd01vsf", "add", `{"a":2,"b":3}`, true}, {"k0srpqrc", "multiply", `{"a":2,"b":3}`, false}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 157, OutputTokens: 470, ReasoningTokens: 438}},
		// Gemini 3 ends a text reply with an empty text part carrying the
		// signature: a reasoning block with no text.
		{file: "gemini/fantasy__GoogleCommon.gemini-3-pro-preview.simple_streaming.json",
			text: `"Hi" in Portuguese is **"Oi"**`, textLen: 125, textSigs: 1, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 11, OutputTokens: 245, ReasoningTokens: 206}},
		// Vertex AI: another URL shape, the same stream.
		{file: "gemini/fantasy__GoogleCommon.vertex-gemini-2-5-flash.tool_streaming__0.json",
			calls: []call{{"", "weather", `{"location":"Florence,Italy"}`, true}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 28, OutputTokens: 56, ReasoningTokens: 51}},
		{file: "gemini/fantasy__GoogleThinking.gemini-2.5-flash.thinking-streaming__0.json",
			reasoning: "**Determining the Weather Inquiry**\n\nI've pinpointed",
			calls:     []call{{"", "weather", `{"location":"Florence, Italy"}`, true}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 54, OutputTokens: 76, ReasoningTokens: 62}},
		{file: "gemini/ruby_llm__chat_with_extended_thinking_gemini_gemini-3-flash-preview_streams_thinking_content_when_available.json",
			text: "To see your future self in such a mirror", textLen: 2671, reasoning: "**Pondering Mirror Queries**", textSigs: 1,
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 44, OutputTokens: 1510, ReasoningTokens: 902}},
		{file: "gemini/ruby_llm__chat_gemini_token_accounting_correctly_sums_candidatestokencount_and_thoughtstokencount_in_streaming.json",
			text: "Let's think step-by-step:", textLen: 201, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 13, OutputTokens: 208, ReasoningTokens: 137}},
		{file: "gemini/pydantic-ai__models.test_google.test_google_streaming_tool_call_thought_signature__0.json",
			calls: []call{{"", "get_country", `{}`, true}},
			stop:  providers.StopToolCalls, usage: providers.Usage{InputTokens: 29, OutputTokens: 212, ReasoningTokens: 202}},
		// Streamed JSON arrays (no alt=sse), pretty-printed, CRLF between
		// elements.
		{file: "gemini/llm-gemini__test_gemini.test_prompt.json",
			text: "Scoop", textLen: 5, reasoning: "**Considering the Constraint**", textSigs: 1, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 11, OutputTokens: 293, ReasoningTokens: 291}},
		{file: "gemini/llm-gemini__test_gemini.test_tools__0.json",
			reasoning: "**Generating Pelican Names**",
			calls:     []call{{"", "pelican_name_generator", `{}`, true}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 32, OutputTokens: 54, ReasoningTokens: 42}},
		// ... and with integer enums ("finishReason": 1).
		{file: "gemini/langchaingo__googleai.TestGoogleAIWithStreaming.json",
			text: "Clementine, a calico with a perpetually", textLen: 2580, stop: providers.StopNatural,
			usage: providers.Usage{InputTokens: 8, OutputTokens: 578}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, tt.file)
			srv := replay.Serve(t, rec)
			reply, chunks, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), neutralRequest(t, rec))
			if err != nil {
				t.Fatalf("Stream: got error %v, want nil", err)
			}
			text := reply.Message.Text()
			if !strings.HasPrefix(text, tt.text) || utf8.RuneCountInString(text) != tt.textLen {
				t.Errorf("text: got %.60q (%d runes), want prefix %q and %d runes", text, utf8.RuneCountInString(text), tt.text, tt.textLen)
			}
			replay.CheckReasoning(t, reply, tt.reasoning)
			sigs := 0
			for _, r := range reply.Message.Reasoning {
				if r.Signature != "" && !strings.HasPrefix(r.Signature, thoughtSigPrefix) && r.Provider == Name {
					sigs++
				}
			}
			if sigs != tt.textSigs {
				t.Errorf("reasoning blocks with a text signature: got %d, want %d (%+v)", sigs, tt.textSigs, reply.Message.Reasoning)
			}
			var got []call
			for _, c := range reply.Message.ToolCalls {
				id := c.ID
				if strings.HasPrefix(id, "call_") {
					id = ""
				}
				got = append(got, call{id, c.Name, c.Arguments, c.Signature != ""})
			}
			if !slices.Equal(got, tt.calls) {
				t.Errorf("tool calls: got %v, want %v", got, tt.calls)
			}
			if reply.Stop != tt.stop || reply.Usage != tt.usage {
				t.Errorf("got stop %q usage %+v, want %q %+v", reply.Stop, reply.Usage, tt.stop, tt.usage)
			}
			replay.CheckEndsWithStop(t, chunks)
			checkSent(t, srv, rec)
		})
	}
}

// checkSent asserts on the request the adapter sent: the streaming path with
// alt=sse, the key in its header (never in the URL), and a conversation of
// the same shape as the recorded one.
func checkSent(t *testing.T, srv *replay.Server, rec *replay.Recording) {
	t.Helper()
	sent := srv.OnlyRequest(t)
	model := neutralRequest(t, rec).Model
	if want := "/v1beta/models/" + model + ":streamGenerateContent"; sent.Path != want {
		t.Errorf("path: got %q, want %q", sent.Path, want)
	}
	if got := sent.Query.Encode(); got != "alt=sse" {
		t.Errorf("query: got %q, want alt=sse", got)
	}
	if got := sent.Header.Get("X-Goog-Api-Key"); got != testKey {
		t.Errorf("x-goog-api-key: got %q, want %q", got, testKey)
	}
	if got, want := shape(t, sent.Body, keepIDs), shape(t, []byte(rec.Request.Body), keepIDs); !slices.Equal(got, want) {
		t.Errorf("conversation sent:\n got %q\nwant %q", got, want)
	}
}
