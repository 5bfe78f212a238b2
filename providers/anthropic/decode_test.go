package anthropic

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers/internal/replay"
	sseread "github.com/llmrt/llmrt/providers/internal/sse"
)

// TestDecodeMatchesEncodingJSON decodes odd and plain events with the
// streamer's decode into one reused target and compares with a fresh
// encoding/json decode: the same value, or an error exactly when
// encoding/json fails.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	s := &streamer{endpoint: "http://test/v1/messages"}
	var ev eventJSON
	for _, p := range []string{
		`{"type":"message_start","message":{"usage":{"input_tokens":5,"cache_read_input_tokens":2,"output_tokens":1}}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"n","input":{"a":1}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi \u00e9"}}`,
		`{"type":"content_block_delta","index":"0","delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}`,
		`{"TYPE":"content_block_delta","Delta":{"Text":"case"}}`,
		`{"type":"content_block_delta","type":"message_stop"}`,
		"{\"type\":\"content_block_delta\",\"delta\":{\"text\":\"bad \xff\"}}",
		`{"type":"content_block_delta","delta":{"text":"\udc00"}}`,
		`null`,
		`[]`,
		`{"type":`,
		`{} x`,
	} {
		var want eventJSON
		wantErr := json.Unmarshal([]byte(p), &want)
		err := s.decode([]byte(p), &ev)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%s: got error %v, want error %v", p, err, wantErr)
		} else if err == nil && !reflect.DeepEqual(ev, want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", p, ev, want)
		}
	}
}

// TestDecodeFastOnRecordings checks that every event of the recorded
// streams takes the one-pass path and reads as encoding/json reads it.
func TestDecodeFastOnRecordings(t *testing.T) {
	var n int
	for _, rel := range replay.Glob(t, "anthropic/*.json") {
		rec := replay.Load(t, rel)
		if !strings.HasPrefix(rec.StreamFormat, "sse") || rec.Response.Status != 200 {
			continue
		}
		events := sseread.NewReader(bytes.NewReader(rec.Body()), 32<<20)
		for events.Next() {
			data := events.Data()
			if typ := events.Type(); typ == "" || typ == "ping" || typ == "error" || len(data) == 0 {
				continue
			}
			n++
			replay.SameDecode[eventJSON](t, rel, data)
		}
	}
	if n < 100 {
		t.Fatalf("only %d recorded events decoded; the recordings look incomplete", n)
	}
}
