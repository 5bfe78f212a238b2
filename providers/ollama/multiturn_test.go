package ollama

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// v1Body is the part of a recorded Chat Completions request the multi-turn
// test reads: the conversation the recorded client built.
type v1Body struct {
	Messages []struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		Reasoning string `json:"reasoning"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function providers.ToolSpec `json:"function"`
	} `json:"tools"`
}

func decodeV1(t *testing.T, rec *replay.Recording) v1Body {
	t.Helper()
	var b v1Body
	if err := json.Unmarshal([]byte(rec.Request.Body), &b); err != nil {
		t.Fatalf("%s: request body: %v", rec.Path, err)
	}
	return b
}

// recordedShape renders a recorded conversation one line per message:
// role, content, tool pairing, calls with compacted arguments, reasoning
// sent back.
func recordedShape(b v1Body) []string {
	var lines []string
	for _, m := range b.Messages {
		line := fmt.Sprintf("%s | %q | tool_call_id=%s | thinking=%q", m.Role, m.Content, m.ToolCallID, m.Reasoning)
		for _, c := range m.ToolCalls {
			line += " | call " + c.ID + " " + c.Function.Name + " " + replay.CompactJSON(c.Function.Arguments)
		}
		lines = append(lines, line)
	}
	return lines
}

// sentShape renders a request the adapter sent the same way, and checks
// each tool result names the tool of the call it answers.
func sentShape(t *testing.T, body []byte) []string {
	t.Helper()
	var w chatRequest
	if err := json.Unmarshal(body, &w); err != nil {
		t.Fatalf("sent body: %v", err)
	}
	names := map[string]string{}
	var lines []string
	for _, m := range w.Messages {
		line := fmt.Sprintf("%s | %q | tool_call_id=%s | thinking=%q", m.Role, m.Content, m.ToolCallID, m.Thinking)
		for _, c := range m.ToolCalls {
			line += " | call " + c.ID + " " + c.Function.Name + " " + replay.CompactJSON(string(c.Function.Arguments))
			names[c.ID] = c.Function.Name
		}
		if m.Role == "tool" && (m.ToolName == "" || m.ToolName != names[m.ToolCallID]) {
			t.Errorf("tool result for %s: got tool_name %q, want %q", m.ToolCallID, m.ToolName, names[m.ToolCallID])
		}
		lines = append(lines, line)
	}
	return lines
}

// TestReplayMultiTurn plays whole recorded conversations: each reply is
// assembled, the recorded client's next messages (tool results paired by
// call id, or the next user turn) are appended, and every follow-up request
// the adapter sends must have the shape of the recorded one: roles,
// contents, calls with ids and arguments, results paired by id and naming
// their tool, and the thinking sent back.
func TestReplayMultiTurn(t *testing.T) {
	const dir = "ollama/ruby_llm__chat_function_calling_ollama_"
	tests := []struct {
		prefix string
		n      int
	}{
		{dir + "qwen3_can_use_tools_with_multi-turn_streaming_conversations__", 4},
		{dir + "cloud_gpt-oss_120b_can_use_tools_with_multi-turn_streaming_conversations__", 4},
		{dir + "qwen3_can_use_parallel_tool_calls__", 2},
		{dir + "qwen3_can_use_tools__", 2},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			var recs []*replay.Recording
			var seq replay.Sequence
			for i := range tt.n {
				file := fmt.Sprintf("%s%d.json", tt.prefix, i)
				recs = append(recs, replay.Load(t, file))
				seq = append(seq, transcode(t, file, true))
			}
			srv := seq.Serve(t)
			p := New(Config{BaseURL: srv.URL})
			first := decodeV1(t, recs[0])
			req := &providers.Request{Model: recs[0].Model}
			for _, tool := range first.Tools {
				req.Tools = append(req.Tools, tool.Function)
			}
			for _, m := range first.Messages {
				req.Messages = append(req.Messages, providers.TextMessage(providers.Role(m.Role), m.Content))
			}
			for i := range tt.n {
				reply, _, err := replay.Run(t.Context(), p, req)
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if i > 0 {
					got, want := sentShape(t, srv.Requests()[i].Body), recordedShape(decodeV1(t, recs[i]))
					if !slices.Equal(got, want) {
						t.Errorf("request %d:\n got %q\nwant %q", i, got, want)
					}
				}
				if i+1 == tt.n {
					break
				}
				req.Messages = append(req.Messages, reply.Message)
				next := decodeV1(t, recs[i+1]).Messages
				for _, m := range next[len(req.Messages):] {
					switch m.Role {
					case "tool":
						k := slices.IndexFunc(reply.Message.ToolCalls, func(c providers.ToolCall) bool { return c.ID == m.ToolCallID })
						if k < 0 {
							t.Fatalf("recorded result for %s: no such call in %+v", m.ToolCallID, reply.Message.ToolCalls)
						}
						req.Messages = append(req.Messages, providers.ToolResultMessage(reply.Message.ToolCalls[k], m.Content, false))
					default:
						req.Messages = append(req.Messages, providers.TextMessage(providers.Role(m.Role), m.Content))
					}
				}
			}
		})
	}
}
