package fakellm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestLayoutsAreTheAPIsEvents: each text delta written by hand is valid
// JSON carrying the text it was given, escapes included, where the API
// carries it.
func TestLayoutsAreTheAPIsEvents(t *testing.T) {
	const text = "a <T> \"quoted\"\n & é"
	cases := []struct {
		name, data string
		path       []any // keys and indices leading to the text
	}{
		{"chat", chatText(text), []any{"choices", 0, "delta", "content"}},
		{"responses", responsesText(text, "msg_1", 2, 7), []any{"delta"}},
		{"responses summary", responsesSummary(text, "rs_1", 0, 3), []any{"delta"}},
		{"anthropic text", anthropicDelta(1, "text_delta", "text", text), []any{"delta", "text"}},
		{"anthropic thinking", anthropicDelta(0, "thinking_delta", "thinking", text), []any{"delta", "thinking"}},
		{"gemini", geminiText(text, false, 3, 4), []any{"candidates", 0, "content", "parts", 0, "text"}},
		{"gemini thought", geminiText(text, true, 3, 4), []any{"candidates", 0, "content", "parts", 0, "text"}},
		{"ollama", ollamaLine(text, ""), []any{"message", "content"}},
		{"ollama thinking", ollamaLine("", text), []any{"message", "thinking"}},
	}
	for _, c := range cases {
		var v any
		if err := json.Unmarshal([]byte(c.data), &v); err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, c.data)
			continue
		}
		for _, k := range c.path {
			switch k := k.(type) {
			case string:
				v = v.(map[string]any)[k]
			case int:
				v = v.([]any)[k]
			}
		}
		if !reflect.DeepEqual(v, text) {
			t.Errorf("%s: the text reads %q, want %q", c.name, v, text)
		}
	}
}
