package google

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
	sseread "github.com/llmrt/llmrt/providers/internal/sse"
)

// checkResponse decodes data with decodeResponse and, when it takes it,
// with encoding/json into a fresh value: both must agree. It reports
// whether decodeResponse took it.
func checkResponse(t *testing.T, data []byte) bool {
	t.Helper()
	return checkResponseIn(t, new(adapter.Scratch), data)
}

// checkResponseIn is checkResponse with the scratch of the stream data is
// an event of.
func checkResponseIn(t *testing.T, scratch *adapter.Scratch, data []byte) bool {
	t.Helper()
	// What a target reused from an earlier event holds must not show
	// through.
	got := response{Error: &apiError{Code: 1}, UsageMetadata: &usageMetadata{ThoughtsTokenCount: 5},
		Candidates: []*candidate{{FinishReason: "STOP", Content: &struct {
			Parts []responsePart `json:"parts"`
		}{Parts: []responsePart{{Text: "old", Thought: true}, {ThoughtSignature: "x"}}}}, nil}}
	got.Candidates = got.Candidates[:1]
	return replay.SameDirectIn(t, scratch, data, &got, decodeResponse, false)
}

// TestDecodeResponse: the API's text and thought responses, spaced as it
// sends them or compact with sorted keys as the fake server does, are read
// directly; anything else is declined; what is read is what encoding/json
// reads.
func TestDecodeResponse(t *testing.T) {
	taken := []string{
		`{"candidates": [{"content": {"parts": [{"text": "Olá!"}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 11,"candidatesTokenCount": 2,"totalTokenCount": 34,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 11}],"thoughtsTokenCount": 21},"modelVersion": "gemini-2.5-flash","responseId": "VwCz"}`,
		`{"candidates":[{"content":{"parts":[{"text":"hmm","thought":true}],"role":"model"},"index":0}],"modelVersion":"fake","usageMetadata":{"candidatesTokenCount":1,"promptTokenCount":3,"totalTokenCount":4}}`,
		`{"candidates": [{"content": {"parts": [{"text": "","thoughtSignature": "c2ln"}],"role": "model"},"finishReason": 1,"index": 0}]}`,
		`{"candidates": [{"content": {"parts": [{"text": "a\n\u003c"}]},"finishReason": "FINISH_REASON_UNSPECIFIED","safetyRatings": [{"category": "X","probability": "NEGLIGIBLE"}]}]}`,
		`{"candidates": [{"content": {"role": "model"}}],"usageMetadata": {"cachedContentTokenCount": 5,"toolUsePromptTokenCount": 2}}`,
		`{"candidates": []}`,
		`{"responseId": "x"}`,
	}
	for _, p := range taken {
		if !checkResponse(t, []byte(p)) {
			t.Errorf("%s: declined, want it read directly", p)
		}
	}
	declined := []string{
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]}}]}`,
		`{"promptFeedback":{"blockReason":"SAFETY"}}`,
		`{"error":{"code":429,"message":"slow","status":"RESOURCE_EXHAUSTED"}}`,
		`{"candidates":[null]}`,
		`{"candidates":null}`,
		`{"candidates":[{"content":null}]}`,
		`{"candidates":[{"finishReason":true}]}`,
		`{"candidates":[{"finishReason":1.5}]}`,
		`{"usageMetadata":{"promptTokenCount":"3"}}`,
		`{"usageMetadata":{"promptTokenCount":-3}}`,
		`{"CANDIDATES":[{"content":{"parts":[{"text":"case"}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"TEXT":"case"}]}}]}`,
		`{"candidates":[],"candidates":[{"content":{"parts":[{"text":"dup"}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"text":"a","text":"b"}]}}]}`,
		"{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"bad \xff\"}]}}]}",
		`{"candidates":[{"content":{"parts":[{"text":"\ud83d\ude00"}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"thought":null}]}}]}`,
		`null`, `[]`, `{"candidates":[`, `{} {}`,
	}
	for _, p := range declined {
		if checkResponse(t, []byte(p)) {
			t.Errorf("%s: read directly, want it left to the general decoder", p)
		}
	}
}

// TestDecodeResponseOnRecordings: every recorded response decodeResponse
// takes reads as encoding/json reads it, and nearly every text or thought
// response of a stream is taken.
func TestDecodeResponseOnRecordings(t *testing.T) {
	var texts, taken, deltas, laidOut int
	for _, rel := range replay.Glob(t, "gemini/*.json") {
		rec := replay.Load(t, rel)
		if rec.Response.Status != 200 {
			continue
		}
		if rec.StreamFormat != "sse" {
			checkResponse(t, rec.Body())
			continue
		}
		events := sseread.NewReader(bytes.NewReader(rec.Body()), maxEventSize)
		scratch := new(adapter.Scratch) // the stream's, carried from event to event
		for events.Next() {
			data := events.Data()
			ok := checkResponseIn(t, scratch, data)
			if bytes.Contains(data, []byte(`"text"`)) && !bytes.Contains(data, []byte(`"functionCall"`)) {
				texts++
				if ok {
					taken++
				}
				if !bytes.Contains(data, []byte(`"finishReason"`)) {
					deltas++
					var r response
					var scratch adapter.Scratch
					if apiResponse(data, &r, &scratch) {
						laidOut++
					}
				}
			}
		}
	}
	t.Logf("text responses read directly: %d of %d; deltas in the API's layout: %d of %d", taken, texts, laidOut, deltas)
	if texts < 50 || taken < texts*9/10 {
		t.Errorf("text responses read directly: got %d of %d, want nine in ten of at least 50", taken, texts)
	}
	// The deltas the API sends (no finish reason yet) take the short way
	// (apiResponse).
	if deltas < 40 || laidOut < deltas*9/10 {
		t.Errorf("deltas read in the API's layout: got %d of %d, want nine in ten of at least 40", laidOut, deltas)
	}
}

// TestDecodeResponseCarriesOnlyWhatRepeats: one scratch reads a stream's
// responses; what it remembers from one (the token details, the model's
// version and the response's id) serves the next only where the bytes are
// the same.
func TestDecodeResponseCarriesOnlyWhatRepeats(t *testing.T) {
	ev := func(text, usage, ids string) string {
		return `{"candidates": [{"content": {"parts": [{"text": "` + text + `"}],"role": "model"},"index": 0}],"usageMetadata": ` + usage + ids + `}`
	}
	usage := func(c int, details, extra string) string {
		return `{"promptTokenCount": 11,"candidatesTokenCount": ` + strconv.Itoa(c) + `,"totalTokenCount": ` + strconv.Itoa(11+c) +
			`,"promptTokensDetails": [{"modality": "TEXT","tokenCount": ` + details + `}]` + extra + `}`
	}
	ids := `,"modelVersion": "gemini-2.5-flash","responseId": "r1"`
	stream := []struct {
		event string
		taken bool
	}{
		{ev("a", usage(1, "11", ""), ids), true},
		{ev("b", usage(2, "11", ""), ids), true},
		{ev("c", usage(30, "11", `,"thoughtsTokenCount": 4`), ids), true},
		{ev("d", usage(31, "12", `,"thoughtsTokenCount": 4`), ids), true},
		{ev("e", usage(32, "1,", ""), ids), false}, // as long as the details before, not JSON
		{ev("f", usage(32, "123", `,"thoughtsTokenCount": 4,"serviceTier": "standard"`), `,"modelVersion": "gemini-2.5-flash","responseId": "r2"`), true},
		{ev("g", usage(33, "123", ""), `,"modelVersion": "gemini-2.5-flash"`), true},
		{ev("h", usage(34, "123", ""), ids), true},
		{ev("i", usage(34, "123", ""), `,"modelVersion": "gemini-2.5-flash","responseId": "r1\"`), false},
		{ev("j", `{"promptTokenCount": 11,"totalTokenCount": 11,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 12}],"cachedContentTokenCount": 3}`, ids), true},
		{ev("k", usage(35, "12", ""), ids+`,"responseId": "r3"`), true},
		{ev("l", usage(36, "12", ""), ids), true},
	}
	scratch := new(adapter.Scratch)
	for _, e := range stream {
		if taken := checkResponseIn(t, scratch, []byte(e.event)); taken != e.taken {
			t.Errorf("%s: taken %v, want %v", e.event, taken, e.taken)
		}
	}
}

// FuzzDecodeResponsePair: a response read after another, with what the
// reader kept from the first, reads as encoding/json reads it.
func FuzzDecodeResponsePair(f *testing.F) {
	ev := func(text string, c int) []byte {
		return []byte(`{"candidates": [{"content": {"parts": [{"text": "` + text + `"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 11,"candidatesTokenCount": ` +
			strconv.Itoa(c) + `,"totalTokenCount": 20,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 11}]},"modelVersion": "m","responseId": "r"}`)
	}
	f.Add(ev("a", 1), ev("b", 2))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		var got response
		scratch := new(adapter.Scratch)
		decodeResponse(first, &got, scratch)
		replay.SameDirectIn(t, scratch, second, &got, decodeResponse, false)
	})
}

// FuzzDecodeResponse: whatever decodeResponse reads, encoding/json reads
// the same way.
func FuzzDecodeResponse(f *testing.F) {
	for _, s := range []string{
		`{"candidates": [{"content": {"parts": [{"text": "a\nb"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 11,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 11}]},"modelVersion": "m"}`,
		`{"candidates":[{"content":{"parts":[{"text":"t","thought":true,"thoughtSignature":"eA=="}]},"finishReason":"STOP"}]}`,
		`{"candidates":[{"finishReason":3}],"usageMetadata":{"thoughtsTokenCount":2}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The target holds an earlier event, as the streamer's does.
		var got response
		var scratch adapter.Scratch
		earlier := `{"candidates":[{"content":{"parts":[{"text":"old","thought":true},{"text":"x"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1}}`
		if !decodeResponse([]byte(earlier), &got, &scratch) {
			t.Fatalf("the earlier event was declined")
		}
		if !decodeResponse(data, &got, &scratch) {
			return
		}
		var want response
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%q: taken, but encoding/json fails: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %+v\nwant %+v", data, got, want)
		}
	})
}
