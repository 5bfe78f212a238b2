package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
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
	return checkEventIn(t, new(adapter.Scratch), data)
}

// checkEventIn is checkEvent with the scratch of the stream data is an
// event of.
func checkEventIn(t *testing.T, scratch *adapter.Scratch, data []byte) bool {
	t.Helper()
	got := event{Type: "old", Message: "left from before", Item: &item{}} // must not show through
	return replay.SameDirectIn(t, scratch, data, &got, decodeEvent, true)
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
		scratch := new(adapter.Scratch) // the stream's, carried from event to event
		for events.Next() {
			data := events.Data()
			if len(data) == 0 || string(data) == "[DONE]" {
				continue
			}
			ok := checkEventIn(t, scratch, data)
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

// TestDecodeEventCarriesOnlyWhatRepeats: one scratch reads a stream's
// events; what it remembers from one (the item's id, the output index)
// serves the next only where the bytes are the same.
func TestDecodeEventCarriesOnlyWhatRepeats(t *testing.T) {
	text := func(delta, item, pad string, output, seq int) string {
		s := `{"type":"response.output_text.delta","content_index":0,"delta":"` + delta + `","item_id":"` + item + `","logprobs":[]`
		if pad != "" {
			s += `,"obfuscation":"` + pad + `"`
		}
		return s + `,"output_index":` + strconv.Itoa(output) + `,"sequence_number":` + strconv.Itoa(seq) + `}`
	}
	stream := []string{
		text("a", "msg_1", "p1", 0, 4),
		text("b", "msg_1", "p22", 0, 5),
		text("c", "msg_1", "p3", 1, 6),
		text("d", "msg_1", "p3", 12, 7),
		text("e", "msg_2", "p3", 12, 8),
		text("f", "msg_2", "", 12, 9),
		text("g", "msg_2", "", 3, 10),
		text("h", "msg_2", "p4", 3, 11),
		`{"type":"response.reasoning_summary_text.delta","delta":"i","item_id":"msg_2","obfuscation":"p","output_index":3,"sequence_number":12,"summary_index":2}`,
		`{"type":"response.output_text.delta","content_index":0,"delta":"j","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":1.5e3}`,
		`{"type":"response.output_text.delta","content_index":0,"delta":"k","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":13,"output_index":4}`,
		text("l", "msg_2", "p4", 3, 14),
		// What opens an event (its type, its content index) is carried
		// too, only as far as it repeats.
		`{"type":"response.output_text.delta","content_index":1,"delta":"m","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":15}`,
		`{"type":"response.output_text.delta","content_index":1,"delta":"n","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":16}`,
		`{"type":"response.output_text.delta","content_index":10,"delta":"o","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":17}`,
		`{"type":"response.output_text.delta","delta":"p","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":18}`,
		`{"type":"response.reasoning_text.delta","content_index":0,"delta":"q","item_id":"msg_2","obfuscation":"p","output_index":3,"sequence_number":19}`,
		`{"type":"response.reasoning_text.delta","content_index":0,"delta":"r","item_id":"msg_2","obfuscation":"p","output_index":3,"sequence_number":20}`,
		`{"type":"response.output_text.delta","content_index":0,"delta":"s","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":21}`,
		`{"type":"response.output_text.delta","content_index":0,"delta":"t","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":22}`,
		`{"type":"response.output_text.delta","content_index":0 ,"delta":"u","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":23}`,
		`{"type":"response.output_text.delta","content_index":0,"delta":"v","item_id":"msg_2","logprobs":[],"obfuscation":"p","output_index":3,"sequence_number":24}`,
	}
	scratch := new(adapter.Scratch)
	for _, ev := range stream {
		checkEventIn(t, scratch, []byte(ev))
	}
}

// FuzzDecodeEventPair: an event read after another, with what the reader
// kept from the first, reads as encoding/json reads it.
func FuzzDecodeEventPair(f *testing.F) {
	ev := func(delta, seq string) []byte {
		return []byte(`{"type":"response.output_text.delta","content_index":0,"delta":"` + delta + `","item_id":"msg_1","logprobs":[],"obfuscation":"pad","output_index":0,"sequence_number":` + seq + `}`)
	}
	f.Add(ev("a", "4"), ev("b", "5"))
	f.Add(ev("a", "4"), []byte(`{"type":"response.output_text.delta","content_index":0,"delta":"b","item_id":"msg_1","logprobs":[],"output_index":0,"sequence_number":5}`))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		var got event
		scratch := new(adapter.Scratch)
		decodeEvent(first, &got, scratch)
		got = event{Type: "old", Message: "left from before", Item: &item{}}
		replay.SameDirectIn(t, scratch, second, &got, decodeEvent, true)
	})
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
