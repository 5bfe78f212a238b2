package anthropic

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// sse renders events as an event stream, each data line tagged with its
// type the way the API does.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		typ := e[strings.Index(e, `"type":"`)+8:]
		typ = typ[:strings.IndexByte(typ, '"')]
		b.WriteString("event: " + typ + "\ndata: " + e + "\n\n")
	}
	return b.String()
}

const (
	startEv = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":50,"output_tokens":1}}}`
	stopEv  = `{"type":"message_stop"}`
)

func deltaEv(stop string, output int) string {
	return `{"type":"message_delta","delta":{"stop_reason":"` + stop + `"},"usage":{"output_tokens":` + strconv.Itoa(output) + `}}`
}

// stream replays body to the adapter and returns the reply and chunks.
func stream(t *testing.T, body string, req *providers.Request) (providers.Reply, []providers.Chunk) {
	t.Helper()
	srv := replay.Sequence{replay.SSE(body)}.Serve(t)
	reply, chunks, err := replay.Run(t.Context(), providerFor(srv), req)
	if err != nil {
		t.Fatalf("Stream: got %v, want nil", err)
	}
	return reply, chunks
}

// TestUsageWithCache: input counts cached reads and writes, usage chunks
// are running totals, and the last one is what the reply holds.
func TestUsageWithCache(t *testing.T) {
	body := sse(startEv,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`,
		`{"type":"content_block_stop","index":0}`,
		deltaEv("end_turn", 20), stopEv)
	reply, chunks := stream(t, body, simpleRequest())
	var usages []providers.Usage
	for _, c := range chunks {
		if c.Type == providers.ChunkUsage {
			usages = append(usages, c.Usage)
		}
	}
	want := []providers.Usage{
		{InputTokens: 160, OutputTokens: 1, CacheReadTokens: 100, CacheWriteTokens: 50},
		{InputTokens: 160, OutputTokens: 20, CacheReadTokens: 100, CacheWriteTokens: 50},
	}
	// Totals that arrive in one read come as one chunk, so the first may
	// be folded into the second.
	if len(usages) == 1 && usages[0] == want[1] {
		usages = want
	}
	if !slices.Equal(usages, want) || reply.Usage != want[1] {
		t.Errorf("usage chunks: got %+v (reply %+v), want %+v", usages, reply.Usage, want)
	}
}

// TestStopReasons maps every stop_reason.
func TestStopReasons(t *testing.T) {
	for reason, want := range map[string]providers.StopReason{
		"end_turn": providers.StopNatural, "stop_sequence": providers.StopNatural, "tool_use": providers.StopToolCalls,
		"max_tokens": providers.StopLength, "model_context_window_exceeded": providers.StopLength,
		"refusal": providers.StopContentFilter, "pause_turn": providers.StopUnknown, "something_new": providers.StopUnknown,
	} {
		body := sse(startEv,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"x"}}`,
			`{"type":"content_block_stop","index":0}`, deltaEv(reason, 2), stopEv)
		_, chunks := stream(t, body, simpleRequest())
		if last := chunks[len(chunks)-1]; last.Type != providers.ChunkStop || last.Stop != want {
			t.Errorf("stop_reason %s: got %+v, want a stop chunk with %q", reason, last, want)
		}
	}
}

// TestServerToolBlocks: web search's server_tool_use and result blocks are
// the API's own work, never calls for the engine; the cited text is kept.
func TestServerToolBlocks(t *testing.T) {
	body := sse(startEv,
		`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"go 1.26\"}"}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"Go","url":"https://go.dev","encrypted_content":"xyz"}]}}`,
		`{"type":"content_block_stop","index":1}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":"","citations":[]}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","url":"https://go.dev","title":"Go","cited_text":"Go 1.26"}}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Go 1.26 is out."}}`,
		`{"type":"content_block_stop","index":2}`,
		deltaEv("end_turn", 30), stopEv)
	req := simpleRequest()
	req.WebSearch = &providers.WebSearch{}
	reply, _ := stream(t, body, req)
	if len(reply.Message.ToolCalls) != 0 || reply.Message.Text() != "Go 1.26 is out." || reply.Stop != providers.StopNatural {
		t.Errorf("reply: got calls %+v, text %q, stop %q; want no calls, the text, natural", reply.Message.ToolCalls, reply.Message.Text(), reply.Stop)
	}
}

// TestToolNameDecoding: a tool name the API would reject goes out encoded
// and comes back as the engine's name.
func TestToolNameDecoding(t *testing.T) {
	body := sse(startEv,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"mcp_fs_list_dir","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\":"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\".\"}"}}`,
		`{"type":"content_block_stop","index":0}`,
		deltaEv("tool_use", 12), stopEv)
	req := simpleRequest()
	req.Tools = []providers.ToolSpec{{Name: "mcp.fs/list dir"}}
	srv := replay.Sequence{replay.SSE(body)}.Serve(t)
	reply, _, err := replay.Run(t.Context(), providerFor(srv), req)
	if err != nil {
		t.Fatal(err)
	}
	if w := decodeWire(t, srv.Requests()[0].Body); w.Tools[0].Name != "mcp_fs_list_dir" {
		t.Errorf("wire name: got %q, want mcp_fs_list_dir", w.Tools[0].Name)
	}
	want := []providers.ToolCall{{ID: "toolu_1", Name: "mcp.fs/list dir", Arguments: `{"path":"."}`}}
	if !slices.Equal(reply.Message.ToolCalls, want) {
		t.Errorf("calls: got %+v, want %+v", reply.Message.ToolCalls, want)
	}
}

// TestWholeBlocksInStart: servers that send a block whole in
// content_block_start (a thinking signature, a tool input) lose nothing.
func TestWholeBlocksInStart(t *testing.T) {
	body := sse(startEv,
		`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"pondering","signature":"sig-start"}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"thinking","thinking":"more","signature":""}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"signature_delta","signature":"sig-delta"}}`,
		`{"type":"content_block_stop","index":1}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"a.go"}}}`,
		`{"type":"content_block_stop","index":2}`,
		deltaEv("tool_use", 40), stopEv)
	reply, chunks := stream(t, body, simpleRequest())
	wantR := []providers.Reasoning{{Text: "pondering", Signature: "sig-start", Provider: Name}, {Text: "more", Signature: "sig-delta", Provider: Name}}
	if !slices.Equal(reply.Message.Reasoning, wantR) {
		t.Errorf("reasoning: got %+v, want %+v", reply.Message.Reasoning, wantR)
	}
	if c := reply.Message.ToolCalls; len(c) != 1 || replay.CompactJSON(c[0].Arguments) != `{"path":"a.go"}` {
		t.Errorf("calls: got %+v, want read_file with the start's input", c)
	}
	replay.CheckFragments(t, chunks, true)
}
