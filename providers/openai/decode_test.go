package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	sse "github.com/tmaxmax/go-sse"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// decodePayloads are chat chunks and response events the one-pass decoder
// must read exactly as encoding/json does, or refuse so that encoding/json
// reads them.
var decodePayloads = []string{
	`{"choices":[{"index":0,"delta":{"content":"hi \u00e9\n"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"a"},{"type":"thinking","thinking":[{"text":"t"}]}]}}]}`,
	`{"choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0,"id":"c1","function":{"name":"add","arguments":"{\""}}]}}]}`,
	`{"choices":[{"index":0,"delta":{"content":7}}]}`,                        // content of another type: ignored
	`{"choices":[{"index":0,"delta":{"refusal":{"x":1},"content":"kept"}}]}`, // a known field of the wrong type
	`{"choices":[{"index":"0","delta":{"content":"x"}}],"usage":{"prompt_tokens":1}}`,
	`{"Choices":[{"INDEX":0,"Delta":{"Content":"case"}}]}`,
	`{"choices":[{"finishreason":"stop"}]}`,                                          // underscores count
	`{"choices":[{"delta":{"reasoning-content":"x"}}]}`,                              // and dashes
	`{"choices":[{"delta":{"Reasoning_Content":"y"}}]}`,                              // names match ignoring case
	`{"choices":[{"finish_reason":"stop"}],"choices":[{"delta":{"content":"dup"}}]}`, // duplicate names
	"{\"choices\":[{\"delta\":{\"content\":\"bad \xff utf-8\"}}]}",
	`{"choices":[{"delta":{"content":"\ud800 lone surrogate"}}]}`,
	`{"choices":[{"delta":{"tool_calls":[]}}]}`,
	`{"choices":null}`,
	`{"choices":[{"message":null,"delta":null}]}`,
	`{"choices":[{"index":1e0}]}`,
	`{"choices":[{"index":-0,"delta":{"content":"neg zero"}}]}`,
	`{"choices":[{"index":1.0}]}`,
	`{"usage":{"prompt_tokens":99999999999999999999}}`,
	`{"choices":[{"delta":{"content":"a\u0000b\t\"q\"\ud83d\ude00"}}]}`,
	`{"error":{"message":"boom"}}`,
	`{"error":null,"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":9}}`,
	`{"x_groq":{"usage":{"prompt_tokens":4}}}`,
	`{"type":"response.output_text.delta","delta":"d","output_index":1}`,
	`{"type":"response.output_item.added","item":{"type":"function_call","call_id":"c","name":"n","arguments":""}}`,
	`{"type":"error","code":429,"message":"slow down"}`,
	`{"type":"response.completed","response":{"status":"completed","usage":{"input_tokens":1,"output_tokens":"2"}}}`,
	`{"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"whole"}]}]}`,
	`null`,
	`{}`,
	`[]`,
	`"text"`,
	`{"choices":[`,
	`{"choices":[]} trailing`,
	`not json`,
}

// TestDecodeMatchesEncodingJSON decodes each payload with the streamers'
// decode, one streamer for all of them so the reused targets are
// exercised, and compares the result with a fresh encoding/json decode.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	cs := &streamer{site: site{"openai", "http://test/v1/chat/completions"}}
	rs := &rstreamer{site: site{"openai", "http://test/v1/responses"}}
	for _, p := range decodePayloads {
		var wantC chunk
		wantErr := v1Decode([]byte(p), &wantC)
		gotC, err := cs.decode([]byte(p))
		if (err != nil) != wantErr {
			t.Errorf("chat %s: got error %v, want error %v", p, err, wantErr)
		} else if err == nil && !reflect.DeepEqual(normalChunk(*gotC), normalChunk(wantC)) {
			t.Errorf("chat %s:\ngot  %+v\nwant %+v", p, *gotC, wantC)
		}

		var wantE event
		wantErr = v1Decode([]byte(p), &wantE)
		gotE, err := rs.decode([]byte(p))
		if (err != nil) != wantErr {
			t.Errorf("responses %s: got error %v, want error %v", p, err, wantErr)
		} else if err == nil && !reflect.DeepEqual(*gotE, wantE) {
			t.Errorf("responses %s:\ngot  %+v\nwant %+v", p, *gotE, wantE)
		}
	}
}

// TestDecodeFastOnRecordings checks that every event of the recorded
// streams takes the one-pass path and reads as encoding/json reads it.
func TestDecodeFastOnRecordings(t *testing.T) {
	var n int
	for _, dir := range []string{"openai", "openai-compatible", "xai", "azure"} {
		for _, rel := range replay.Glob(t, dir+"/*.json") {
			rec := replay.Load(t, rel)
			if !strings.HasPrefix(rec.StreamFormat, "sse") || rec.Response.Status != 200 {
				continue
			}
			for ev, err := range sse.Read(bytes.NewReader(rec.Body()), nil) {
				if err != nil || ev.Data == "" || ev.Data == "[DONE]" {
					break
				}
				n++
				data := []byte(ev.Data)
				if rec.API == "openai:responses" {
					replay.SameDecode[event](t, rel, data)
				} else {
					replay.SameDecode[chunk](t, rel, data)
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d recorded events decoded; the recordings look incomplete", n)
	}
}

// v1Decode decodes as the streamers did before the one-pass decoder, and
// reports whether the payload was refused.
func v1Decode(data []byte, v any) bool {
	err := json.Unmarshal(data, v)
	var te *json.UnmarshalTypeError
	return err != nil && (!errors.As(err, &te) || te.Field == "")
}

// normalChunk treats an empty choices list like an absent one: the reused
// target keeps its (empty) backing array.
func normalChunk(c chunk) chunk {
	if len(c.Choices) == 0 {
		c.Choices = nil
	}
	return c
}

// TestRawChunksKeepTheirPayload: each raw chunk holds its own event's
// data, though the reader reuses one buffer for all events.
func TestRawChunksKeepTheirPayload(t *testing.T) {
	for _, tt := range []struct {
		tg   replay.Target
		file string
	}{
		{target(), simpleStream},
		{responsesTarget(), responsesStream},
	} {
		rec := replay.Load(t, tt.file)
		var want []string
		for ev, err := range sse.Read(bytes.NewReader(rec.Body()), nil) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Data != "" && ev.Data != "[DONE]" {
				want = append(want, ev.Data)
			}
		}
		req := tt.tg.Request()
		req.Raw = true
		_, chunks, err := replay.Run(t.Context(), tt.tg.New(replay.Serve(t, rec), providers.Timeouts{}), req)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range chunks {
			if c.Type == providers.ChunkRaw {
				got = append(got, string(c.Raw))
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: raw chunks:\ngot  %q\nwant %q", tt.file, got, want)
		}
	}
}
