package ollama

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeMatchesEncodingJSON decodes odd and plain lines with the
// streamer's decode, one streamer and one target for all of them as read
// does, and compares with encoding/json's Decoder straight into a fresh
// chunk: the same value and the same error.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	s := newStreamer("http://test/api/chat", nil, nil, nil)
	c := new(chatChunk)
	for _, p := range []string{
		`{"message":{"content":"hi","thinking":"t"},"done":false}`,
		`{"message":{"tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}]}}`,
		`{"message":{"content":5},"done":true,"done_reason":"stop","eval_count":3}`,
		`{"message":{"content":"kept","thinking":[1]}}`,
		`{"error":"model not found"}`,
		`{"error":{"message":"proxy"}}`,
		`{"Message":{"Content":"case"},"DONE":true}`,
		`{"done_reason":"a","donereason":"b"}`,
		`{"message":{"content":"a"},"message":{"thinking":"dup"}}`,
		"{\"message\":{\"content\":\"bad \xff\"}}",
		`"a string line"`,
		`[1]`,
		`null`,
		`{"message":`,
		`{"message":{}} {"done":true}`,
	} {
		*c = chatChunk{}
		got := s.decode(json.NewDecoder(strings.NewReader(p)), c)
		var want chatChunk
		wantErr := json.NewDecoder(strings.NewReader(p)).Decode(&want)
		if (got == nil) != (wantErr == nil) || got != nil && got.Error() != wantErr.Error() {
			t.Errorf("%s: got error %v, want %v", p, got, wantErr)
		}
		if !reflect.DeepEqual(*c, want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", p, *c, want)
		}
	}
}
