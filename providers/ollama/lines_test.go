package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// outcome is what a parse emitted and how it ended.
type outcome struct {
	chunks []providers.Chunk
	err    string
}

// parseBoth parses body as read does (direct lines, then the Decoder) and
// with the Decoder alone, as the adapter did before the direct path, each
// with raw chunks on.
func parseBoth(body io.Reader, again io.Reader) (got, want outcome) {
	codec := adapter.NewNameCodec([]string{"weather"}, adapter.FunctionNames)
	tools := []providers.ToolSpec{{Name: "weather"}}
	run := func(o *outcome, parse func(*streamer) error) {
		s := newStreamer("http://test/api/chat", codec, tools, adapter.SinkFunc(func(c providers.Chunk) { o.chunks = append(o.chunks, c) }))
		s.raw = true
		if err := parse(s); err != nil {
			o.err = err.Error()
		}
	}
	ctx := context.Background()
	run(&got, func(s *streamer) error { return s.read(ctx, body) })
	run(&want, func(s *streamer) error { return s.readValues(ctx, json.NewDecoder(again), new(chatChunk)) })
	return got, want
}

// TestReadLinesSameAsDecoder: direct line reading gives the same chunks and
// the same error as the Decoder alone, on good streams and on streams that
// go wrong after some good lines, delivered whole or a byte at a time.
func TestReadLinesSameAsDecoder(t *testing.T) {
	good := `{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hi"},"done":false}` + "\n" +
		`{"model":"m","created_at":"t","message":{"role":"assistant","content":" there"},"done":false}` + "\n"
	done := `{"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":3,"eval_count":2}`
	call := `{"model":"m","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"weather","arguments":{"city":"Paris"}}}]},"done":false}`
	bodies := map[string]string{
		"plain":            good + done + "\n",
		"no final newline": good + done,
		"crlf and blanks":  strings.ReplaceAll(good, "\n", "\r\n\r\n") + "  \n" + done + "\n",
		"tool call":        good + call + "\n" + good + done + "\n",
		"garbage":          good + "<html>Bad gateway</html>\n" + done + "\n",
		"cut mid line":     good + `{"model":"m","message":{"content":"x`,
		"cut":              good,
		"two per line":     good + `{"message":{"content":"a"}} {"message":{"content":"b"}}` + "\n" + done + "\n",
		"split value":      good + `{"message":` + "\n" + `{"content":"a"}}` + "\n" + done + "\n",
		"after done":       good + done + "\n" + `{"message":{"content":"late"}}` + "\n",
		"string line":      good + `"hello"` + "\n" + done + "\n",
		"error line":       good + `{"error":"model crashed"}` + "\n",
		"wrong type":       good + `{"message":{"content":3},"done":false}` + "\n" + done + "\n",
		"long line":        good + `{"message":{"content":"` + strings.Repeat("x", lineBuffer+10) + `"}}` + "\n" + good + done + "\n",
		"empty":            "",
		"blank":            "\n \n",
	}
	for name, body := range bodies {
		for _, slow := range []bool{false, true} {
			r, again := io.Reader(strings.NewReader(body)), io.Reader(strings.NewReader(body))
			if slow {
				r, again = iotest.OneByteReader(r), iotest.OneByteReader(again)
			}
			got, want := parseBoth(r, again)
			if slow && sameStart(got.err, want.err) {
				// The invalid JSON quoted is what had arrived: the whole
				// line here, from the Decoder only up to where it failed.
				got.err = want.err
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (byte at a time: %v):\ngot  %+v\nwant %+v", name, slow, got, want)
			}
		}
	}
}

// TestReadLinesOnRecordings: every recorded /api/chat stream parses to the
// same chunks and outcome as with the Decoder alone.
func TestReadLinesOnRecordings(t *testing.T) {
	n := 0
	for _, rel := range replay.Glob(t, "ollama/*.json") {
		rec := replay.Load(t, rel)
		if rec.API != "ollama:api/chat" {
			continue
		}
		n++
		got, want := parseBoth(bytes.NewReader(rec.Body()), bytes.NewReader(rec.Body()))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", rel, got, want)
		}
	}
	if n < 4 {
		t.Errorf("got %d /api/chat recordings, want at least 4", n)
	}
}

// sameStart reports whether got is the invalid-JSON error want, quoting
// the same bytes and perhaps more.
func sameStart(got, want string) bool {
	const prefix = "ollama: invalid JSON from "
	return strings.HasPrefix(want, prefix) && strings.HasSuffix(want, `"`) && strings.HasPrefix(got, want[:len(want)-1])
}
