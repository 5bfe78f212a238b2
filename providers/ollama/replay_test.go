package ollama

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// nativeRequest reads a recorded /api/chat body back into the neutral
// request that would produce it.
func nativeRequest(t *testing.T, rec *replay.Recording) *providers.Request {
	t.Helper()
	var w struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		Options struct {
			Temperature *float64 `json:"temperature"`
			NumPredict  int      `json:"num_predict"`
		} `json:"options"`
	}
	if err := json.Unmarshal([]byte(rec.Request.Body), &w); err != nil {
		t.Fatalf("recorded request body: %v", err)
	}
	req := &providers.Request{Model: w.Model, Temperature: w.Options.Temperature, MaxTokens: w.Options.NumPredict}
	for _, m := range w.Messages {
		req.Messages = append(req.Messages, providers.TextMessage(providers.Role(m.Role), m.Content))
	}
	return req
}

// TestReplayNative replays the recorded native /api/chat streams: text
// arrives chunk by chunk, done_reason and token counts map, and the
// request sent has the recorded messages and options.
func TestReplayNative(t *testing.T) {
	tests := []struct {
		file       string
		text       string // prefix
		textLen    int
		textChunks int
		stop       providers.StopReason
		usage      providers.Usage
	}{
		{"ollama/langchaingo__ollama.internal.ollamaclient.TestClient_GenerateChatStream.json",
			"Okay, here we go!\n\n1, 2, 3, 4, 5\n", 33, 21, providers.StopNatural, providers.Usage{InputTokens: 16, OutputTokens: 22}},
		{"ollama/langchaingo__ollama.internal.ollamaclient.TestClient_GenerateChat.json",
			"Hello there! I’m doing well, thanks for asking.", 0, 50, providers.StopLength, providers.Usage{InputTokens: 15, OutputTokens: 50}},
		{"ollama/langchaingo__ollama.internal.ollamaclient.TestClient_GenerateChatWithThink.json",
			"2 + 2 = 4\n\n**Reasoning:**", 0, 0, providers.StopNatural, providers.Usage{InputTokens: 20, OutputTokens: 55}},
		// JSON text without tools offered: nothing is held back.
		{"ollama/langchaingo__ollama.TestWithFormat.json",
			`{"answer": "600"}`, 17, 8, providers.StopNatural, providers.Usage{InputTokens: 25, OutputTokens: 9}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rec := replay.Load(t, tt.file)
			srv := replay.Serve(t, rec)
			p := New(Config{BaseURL: srv.URL})
			reply, chunks, err := replay.Run(t.Context(), p, nativeRequest(t, rec))
			if err != nil {
				t.Fatalf("Stream: got error %v, want nil", err)
			}
			text := reply.Message.Text()
			if !strings.HasPrefix(text, tt.text) || (tt.textLen > 0 && len(text) != tt.textLen) {
				t.Errorf("text: got %q (%d bytes), want prefix %q and %d bytes", text, len(text), tt.text, tt.textLen)
			}
			// Lines that arrive in one read are joined: at most one chunk
			// per line, however the server's writes were cut.
			if n := countType(chunks, providers.ChunkText); tt.textChunks > 0 && (n < 1 || n > tt.textChunks) {
				t.Errorf("text chunks: got %d, want 1 to %d (at most one per line)", n, tt.textChunks)
			}
			if reply.Stop != tt.stop || reply.Usage != tt.usage {
				t.Errorf("stop/usage: got %q %+v, want %q %+v", reply.Stop, reply.Usage, tt.stop, tt.usage)
			}
			replay.CheckEndsWithStop(t, chunks)
			checkSentNative(t, srv, rec)
		})
	}
}

// checkSentNative compares the request sent with the recorded one: path,
// messages, options, and stream:true.
func checkSentNative(t *testing.T, srv *replay.Server, rec *replay.Recording) {
	t.Helper()
	sent := srv.Requests()[0]
	if sent.Path != "/api/chat" || sent.Method != "POST" {
		t.Errorf("request: got %s %s, want POST /api/chat", sent.Method, sent.Path)
	}
	got, want := sent.JSON(t), rec.RequestJSON(t)
	if got["stream"] != true {
		t.Errorf("stream: got %v, want true", got["stream"])
	}
	if !reflect.DeepEqual(got["messages"], want["messages"]) {
		t.Errorf("messages:\n got %v\nwant %v", got["messages"], want["messages"])
	}
	wantOpts, _ := want["options"].(map[string]any)
	delete(wantOpts, "think") // the recorded client misplaced think in options
	if !reflect.DeepEqual(got["options"], want["options"]) {
		t.Errorf("options: got %v, want %v", got["options"], want["options"])
	}
}

// TestReplayTranscoded replays the recorded tool calls (single and
// parallel), thinking and cloud-model streams in native framing (see
// transcode) and checks the assembled reply.
func TestReplayTranscoded(t *testing.T) {
	const dir = "ollama/ruby_llm__chat_function_calling_ollama_"
	berlin := `{"latitude":"52.5200","longitude":"13.4050"}`
	paris := `{"latitude":"48.8575","longitude":"2.3514"}`
	tests := []struct {
		file      string
		text      string // prefix
		textLen   int
		reasoning string // prefix
		calls     []replay.Call
		stop      providers.StopReason
		usage     providers.Usage
	}{
		{file: dir + "qwen3_can_use_tools_with_multi-turn_streaming_conversations__0.json",
			reasoning: "Okay, the user is asking for the weather in Berlin", calls: []replay.Call{{ID: "call_blqyt530", Name: "weather", Args: berlin}},
			stop: providers.StopToolCalls, usage: providers.Usage{InputTokens: 195, OutputTokens: 140}},
		{file: dir + "qwen3_can_use_tools_with_multi-turn_streaming_conversations__1.json",
			text: "The current weather in Berlin (52.5200, 13.4050) i", textLen: 96, reasoning: "Okay, the user asked for the weather in Berlin",
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 377, OutputTokens: 169}},
		{file: dir + "qwen3_can_use_tools_with_multi-turn_streaming_conversations__2.json",
			reasoning: "Okay, the user is asking for the weather in Paris", calls: []replay.Call{{ID: "call_velv45o4", Name: "weather", Args: paris}},
			stop: providers.StopToolCalls, usage: providers.Usage{InputTokens: 352, OutputTokens: 150}},
		{file: dir + "qwen3_can_use_parallel_tool_calls__0.json",
			reasoning: "Okay, let me tackle this user query.",
			calls:     []replay.Call{{ID: "call_blwig54z", Name: "weather", Args: berlin}, {ID: "call_k7oscaqs", Name: "best_language_to_learn", Args: `{}`}},
			stop:      providers.StopToolCalls, usage: providers.Usage{InputTokens: 235, OutputTokens: 320}},
		{file: dir + "qwen3_can_use_parallel_tool_calls__1.json",
			text: "The current weather in Berlin (52.5200, 13.4050) i", textLen: 264, reasoning: "Okay, let me process the information.",
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 603, OutputTokens: 269}},
		{file: dir + "cloud_gpt-oss_120b_can_use_tools_with_multi-turn_streaming_conversations__0.json",
			reasoning: "We need to call weather function with latitude and longitude", calls: []replay.Call{{ID: "call_x7rn5sl5", Name: "weather", Args: berlin}},
			stop: providers.StopToolCalls, usage: providers.Usage{InputTokens: 169, OutputTokens: 55}},
		{file: dir + "cloud_gpt-oss_120b_can_use_tools_with_multi-turn_streaming_conversations__3.json",
			text: "The current weather in Paris (at\u202f48.8575\u202fN", textLen: 113,
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 380, OutputTokens: 45}},
		{file: "ollama/ruby_llm__chat_with_extended_thinking_ollama_qwen3_streams_thinking_content_when_available.json",
			text: "To unlock the magic mirror’s ability", textLen: 1719, reasoning: "Okay, so the user is asking about a magic mirror",
			stop: providers.StopNatural, usage: providers.Usage{InputTokens: 54, OutputTokens: 1174}},
		{file: "ollama/pydantic-ai__models.test_ollama.test_ollama_cloud_tool_output__1.json",
			reasoning: "The conversation: user asked", calls: []replay.Call{{ID: "call_o2vnpxrw", Name: "final_result", Args: `{"city":"Paris","country":"France"}`}},
			stop: providers.StopToolCalls, usage: providers.Usage{InputTokens: 206, OutputTokens: 194}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := replay.Serve(t, transcode(t, tt.file, true))
			req := userRequest("go", "weather", "best_language_to_learn", "final_result")
			reply, chunks, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), req)
			if err != nil {
				t.Fatalf("Stream: got error %v, want nil", err)
			}
			replay.CheckReply(t, reply, chunks, replay.Want{Text: tt.text, TextLen: tt.textLen, Reasoning: tt.reasoning,
				Calls: tt.calls, Stop: tt.stop, Usage: tt.usage})
			checkCallChunks(t, chunks)
		})
	}
}

// checkCallChunks asserts Ollama's whole calls come out as one fragment
// each, with a name, complete arguments and an index of their own.
func checkCallChunks(t *testing.T, chunks []providers.Chunk) {
	t.Helper()
	seen := map[int]bool{}
	for _, c := range chunks {
		if c.Type != providers.ChunkToolCall {
			continue
		}
		d := c.ToolCall
		if seen[d.Index] || d.Name == "" || !json.Valid([]byte(d.Arguments)) {
			t.Errorf("tool call fragment: got %+v, want a whole call with a new index", d)
		}
		seen[d.Index] = true
	}
}

// TestReplayWithoutIDs: older Ollama releases send calls without ids. The
// chunks carry none, the accumulator assigns unique ones, and parallel
// calls stay apart.
func TestReplayWithoutIDs(t *testing.T) {
	srv := replay.Serve(t, transcode(t, "ollama/ruby_llm__chat_function_calling_ollama_qwen3_can_use_parallel_tool_calls__0.json", false))
	reply, chunks, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), userRequest("go", "weather", "best_language_to_learn"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	for _, c := range chunks {
		if c.Type == providers.ChunkToolCall && c.ToolCall.ID != "" {
			t.Errorf("chunk id: got %q, want none (the engine assigns ids)", c.ToolCall.ID)
		}
	}
	calls := reply.Message.ToolCalls
	if len(calls) != 2 || calls[0].ID == "" || calls[0].ID == calls[1].ID ||
		calls[0].Name != "weather" || calls[1].Name != "best_language_to_learn" {
		t.Errorf("calls: got %+v, want weather and best_language_to_learn with distinct ids", calls)
	}
}

// TestReplayAllRecordings sweeps every successful chat recording of the
// folder: the native ones as recorded, the /v1 ones transcoded. Each must
// end with a stop chunk and hold text, reasoning or a call.
func TestReplayAllRecordings(t *testing.T) {
	for _, file := range replay.Glob(t, "ollama/*.json") {
		rec := replay.Load(t, file)
		if rec.Response.Status != 200 || rec.API == "ollama:api/generate" {
			continue
		}
		t.Run(file, func(t *testing.T) {
			handler := rec
			if rec.API == "openai:chat.completions" {
				handler = transcode(t, file, true)
			}
			srv := replay.Serve(t, handler)
			reply, chunks, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), userRequest("go", "weather"))
			if err != nil {
				t.Fatalf("Stream: got %v, want nil", err)
			}
			replay.CheckEndsWithStop(t, chunks)
			if reply.Empty() && replay.ReasoningText(reply) == "" {
				t.Errorf("reply: got nothing, want text, reasoning or a tool call")
			}
		})
	}
}

// TestNonStreamedBody: a server that ignores stream:true answers with one
// (here pretty-printed) JSON object; it parses like a one-line stream.
func TestNonStreamedBody(t *testing.T) {
	body := `{
  "model": "qwen3",
  "message": {
    "role": "assistant",
    "content": "",
    "thinking": "Need the file.",
    "tool_calls": [{"function": {"name": "read_file", "arguments": {"path": "a.txt"}}}]
  },
  "done": true,
  "done_reason": "stop",
  "prompt_eval_count": 12,
  "eval_count": 7
}`
	srv := replay.Sequence{replay.Status(200, body)}.Serve(t)
	reply, _, err := replay.Run(t.Context(), New(Config{BaseURL: srv.URL}), userRequest("go", "read_file"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	c := reply.Message.ToolCalls
	if len(c) != 1 || c[0].Name != "read_file" || c[0].Arguments != `{"path":"a.txt"}` || replay.ReasoningText(reply) != "Need the file." ||
		reply.Stop != providers.StopToolCalls || reply.Usage != (providers.Usage{InputTokens: 12, OutputTokens: 7}) {
		t.Errorf("reply: got %+v, want one read_file call, the thinking, stop tool_calls and usage 12/7", reply)
	}
}
