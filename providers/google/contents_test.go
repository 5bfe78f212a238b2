package google

import (
	"encoding/base64"
	"reflect"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// TestModelTurnReplay: an assistant message goes back as a model content
// with the signatures it was given, on the kinds of part they came on;
// thought summaries and other providers' signatures stay behind.
func TestModelTurnReplay(t *testing.T) {
	tests := []struct {
		name  string
		model string
		msg   providers.Message
		want  []any
	}{
		{name: "text signature rides on the text part",
			model: "gemini-3-pro-preview",
			msg: providers.Message{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("answer")},
				Reasoning: []providers.Reasoning{
					{Text: "summary only", Provider: Name},
					{Signature: b64("text-sig"), Provider: Name},
					{Text: "foreign", Signature: "c2lnbmVk", Provider: "anthropic"},
				}},
			want: []any{map[string]any{"text": "answer", "thoughtSignature": b64("text-sig")}}},
		{name: "thought signature goes back on a thought part",
			model: "gemini-2.5-flash",
			msg: providers.Message{Role: providers.RoleAssistant, Content: []providers.Part{providers.TextPart("answer")},
				Reasoning: []providers.Reasoning{{Text: "thinking", Signature: thoughtSigPrefix + b64("thought-sig"), Provider: Name}}},
			want: []any{
				map[string]any{"thought": true, "text": "thinking", "thoughtSignature": b64("thought-sig")},
				map[string]any{"text": "answer"},
			}},
		{name: "call signatures and ids go back; args are an object",
			model: "gemini-2.5-flash",
			msg: providers.Message{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{
				{ID: "a1", Name: "add", Arguments: `{"a":2,"b":3}`, Signature: b64("call-sig")},
				{ID: "m1", Name: "multiply", Arguments: ""},
			}},
			want: []any{
				map[string]any{"functionCall": map[string]any{"id": "a1", "name": "add", "args": map[string]any{"a": 2.0, "b": 3.0}}, "thoughtSignature": b64("call-sig")},
				map[string]any{"functionCall": map[string]any{"id": "m1", "name": "multiply"}},
			}},
		{name: "Gemini 3 gets the documented placeholder when the first call has no signature",
			model: "gemini-3-pro-preview",
			msg: providers.Message{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{
				{ID: "x", Name: "add", Arguments: `{}`}, {ID: "y", Name: "add", Arguments: `not json`}}},
			want: []any{
				map[string]any{"functionCall": map[string]any{"id": "x", "name": "add"}, "thoughtSignature": b64(skipSignature)},
				map[string]any{"functionCall": map[string]any{"id": "y", "name": "add", "args": map[string]any{"raw_arguments": "not json"}}},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := &providers.Request{Model: tt.model, Messages: []providers.Message{providers.TextMessage(providers.RoleUser, "hi"), tt.msg}}
			body, _, _ := sendOne(t, req, "")
			if got := at(body, "contents", 1, "role"); got != "model" {
				t.Errorf("role: got %#v, want model", got)
			}
			if got := at(body, "contents", 1, "parts"); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parts:\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestToolResults: consecutive tool messages form one user content of
// functionResponse parts in call order; errors go under "error"; a result
// without a tool name takes its call's; media follow the responses, and
// user text after them joins the same turn, so turns alternate.
func TestToolResults(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n")
	calls := []providers.ToolCall{{ID: "c1", Name: "shot", Arguments: `{}`}, {ID: "c2", Name: "run", Arguments: `{}`}}
	shot := providers.ToolResultMessage(calls[0], "captured", false)
	shot.Content = append(shot.Content, providers.Part{Type: providers.PartImage, MediaType: "image/png", Data: png})
	failed := providers.ToolResultMessage(calls[1], "exit 1", true)
	failed.ToolName = ""
	req := &providers.Request{Model: "gemini-2.5-flash", Messages: []providers.Message{
		providers.TextMessage(providers.RoleUser, "go"),
		{Role: providers.RoleAssistant, ToolCalls: calls},
		shot, failed,
		providers.TextMessage(providers.RoleUser, "and then?"),
	}}
	body, _, _ := sendOne(t, req, "")
	want := []any{
		map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}},
		map[string]any{"role": "model", "parts": []any{
			map[string]any{"functionCall": map[string]any{"id": "c1", "name": "shot"}},
			map[string]any{"functionCall": map[string]any{"id": "c2", "name": "run"}},
		}},
		map[string]any{"role": "user", "parts": []any{
			map[string]any{"functionResponse": map[string]any{"id": "c1", "name": "shot", "response": map[string]any{"result": "captured"}}},
			map[string]any{"functionResponse": map[string]any{"id": "c2", "name": "run", "response": map[string]any{"error": "exit 1"}}},
			map[string]any{"inlineData": map[string]any{"mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(png)}},
			map[string]any{"text": "and then?"},
		}},
	}
	if got := body["contents"]; !reflect.DeepEqual(got, want) {
		t.Errorf("contents:\n got %#v\nwant %#v", got, want)
	}
}

// TestCallArgs: history arguments go back as an object in their stored
// key order; none, null and {} are left out; text that is not an object is
// kept under raw_arguments.
func TestCallArgs(t *testing.T) {
	tests := []struct{ in, want string }{
		{in: "", want: ""},
		{in: "null", want: ""},
		{in: " { \n} ", want: ""},
		{in: `{"b":1,"a":{"c":[1,2]}}`, want: `{"b":1,"a":{"c":[1,2]}}`},
		{in: ` {"n": 12345678901234567890} `, want: `{"n": 12345678901234567890}`},
		{in: `[1,2]`, want: `{"raw_arguments":"[1,2]"}`},
		{in: `{"a":`, want: `{"raw_arguments":"{\"a\":"}`},
		{in: `not json`, want: `{"raw_arguments":"not json"}`},
	}
	for _, tt := range tests {
		if got := string(callArgs(tt.in)); got != tt.want {
			t.Errorf("callArgs(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSignature: stored signatures go back in standard base64, whatever
// form another client stored them in; text that is not base64 is dropped.
func TestSignature(t *testing.T) {
	raw := "\xfb\xff\xbe sig" // encodes with + and / in the standard alphabet
	std := base64.StdEncoding.EncodeToString([]byte(raw))
	tests := []struct{ in, want string }{
		{in: "", want: ""},
		{in: std, want: std},
		{in: base64.URLEncoding.EncodeToString([]byte(raw)), want: std},
		{in: base64.RawStdEncoding.EncodeToString([]byte(raw)), want: std},
		{in: base64.RawURLEncoding.EncodeToString([]byte(raw)), want: std},
		{in: "not base64!", want: ""},
	}
	for _, tt := range tests {
		if got := signature(tt.in); got != tt.want {
			t.Errorf("signature(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}
