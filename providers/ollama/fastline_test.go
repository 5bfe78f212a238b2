package ollama

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// checkLine decodes data with decodeLine and, when it takes it, with
// encoding/json into a fresh value, as decode does: both must agree. It
// reports whether decodeLine took it.
func checkLine(t *testing.T, data []byte) bool {
	t.Helper()
	got := chatChunk{Done: true, DoneReason: "old", Error: json.RawMessage(`"old"`)} // must not show through
	return replay.SameDirect(t, data, &got, decodeLine, true)
}

// TestDecodeLine: Ollama's content, thinking and done lines, and the fake
// server's sorted ones, are read directly; anything else is declined; what
// is read is what encoding/json reads.
func TestDecodeLine(t *testing.T) {
	taken := []string{
		`{"model":"gemma3:1b","created_at":"2025-08-20T13:48:24.316155Z","message":{"role":"assistant","content":"Okay"},"done":false}`,
		`{"model":"qwen3","created_at":"2025-08-20T13:48:24Z","message":{"role":"assistant","content":"","thinking":"hmm \u003c"},"done":false}`,
		`{"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":12345678901234,"load_duration":1,"prompt_eval_count":19,"prompt_eval_duration":1,"eval_count":100000,"eval_duration":1.5e3}`,
		`{"created_at":"2026-11-22T00:00:00Z","done":false,"message":{"content":"x\n","role":"assistant"},"model":"fake"}`,
		` { "message" : { "content" : "spaced" } } `,
	}
	for _, p := range taken {
		if !checkLine(t, []byte(p)) {
			t.Errorf("%s: declined, want it read directly", p)
		}
	}
	declined := []string{
		`{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{}}}]},"done":false}`,
		`{"error":"model not found"}`,
		`{"message":{"Content":"x"}}`,
		`{"Done":true}`,
		`{"message":{"content":"a","content":"b"}}`,
		`{"message":{"content":"x"},"message":{"thinking":"y"}}`,
		`{"message":{"content":null}}`,
		`{"message":{"content":"\ud83d\ude00"}}`,
		"{\"message\":{\"content\":\"bad \xff\"}}",
		`{"done":"yes"}`,
		`{"eval_count":-1}`,
		`{"eval_count":12345678901}`,
		`{"message":{"content":"x"}} {}`,
		`{"message":{"content":"x"}`,
		`null`, `[]`,
	}
	for _, p := range declined {
		if checkLine(t, []byte(p)) {
			t.Errorf("%s: read directly, want it left to the general decoder", p)
		}
	}
}

// TestDecodeLineOnRecordings: every recorded line decodeLine takes reads
// as encoding/json reads it, and nearly every content or thinking line is
// taken.
func TestDecodeLineOnRecordings(t *testing.T) {
	var texts, taken, laidOut int
	for _, rel := range replay.Glob(t, "ollama/*.json") {
		rec := replay.Load(t, rel)
		if rec.API != "ollama:api/chat" || rec.Response.Status != 200 {
			continue
		}
		for _, line := range replay.Pieces(rec.Body(), rec.StreamFormat) {
			ok := checkLine(t, line)
			if !json.Valid(line) {
				continue
			}
			var c chatChunk
			_ = json.Unmarshal(line, &c)
			if !c.Done && len(c.Message.ToolCalls) == 0 {
				texts++
				if ok {
					taken++
				}
				var scratch adapter.Scratch
				if apiLine(line, &c, &scratch) {
					laidOut++
				}
			}
		}
	}
	t.Logf("content lines read directly: %d of %d, %d in Ollama's layout", taken, texts, laidOut)
	if texts < 100 || taken < texts*9/10 {
		t.Errorf("content lines read directly: got %d of %d, want nine in ten of at least 100", taken, texts)
	}
	// Ollama's lines take the short way (apiLine).
	if laidOut < texts*9/10 {
		t.Errorf("content lines read in Ollama's layout: got %d of %d, want nine in ten", laidOut, texts)
	}
}

// FuzzDecodeLine: whatever decodeLine reads, encoding/json reads the same
// way.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		`{"model":"gemma3:1b","created_at":"2025-08-20T13:48:24.316155Z","message":{"role":"assistant","content":"a\nb"},"done":false}`,
		`{"message":{"thinking":"t","content":""},"done_reason":"stop","done":true,"eval_count":3,"total_duration":-1.5e-3}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got chatChunk
		var scratch adapter.Scratch
		if !decodeLine(data, &got, &scratch) {
			return
		}
		var want chatChunk
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal(data, &want); err != nil && (!errors.As(err, &te) || te.Field == "") {
			t.Fatalf("%q: taken, but encoding/json fails: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %+v\nwant %+v", data, got, want)
		}
	})
}
