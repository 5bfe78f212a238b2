package google

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/llmrt/llmrt/providers/internal/replay"
	sseread "github.com/llmrt/llmrt/providers/internal/sse"
)

// TestDecodeEventMatchesEncodingJSON decodes odd and plain responses with
// the streamer's decodeEvent, one streamer for all so the reused target is
// exercised, and compares with a fresh encoding/json decode: the same
// value, or an error exactly when encoding/json fails.
func TestDecodeEventMatchesEncodingJSON(t *testing.T) {
	s := &streamer{endpoint: "http://test/v1beta/models/m:streamGenerateContent"}
	for _, p := range []string{
		`{"candidates":[{"content":{"parts":[{"text":"hi","thought":true}]},"finishReason":"STOP"}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":[1, 2]}}}]}}]}`,
		`{"candidates":[{"finishReason":1}],"usageMetadata":{"promptTokenCount":3}}`,
		`{"candidates":[{"finishReason":99}]}`,
		`{"candidates":[{"finishReason":"FINISH_REASON_UNSPECIFIED"}]}`,
		`{"candidates":[{"finishReason":true}]}`,
		`{"promptFeedback":{"blockReason":"SAFETY"}}`,
		`{"candidates":[null,{"content":{}}]}`,
		`{"usageMetadata":{"promptTokenCount":"3"}}`,
		`{"CANDIDATES":[{"content":{"parts":[{"TEXT":"case"}]}}]}`,
		`{"candidates":[],"candidates":[{"content":{"parts":[{"text":"dup"}]}}]}`,
		"{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"bad \xff\"}]}}]}",
		`{"error":{"code":429,"message":"slow","status":"RESOURCE_EXHAUSTED"}}`,
		`null`,
		`[]`,
		`{"candidates":[`,
		`{} {}`,
	} {
		var want response
		wantErr := json.Unmarshal([]byte(p), &want)
		got, err := s.decodeEvent([]byte(p))
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%s: got error %v, want error %v", p, err, wantErr)
		} else if err == nil && !reflect.DeepEqual(*got, want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", p, *got, want)
		}
	}
}

// TestDecodeFastOnRecordings checks that every event of the recorded
// streams takes the one-pass path and reads as encoding/json reads it.
func TestDecodeFastOnRecordings(t *testing.T) {
	var n int
	for _, rel := range replay.Glob(t, "gemini/*.json") {
		rec := replay.Load(t, rel)
		if rec.StreamFormat != "sse" || rec.Response.Status != 200 {
			continue
		}
		events := sseread.NewReader(bytes.NewReader(rec.Body()), maxEventSize)
		for events.Next() {
			data := events.Data()
			if len(data) == 0 {
				continue
			}
			n++
			replay.SameDecode[response](t, rel, data)
		}
	}
	if n < 50 {
		t.Fatalf("only %d recorded events decoded; the recordings look incomplete", n)
	}
}
