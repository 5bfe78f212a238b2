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

// checkChunk decodes data with decodeChunk and, when it takes it, with
// encoding/json into a fresh value, as decode does: both must agree. It
// reports whether decodeChunk took it.
func checkChunk(t *testing.T, data []byte) bool {
	t.Helper()
	return checkChunkIn(t, new(adapter.Scratch), data)
}

// checkChunkIn is checkChunk with the scratch of the stream data is an
// event of.
func checkChunkIn(t *testing.T, scratch *adapter.Scratch, data []byte) bool {
	t.Helper()
	// A value left from the event before, which must not show through.
	got := chunk{Choices: []choice{{Index: 3, Delta: delta{Reasoning: "old"}}, {FinishReason: "stop"}}}
	got.Choices = got.Choices[:0]
	return replay.SameDirectIn(t, scratch, data, &got, decodeChunk, true)
}

// TestDecodeChunk: the API's layouts of text, reasoning and tool call
// chunks, and the fake server's sorted one, are read directly; anything
// else is declined; what is read is what encoding/json reads.
func TestDecodeChunk(t *testing.T) {
	taken := []string{
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1782321917,"model":"gpt-5","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"Olá"},"finish_reason":null}],"usage":null,"obfuscation":"6Pf"}`,
		`{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}`,
		`{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		`{"id":"c","choices":[]}`,
		`{"id":"c"}`,
		`{"choices":[{"delta":{"reasoning_content":"hmm \u003cx\u003e"},"finish_reason":null,"index":0}],"id":"chatcmpl-fake","model":"fake","object":"chat.completion.chunk"}`,
		`{"choices":[{"index":0,"delta":{"reasoning":"a\nb","content":null}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":""}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"a\":"}}]}}]}`,
		`{"choices":[{"index":1,"delta":{"content":"second"}}]}`,
		` { "choices" : [ { "index" : 0 , "delta" : { "content" : "spaced" } } ] , "x" : { "nested" : [1, 2.5, true] } } `,
	}
	for _, p := range taken {
		if !checkChunk(t, []byte(p)) {
			t.Errorf("%s: declined, want it read directly", p)
		}
	}
	declined := []string{
		`{"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"x"}]}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"\ud83d\ude00"}}]}`,
		"{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"bad \xff\"}}]}",
		`{"choices":[{"index":0,"delta":{"Content":"x"}}]}`,
		`{"Choices":[{"index":0,"delta":{"content":"x"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"x","content":"y"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"x"}}],"choices":[]}`,
		`{"choices":[{"index":0,"message":{"content":"x"}}]}`,
		`{"choices":[{"index":0,"delta":{"function_call":{"name":"f"}}}]}`,
		`{"choices":[{"index":-1,"delta":{"content":"x"}}]}`,
		`{"choices":[{"index":0.0,"delta":{"content":"x"}}]}`,
		`{"choices":[],"usage":{"prompt_tokens":1}}`,
		`{"choices":[],"x_groq":{"id":"x"}}`,
		`{"error":{"message":"x"}}`,
		`{"choices":null}`,
		`{"choices":[{"index":0,"delta":{"content":"x"}}]} trailing`,
		`{"choices":[{"index":0,"delta":{"content":"x"}}]`,
		`{"choices":[{"index":0,"delta":{"content":"x"},}]}`,
		`{"x":01,"choices":[]}`,
		`{"x":` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `}`,
		`[]`, `null`, ``,
	}
	for _, p := range declined {
		if checkChunk(t, []byte(p)) {
			t.Errorf("%s: read directly, want it left to the general decoder", p)
		}
	}
}

// TestDecodeChunkOnRecordings: every recorded Chat Completions payload
// that decodeChunk takes reads as encoding/json reads it, and nearly every
// delta chunk is taken.
func TestDecodeChunkOnRecordings(t *testing.T) {
	var deltas, taken, openai, laidOut, anyLaidOut int
	for _, rel := range replay.Glob(t, "*/*.json") {
		rec := replay.Load(t, rel)
		if rec.API != "openai:chat.completions" || rec.Response.Status != 200 {
			continue
		}
		if !strings.HasPrefix(rec.StreamFormat, "sse") {
			checkChunk(t, rec.Body())
			continue
		}
		events := sse.NewReader(bytes.NewReader(rec.Body()), maxEventSize)
		scratch := new(adapter.Scratch) // the stream's, carried from event to event
		for events.Next() {
			data := events.Data()
			if len(data) == 0 || string(data) == "[DONE]" {
				continue
			}
			hot := bytes.Contains(data, []byte(`"delta":{"`)) && !bytes.Contains(data, []byte(`"usage":{`)) && !bytes.Contains(data, []byte(`"x_groq"`))
			ok := checkChunkIn(t, scratch, data)
			if hot {
				deltas++
				if ok {
					taken++
				}
			}
			if bytes.Contains(data, []byte(`"delta":{"content":"`)) {
				var c chunk
				var scratch adapter.Scratch
				if apiChunk(data, &c, &scratch) {
					anyLaidOut++
				}
			}
			if rec.Provider == "openai" && bytes.Contains(data, []byte(`"delta":{"content":"`)) {
				openai++
				var c chunk
				var scratch adapter.Scratch
				if apiChunk(data, &c, &scratch) {
					laidOut++
				}
			}
		}
	}
	t.Logf("delta chunks read directly: %d of %d; OpenAI's text deltas in its layout: %d of %d (all servers': %d)", taken, deltas, laidOut, openai, anyLaidOut)
	if deltas < 500 || taken < deltas*9/10 {
		t.Errorf("delta chunks read directly: got %d of %d, want nine in ten of at least 500", taken, deltas)
	}
	// OpenAI's text deltas take the short way (apiChunk).
	if openai < 100 || laidOut < openai*9/10 {
		t.Errorf("OpenAI's text deltas read in its layout: got %d of %d, want nine in ten of at least 100", laidOut, openai)
	}
}

// TestDecodeChunkCarriesOnlyWhatRepeats: one scratch reads a stream's
// chunks; what it remembers from one (the opening up to the text) serves
// the next only where the bytes are the same, an index or an id that
// changes is read again.
func TestDecodeChunkCarriesOnlyWhatRepeats(t *testing.T) {
	head := func(id string, index int) string {
		return `{"id":"` + id + `","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"fp","choices":[{"index":` + strconv.Itoa(index) + `,"delta":{"content":`
	}
	tail := `},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"pad"}`
	stream := []string{
		head("a", 0) + `"one"` + tail,
		head("a", 0) + `"two"` + tail,
		head("a", 1) + `"three"` + tail,
		head("a", 12) + `"four"` + tail,
		head("a", 1) + `"five"` + tail,
		head("b", 1) + `"six"` + tail,
		head("b", 1) + `null` + tail,
		head("b", 1) + `"seven"},"logprobs":null,"finish_reason":"stop"}]}`,
		`{"id":"b","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"fp","choices":[{"index":1,"delta":{"content":"x","content":"y"}}]}`,
		head("b", 1) + `"eight"` + tail,
	}
	scratch := new(adapter.Scratch)
	for _, ev := range stream {
		checkChunkIn(t, scratch, []byte(ev))
	}
}

// FuzzDecodeChunkPair: a chunk read after another, with what the reader
// kept from the first, reads as encoding/json reads it.
func FuzzDecodeChunkPair(f *testing.F) {
	head := `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":`
	f.Add([]byte(head+`"a"},"logprobs":null,"finish_reason":null}]}`), []byte(head+`"b"},"logprobs":null,"finish_reason":null}]}`))
	f.Add([]byte(head+`"a"}}]}`), []byte(`{"id":"c","object":"chat.completion.chunk","created":10,"model":"m","choices":[{"index":0,"delta":{"content":"b"}}]}`))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		var got chunk
		scratch := new(adapter.Scratch)
		decodeChunk(first, &got, scratch)
		replay.SameDirectIn(t, scratch, second, &got, decodeChunk, true)
	})
}

// FuzzDecodeChunk: whatever decodeChunk reads, encoding/json reads the
// same way.
func FuzzDecodeChunk(f *testing.F) {
	for _, s := range []string{
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a\nb"},"logprobs":null,"finish_reason":null}],"usage":null}`,
		`{"choices":[{"delta":{"reasoning_content":"t\\"},"finish_reason":null,"index":0}],"id":"x"}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":1}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"x":[1,{"y":null}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got chunk
		var scratch adapter.Scratch
		if !decodeChunk(data, &got, &scratch) {
			return
		}
		var want chunk
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal(data, &want); err != nil && (!errors.As(err, &te) || te.Field == "") {
			t.Fatalf("%q: taken, but encoding/json fails: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %+v\nwant %+v", data, got, want)
		}
	})
}
