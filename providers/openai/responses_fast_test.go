package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
	"github.com/llmrt/llmrt/providers/internal/sse"
)

// checkEvent decodes data with decodeEvent and, when it takes it, with
// encoding/json into a fresh value, as decode does: both must agree. It
// reports whether decodeEvent took it.
func checkEvent(t *testing.T, data []byte) bool {
	t.Helper()
	got := event{Type: "old", Message: "left from before", Item: &item{}} // must not show through
	return replay.SameDirect(t, data, &got, decodeEvent, true)
}

// TestDecodeEvent: the API's text, reasoning and argument deltas are read
// directly, in its key order or any other; anything else is declined; what
// is read is what encoding/json reads.
func TestDecodeEvent(t *testing.T) {
	taken := []string{
		`{"type":"response.output_text.delta","content_index":0,"delta":"The","item_id":"msg_1","logprobs":[],"obfuscation":"L7a","output_index":0,"sequence_number":4}`,
		`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":2,"delta":"**Plan**\n","sequence_number":9}`,
		`{"type":"response.function_call_arguments.delta","delta":"{\"","item_id":"fc_1","obfuscation":"PCQ","output_index":1,"sequence_number":3}`,
		`{"type":"response.function_call_arguments.done","arguments":"{\"a\":1}","item_id":"fc_1","output_index":1,"sequence_number":5}`,
		`{"delta":"\u003cb\u003e","output_index":0,"sequence_number":1,"type":"response.output_text.delta"}`,
		`{"type":"response.content_part.added","content_index":0,"item_id":"msg_1","output_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""},"sequence_number":4}`,
	}
	for _, p := range taken {
		if !checkEvent(t, []byte(p)) {
			t.Errorf("%s: declined, want it read directly", p)
		}
	}
	declined := []string{
		`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_1"},"output_index":0}`,
		`{"type":"response.completed","response":{"status":"completed"}}`,
		`{"type":"error","code":"server_error","message":"boom"}`,
		`{"error":{"message":"x"}}`,
		`{"type":"response.output_text.delta","Delta":"x"}`,
		`{"type":"response.output_text.delta","delta":"x","delta":"y"}`,
		`{"type":"response.output_text.delta","delta":"\ud83d\ude00"}`,
		"{\"type\":\"response.output_text.delta\",\"delta\":\"bad \xff\"}",
		`{"type":"response.output_text.delta","delta":null}`,
		`{"type":"response.output_text.delta","delta":"x","output_index":-1}`,
		`{"type":"response.output_text.delta","delta":"x","output_index":1e3}`,
		`{"type":"response.output_text.delta","delta":"x"}]`,
		`{"type":"response.output_text.delta","delta":"x"`,
		`{"type":"response.output_text.delta","status":"x"}`,
	}
	for _, p := range declined {
		if checkEvent(t, []byte(p)) {
			t.Errorf("%s: read directly, want it left to the general decoder", p)
		}
	}
}

// TestDecodeEventOnRecordings: every recorded Responses event that
// decodeEvent takes reads as encoding/json reads it, and nearly every
// delta is taken.
func TestDecodeEventOnRecordings(t *testing.T) {
	var deltas, taken, openai, laidOut int
	for _, rel := range replay.Glob(t, "*/*.json") {
		rec := replay.Load(t, rel)
		if rec.API != "openai:responses" || rec.Response.Status != 200 {
			continue
		}
		if !strings.HasPrefix(rec.StreamFormat, "sse") {
			checkEvent(t, rec.Body())
			continue
		}
		events := sse.NewReader(bytes.NewReader(rec.Body()), maxEventSize)
		for events.Next() {
			data := events.Data()
			if len(data) == 0 || string(data) == "[DONE]" {
				continue
			}
			ok := checkEvent(t, data)
			if bytes.Contains(data, []byte(`.delta"`)) {
				deltas++
				if ok {
					taken++
				}
				if rec.Provider == "openai" {
					openai++
					var ev event
					var scratch adapter.Scratch
					if apiDelta(data, &ev, &scratch) {
						laidOut++
					}
				}
			}
		}
	}
	t.Logf("deltas read directly: %d of %d; OpenAI's in its own layout: %d of %d", taken, deltas, laidOut, openai)
	if deltas < 500 || taken < deltas*9/10 {
		t.Errorf("deltas read directly: got %d of %d, want nine in ten of at least 500", taken, deltas)
	}
	// OpenAI's own deltas take the short way (apiDelta); other servers'
	// (xAI's start with the sequence number) are walked.
	if openai < 500 || laidOut < openai*9/10 {
		t.Errorf("OpenAI's deltas read in its layout: got %d of %d, want nine in ten of at least 500", laidOut, openai)
	}
}

// FuzzDecodeEvent: whatever decodeEvent reads, encoding/json reads the
// same way.
func FuzzDecodeEvent(f *testing.F) {
	for _, s := range []string{
		`{"type":"response.output_text.delta","content_index":0,"delta":"a\nb","item_id":"msg_1","logprobs":[],"output_index":0,"sequence_number":4}`,
		`{"type":"response.reasoning_summary_text.delta","summary_index":1,"delta":"x"}`,
		`{"arguments":"{}","output_index":2,"type":"response.function_call_arguments.done"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got event
		var scratch adapter.Scratch
		if !decodeEvent(data, &got, &scratch) {
			return
		}
		var want event
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal(data, &want); err != nil && (!errors.As(err, &te) || te.Field == "") {
			t.Fatalf("%q: taken, but encoding/json fails: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %+v\nwant %+v", data, got, want)
		}
	})
}
