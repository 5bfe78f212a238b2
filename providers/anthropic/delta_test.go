package anthropic

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
	sseread "github.com/llmrt/llmrt/providers/internal/sse"
)

// checkDelta decodes data with decodeDelta and, when it takes it, with
// encoding/json into a fresh value: both must agree. It reports whether
// decodeDelta took it.
func checkDelta(t *testing.T, data []byte) bool {
	t.Helper()
	var got eventJSON
	got.Usage.OutputTokens = 99 // a value left from the event before
	return replay.SameDirect(t, data, &got, decodeDelta, false)
}

// TestDecodeDelta: the API's own layout of text, thinking and argument
// deltas is read directly, escapes and padding included; anything else is
// declined, and what is read is what encoding/json reads.
func TestDecodeDelta(t *testing.T) {
	taken := []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`,
		`{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"Olá, \"quoted\"\n\ttab\\ / \/ \b\f\r"}}`,
		`{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\u00e9 \u003cb\u003e"}}`,
		`{"delta":{"text":"\u00e9","type":"text_delta"},"index":0,"type":"content_block_delta"}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"padded"}      }   `,
		"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}\r\n}",
		`{"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"Let me think 😀"}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"a\\\\b\""}}`,
		`{"type":"content_block_delta","index":999999999,"delta":{"type":"input_json_delta","partial_json":""}}`,
		// Keys sorted, as encoding/json writes a map.
		`{"delta":{"text":"hi \"x\"","type":"text_delta"},"index":0,"type":"content_block_delta"}`,
		`{"delta":{"thinking":"hmm","type":"thinking_delta"},"index":7,"type":"content_block_delta"}` + "\n",
		`{"delta":{"partial_json":"{\"a\":","type":"input_json_delta"},"index":1,"type":"content_block_delta"}`,
	}
	for _, p := range taken {
		if !checkDelta(t, []byte(p)) {
			t.Errorf("%s: declined, want it read directly", p)
		}
	}
	declined := []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\ud83d"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\x"}}`,
		"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"bad \xff\"}}",
		"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ctl \x01\"}}",
		`{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":1234567890,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","more":1}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"},"more":1}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}} trailing`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x\"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"s"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","thinking":"x"}}`,
		`{"type":"content_block_delta", "index":0,"delta":{"type":"text_delta","text":"x"}}`,
		`{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"delta":{"text":"x","type":"thinking_delta"},"index":0,"type":"content_block_delta"}`,
		`{"delta":{"text":"x","type":"text_delta"},"index":0,"type":"content_block_start"}`,
		`{"delta":{"text":"x","type":"text_delta"},"index":0,"type":"content_block_delta","more":1}`,
		`{"delta":{"text":"x","type":"text_delta","more":1},"index":0,"type":"content_block_delta"}`,
		`{"delta":{"text":"x","type":"text_delta"},"index":00,"type":"content_block_delta"}`,
		`{"delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9},"type":"message_delta"}`,
	}
	for _, p := range declined {
		if checkDelta(t, []byte(p)) {
			t.Errorf("%s: read directly, want it left to the general decoder", p)
		}
	}
}

// TestDecodeDeltaOnRecordings: nearly every recorded text, thinking and
// argument delta is read directly, each as encoding/json reads it.
func TestDecodeDeltaOnRecordings(t *testing.T) {
	var deltas, taken int
	for _, rel := range replay.Glob(t, "anthropic/*.json") {
		rec := replay.Load(t, rel)
		if !strings.HasPrefix(rec.StreamFormat, "sse") || rec.Response.Status != 200 {
			continue
		}
		events := sseread.NewReader(bytes.NewReader(rec.Body()), 32<<20)
		for events.Next() {
			data := events.Data()
			if !bytes.Contains(data, []byte(`_delta","`)) || !bytes.Contains(data, []byte(`"content_block_delta"`)) ||
				bytes.Contains(data, []byte(`"signature_delta"`)) || bytes.Contains(data, []byte(`"citations_delta"`)) {
				checkDelta(t, data)
				continue
			}
			deltas++
			if checkDelta(t, data) {
				taken++
			}
		}
	}
	if deltas < 100 || taken < deltas*9/10 {
		t.Errorf("recorded deltas read directly: got %d of %d, want nine in ten of at least 100", taken, deltas)
	}
}

// FuzzDecodeDelta: whatever decodeDelta reads, encoding/json reads the
// same way.
func FuzzDecodeDelta(f *testing.F) {
	for _, s := range []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\nb"}}`,
		`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"k\":1}"}   }`,
		`{"delta":{"thinking":"t\\","type":"thinking_delta"},"index":2,"type":"content_block_delta"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got eventJSON
		var scratch adapter.Scratch
		if !decodeDelta(data, &got, &scratch) {
			return
		}
		var want eventJSON
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%q: taken, but encoding/json fails: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %+v\nwant %+v", data, got, want)
		}
	})
}

// TestDeltaKindsLayout: each kind's API layout is its type and field.
func TestDeltaKindsLayout(t *testing.T) {
	for _, k := range deltaKinds {
		if want := `,"delta":{"type":"` + k.typ + `","` + k.field + `":`; k.api != want {
			t.Errorf("%s: layout %s, want %s", k.typ, k.api, want)
		}
	}
}
