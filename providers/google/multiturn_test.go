package google

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestReplayMultiTurn replays a tool call, builds the follow-up from the
// assembled reply plus tool results (what the engine does), and checks that
// the follow-up has the shape of the recorded second request: roles,
// system placement, functionCall parts with their ids, args and thought
// signatures, functionResponse parts grouped in one user turn and paired
// with their calls.
func TestReplayMultiTurn(t *testing.T) {
	tests := []struct {
		first, second string
		ids           idMode
	}{
		{"fantasy__GoogleCommon.gemini-2.5-flash.tool_streaming__0.json", "fantasy__GoogleCommon.gemini-2.5-flash.tool_streaming__1.json", canonIDs},
		{"fantasy__GoogleCommon.gemini-2.5-flash.multi_tool_streaming__0.json", "fantasy__GoogleCommon.gemini-2.5-flash.multi_tool_streaming__1.json", canonIDs},
		{"fantasy__GoogleCommon.gemini-2.5-pro.multi_tool_streaming__0.json", "fantasy__GoogleCommon.gemini-2.5-pro.multi_tool_streaming__1.json", canonIDs},
		// Gemini 3 issues the ids; they must go back unchanged.
		{"fantasy__GoogleCommon.gemini-3-pro-preview.tool_streaming__0.json", "fantasy__GoogleCommon.gemini-3-pro-preview.tool_streaming__1.json", keepIDs},
		{"fantasy__GoogleCommon.gemini-3-pro-preview.multi_tool_streaming__0.json", "fantasy__GoogleCommon.gemini-3-pro-preview.multi_tool_streaming__1.json", keepIDs},
		// Thought summaries are not sent back; the call's signature is.
		{"fantasy__GoogleThinking.gemini-2.5-flash.thinking-streaming__0.json", "fantasy__GoogleThinking.gemini-2.5-flash.thinking-streaming__1.json", canonIDs},
		{"fantasy__GoogleThinking.gemini-2.5-pro.thinking-streaming__0.json", "fantasy__GoogleThinking.gemini-2.5-pro.thinking-streaming__1.json", canonIDs},
		{"fantasy__GoogleThinking.gemini-3-pro-preview.thinking-streaming__0.json", "fantasy__GoogleThinking.gemini-3-pro-preview.thinking-streaming__1.json", keepIDs},
		{"fantasy__GoogleCommon.vertex-gemini-2-5-flash.tool_streaming__0.json", "fantasy__GoogleCommon.vertex-gemini-2-5-flash.tool_streaming__1.json", dropIDs},
		{"pydantic-ai__models.test_google.test_google_streaming_tool_call_thought_signature__0.json", "pydantic-ai__models.test_google.test_google_streaming_tool_call_thought_signature__1.json", canonIDs},
		{"ruby_llm__chat_function_calling_gemini_gemini-2_5-flash_can_use_tools_with_multi-turn_streaming_conversations__0.json",
			"ruby_llm__chat_function_calling_gemini_gemini-2_5-flash_can_use_tools_with_multi-turn_streaming_conversations__1.json", dropIDs},
		// Streamed JSON arrays.
		{"llm-gemini__test_gemini.test_tools__0.json", "llm-gemini__test_gemini.test_tools__1.json", canonIDs},
	}
	for _, tt := range tests {
		t.Run(tt.second, func(t *testing.T) {
			first, second := replay.Load(t, "gemini/"+tt.first), replay.Load(t, "gemini/"+tt.second)
			srv := replay.Serve(t, first, second)
			p := newTestProvider(srv, providers.Timeouts{})
			req := neutralRequest(t, first)
			reply, _, err := replay.Run(t.Context(), p, req)
			if err != nil {
				t.Fatalf("first call: %v", err)
			}
			// Tool results, in the recorded order, paired with our calls.
			replay.FollowUp(t, req, reply, replay.ToolResults(neutralRequest(t, second)))
			if _, _, err := replay.Run(t.Context(), p, req); err != nil {
				t.Fatalf("follow-up call: %v", err)
			}
			sent := srv.Requests()[1]
			if got, want := shape(t, sent.Body, tt.ids), shape(t, []byte(second.Request.Body), tt.ids); !slices.Equal(got, want) {
				t.Errorf("follow-up:\n got %q\nwant %q", got, want)
			}
			if tt.ids == dropIDs {
				// The ids the engine made up still pair each result
				// with its call.
				if got := shape(t, sent.Body, canonIDs); !pairsIDs(got) {
					t.Errorf("follow-up ids: got %q, want each response id equal to its call's", got)
				}
			}
		})
	}
}

// pairsIDs reports whether a canonical shape answers each call with a
// response of the same number: "call #1 ..." with "response #1 ...".
func pairsIDs(lines []string) bool {
	all := strings.Join(lines, "\n")
	n := 0
	for i := 1; strings.Contains(all, fmt.Sprintf("call #%d ", i)); i++ {
		if !strings.Contains(all, fmt.Sprintf("response #%d ", i)) {
			return false
		}
		n = i
	}
	return n > 0
}
