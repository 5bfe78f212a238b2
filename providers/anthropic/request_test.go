package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// capture sends req to a server replaying the simple stream and returns
// the body the adapter sent and the chunks it emitted.
func capture(t *testing.T, req *providers.Request) ([]byte, []providers.Chunk) {
	t.Helper()
	srv := replay.Serve(t, replay.Load(t, simpleStream))
	_, chunks, err := replay.Run(t.Context(), providerFor(srv), req)
	if err != nil {
		t.Fatalf("Stream: got %v, want nil", err)
	}
	return srv.Requests()[0].Body, chunks
}

func warningCodes(chunks []providers.Chunk) []string {
	var codes []string
	for _, c := range chunks {
		if c.Type == providers.ChunkWarning {
			codes = append(codes, c.Warning.Code)
		}
	}
	return codes
}

var (
	pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	pdfBytes = []byte("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
)

// TestMultipart: images and PDFs become image and document blocks, in a
// user turn and inside a tool result.
func TestMultipart(t *testing.T) {
	call := providers.ToolCall{ID: "toolu_1", Name: "screenshot", Arguments: `{}`}
	req := &providers.Request{Model: "m", Messages: []providers.Message{
		{Role: providers.RoleUser, Content: []providers.Part{
			providers.TextPart("What is in these?"),
			{Type: providers.PartImage, Data: pngBytes}, // media type sniffed
			{Type: providers.PartDocument, MediaType: "application/pdf", Data: pdfBytes, Name: "report.pdf"},
			{Type: providers.PartDocument, MediaType: "text/plain; charset=utf-8", Data: []byte("notes"), Name: "notes.txt"},
		}},
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{call}},
		{Role: providers.RoleTool, ToolCallID: call.ID, Content: []providers.Part{
			providers.TextPart("here"), {Type: providers.PartImage, MediaType: "image/png", Data: pngBytes},
		}},
	}}
	body, _ := capture(t, req)
	w := decodeWire(t, body)
	user := blocks(w.Messages[0].Content)
	want := []string{"text", "image image/png base64", "document application/pdf base64", "document text/plain text"}
	var got []string
	for _, b := range user {
		s := b.Type
		if b.Source.Type != "" {
			s += " " + b.Source.MediaType + " " + b.Source.Type
		}
		got = append(got, s)
	}
	if !slices.Equal(got, want) {
		t.Errorf("user blocks: got %q, want %q", got, want)
	}
	if d, _ := base64.StdEncoding.DecodeString(user[1].Source.Data); string(d) != string(pngBytes) {
		t.Errorf("image data: got %q, want the PNG bytes", d)
	}
	if d, _ := base64.StdEncoding.DecodeString(user[2].Source.Data); string(d) != string(pdfBytes) {
		t.Errorf("pdf data: got %q, want the PDF bytes", d)
	}
	if user[3].Source.Data != "notes" {
		t.Errorf("text document: got %q, want %q", user[3].Source.Data, "notes")
	}
	result := blocks(w.Messages[2].Content)
	if len(result) != 1 || result[0].Type != "tool_result" {
		t.Fatalf("tool turn: got %+v, want one tool_result", result)
	}
	inner := blocks(result[0].Content)
	if len(inner) != 2 || inner[0].Text != "here" || inner[1].Type != "image" || inner[1].Source.MediaType != "image/png" {
		t.Errorf("tool_result content: got %+v, want text then a PNG image", inner)
	}
}

// TestMultipartRejected: parts the API cannot take fail before any request,
// with an error that is not retried.
func TestMultipartRejected(t *testing.T) {
	tests := []struct {
		name string
		part providers.Part
		want string
	}{
		{"bmp image", providers.Part{Type: providers.PartImage, MediaType: "image/bmp", Data: []byte("BM")}, "cannot send image/bmp image"},
		{"zip document", providers.Part{Type: providers.PartDocument, MediaType: "application/zip", Data: []byte("PK"), Name: "a.zip"}, "cannot send application/zip document a.zip"},
		{"unknown part", providers.Part{Type: "video"}, `unknown content part type "video"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Serve(t, replay.Load(t, simpleStream))
			req := &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Content: []providers.Part{tt.part}}}}
			_, _, err := replay.Run(t.Context(), providerFor(srv), req)
			var pe *providers.Error
			if !errors.As(err, &pe) || pe.Retryable || !strings.Contains(err.Error(), tt.want) || srv.Hits() != 0 {
				t.Errorf("got %v (hits %d), want a non-retryable error containing %q and no request", err, srv.Hits(), tt.want)
			}
		})
	}
}

// TestConversation: the leading system text lands in the one system
// field, a recovery note at the end in the last user turn; tool results
// pair with their calls in one user turn; roles alternate; reasoning goes
// back only to the provider that issued it.
func TestConversation(t *testing.T) {
	calls := []providers.ToolCall{{ID: "toolu_a", Name: "read_file", Arguments: `{"path":"a"}`}, {ID: "toolu_b", Name: "mcp.fs/list dir", Arguments: `not json`}}
	tests := []struct {
		name string
		msgs []providers.Message
		want []string
	}{
		{"the system field is the leading system text; a trailing note ends the last user turn", []providers.Message{
			providers.TextMessage(providers.RoleSystem, "host prompt"),
			providers.TextMessage(providers.RoleUser, "hi"),
			providers.TextMessage(providers.RoleSystem, "recovery note"),
		}, []string{"system | host prompt", "user | text hi ; text <system-reminder>\nrecovery note\n</system-reminder>"}},
		{"a note after the model's text is a user turn of its own", []providers.Message{
			providers.TextMessage(providers.RoleUser, "hi"),
			providers.TextMessage(providers.RoleAssistant, "I will look."),
			providers.TextMessage(providers.RoleSystem, "recovery note"),
		}, []string{"system | ", "user | text hi", "assistant | text I will look.", "user | text <system-reminder>\nrecovery note\n</system-reminder>"}},
		{"parallel results in one user turn, errors kept, user text after them", []providers.Message{
			providers.TextMessage(providers.RoleUser, "go"),
			{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("calling")}, ToolCalls: calls},
			providers.ToolResultMessage(calls[0], "contents", false),
			providers.ToolResultMessage(calls[1], "no such dir", true),
			providers.TextMessage(providers.RoleUser, "and then?"),
		}, []string{"system | ", "user | text go",
			`assistant | text calling ; tool_use toolu_a read_file {"path":"a"} ; tool_use toolu_b mcp_fs_list_dir {}`,
			"user | tool_result toolu_a contents ; tool_result toolu_b error no such dir ; text and then?"}},
		{"consecutive turns merged, leading and trailing assistant turns padded", []providers.Message{
			providers.TextMessage(providers.RoleAssistant, "hello"),
			providers.TextMessage(providers.RoleUser, "one"),
			providers.TextMessage(providers.RoleUser, "two"),
			providers.TextMessage(providers.RoleAssistant, "   "),
			providers.TextMessage(providers.RoleAssistant, "three"),
		}, []string{"system | ", "user | text Continue.", "assistant | text hello", "user | text one ; text two",
			"assistant | text three", "user | text Continue."}},
		{"reasoning replayed first, foreign and unsigned blocks dropped", []providers.Message{
			providers.TextMessage(providers.RoleUser, "go"),
			{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("ok")}, ToolCalls: calls[:1], Reasoning: []providers.Reasoning{
				{Text: "foreign", Signature: "sig-openai", Provider: "openai"},
				{Text: "mine", Signature: "sig-1", Provider: Name},
				{Redacted: "opaque", Provider: Name},
				{Text: "unsigned", Provider: Name},
			}},
			providers.ToolResultMessage(calls[0], "contents", false),
		}, []string{"system | ", "user | text go",
			`assistant | thinking sig=sig-1 mine ; redacted_thinking opaque ; text ok ; tool_use toolu_a read_file {"path":"a"}`,
			"user | tool_result toolu_a contents"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := &providers.Request{Model: "m", Messages: tt.msgs,
				Tools: []providers.ToolSpec{{Name: "read_file"}, {Name: "mcp.fs/list dir"}}}
			body, _ := capture(t, req)
			if got := shape(t, body); !slices.Equal(got, tt.want) {
				t.Errorf("sent:\n got %q\nwant %q", got, tt.want)
			}
			if strings.Contains(string(body), `"role":"system"`) {
				t.Errorf("body has a system role message: %s", body)
			}
		})
	}
}

// TestCacheBreakpoints: the system block, the last tool and the last block
// of the conversation carry cache_control; nothing else does.
func TestCacheBreakpoints(t *testing.T) {
	req := &providers.Request{Model: "m", Messages: []providers.Message{
		providers.TextMessage(providers.RoleSystem, "sys"),
		providers.TextMessage(providers.RoleUser, "first"),
		providers.TextMessage(providers.RoleAssistant, "reply"),
		providers.TextMessage(providers.RoleUser, "second"),
	}, Tools: []providers.ToolSpec{{Name: "a"}, {Name: "b"}}}
	body, _ := capture(t, req)
	if n := strings.Count(string(body), `"cache_control":{"type":"ephemeral"}`); n != 3 {
		t.Errorf("cache_control markers: got %d, want 3 in %s", n, body)
	}
	w := decodeWire(t, body)
	sys := blocks(w.System)
	last := blocks(w.Messages[len(w.Messages)-1].Content)
	if len(sys) != 1 || sys[0].CacheControl == nil || w.Tools[1].CacheControl == nil || w.Tools[0].CacheControl != nil || last[0].CacheControl == nil {
		t.Errorf("breakpoints: got system %+v, tools %+v, last block %+v; want system, last tool, last block", sys, w.Tools, last)
	}

	// A recovery note ends the call; the next call drops it, so the
	// breakpoint sits on the block before it.
	for _, prev := range []providers.Message{providers.TextMessage(providers.RoleUser, "second"), providers.TextMessage(providers.RoleAssistant, "narration")} {
		req.Messages = append(req.Messages[:3:3], prev, providers.TextMessage(providers.RoleSystem, "recovery note"))
		w = decodeWire(t, mustCapture(t, req))
		var marked []string
		for _, m := range w.Messages {
			for _, b := range blocks(m.Content) {
				if b.CacheControl != nil {
					marked = append(marked, m.Role+" "+b.Text)
				}
			}
		}
		if want := string(prev.Role) + " " + prev.Text(); len(marked) != 1 || marked[0] != want {
			t.Errorf("with a note after %s: breakpoints on %q, want one on %q", prev.Role, marked, want)
		}
	}
}

// TestToolSchemas: schemas go out verbatim; a tool without one gets an
// empty object schema.
func TestToolSchemas(t *testing.T) {
	schema := `{"type":"object","properties":{"q":{"type":"string","enum":["a","b"]}},"required":["q"],"additionalProperties":false}`
	req := simpleRequest()
	req.Tools = []providers.ToolSpec{{Name: "search", Description: "Search.", Parameters: json.RawMessage(schema)}, {Name: "now"}}
	w := decodeWire(t, mustCapture(t, req))
	if got := replay.CompactJSON(string(w.Tools[0].InputSchema)); got != replay.CompactJSON(schema) || w.Tools[0].Description != "Search." {
		t.Errorf("tool 0: got %s %q, want %s %q", got, w.Tools[0].Description, replay.CompactJSON(schema), "Search.")
	}
	if got := replay.CompactJSON(string(w.Tools[1].InputSchema)); got != `{"properties":{},"type":"object"}` {
		t.Errorf("tool 1 schema: got %s, want an empty object schema", got)
	}
}

func mustCapture(t *testing.T, req *providers.Request) []byte {
	t.Helper()
	body, _ := capture(t, req)
	return body
}
