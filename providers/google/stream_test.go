package google

import (
	"reflect"
	"testing"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestStreamCases replays hand-made streams for what the recordings lack.
func TestStreamCases(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		stop      providers.StopReason
		reasoning []providers.Reasoning
		calls     []providers.ToolCall
		usage     providers.Usage
		warning   string
	}{
		{name: "a signature on a thought part is marked as such",
			body: sse(`{"candidates":[{"content":{"parts":[{"text":"pondering","thought":true,"thoughtSignature":"dGhvdWdodA=="}]}}]}`,
				`{"candidates":[{"content":{"parts":[{"text":"done"}]},"finishReason":"STOP"}]}`),
			stop:      providers.StopNatural,
			reasoning: []providers.Reasoning{{Text: "pondering", Signature: thoughtSigPrefix + "dGhvdWdodA==", Provider: Name}}},
		{name: "parallel calls in one event keep their ids and order",
			body: sse(`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"a","name":"add","args":{"x":1}},"thoughtSignature":"c2ln"},{"functionCall":{"id":"b","name":"mul","args":{"y":[1,2]}}}]},"finishReason":"STOP"}]}`),
			stop: providers.StopToolCalls,
			calls: []providers.ToolCall{{ID: "a", Name: "add", Arguments: `{"x":1}`, Signature: "c2ln"},
				{ID: "b", Name: "mul", Arguments: `{"y":[1,2]}`}}},
		{name: "call arguments come back compact with sorted keys, digits and < kept",
			body:  sse(`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"a","name":"edit","args":{"z": "<b>&</b>", "id": 12345678901234567890, "a": {"y": 1.50, "x": []}}}}]},"finishReason":"STOP"}]}`),
			stop:  providers.StopToolCalls,
			calls: []providers.ToolCall{{ID: "a", Name: "edit", Arguments: `{"a":{"x":[],"y":1.50},"id":12345678901234567890,"z":"<b>&</b>"}`}}},
		{name: "usage counts cached and tool-use prompt tokens as input",
			body:  sse(`{"candidates":[{"content":{"parts":[{"text":"hi"}]},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"promptTokenCount":100,"cachedContentTokenCount":60,"toolUsePromptTokenCount":5,"candidatesTokenCount":7,"thoughtsTokenCount":3,"totalTokenCount":115}}`),
			stop:  providers.StopLength,
			usage: providers.Usage{InputTokens: 105, OutputTokens: 10, ReasoningTokens: 3, CacheReadTokens: 60}},
		{name: "a blocked prompt is a content-filter stop with the reason",
			body:    sse(`{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":9}}`),
			stop:    providers.StopContentFilter,
			usage:   providers.Usage{InputTokens: 9},
			warning: "content_filter"},
		{name: "a safety stop",
			body: sse(`{"candidates":[{"content":{"parts":[{"text":"I"}]},"finishReason":"SAFETY"}]}`),
			stop: providers.StopContentFilter},
		{name: "a malformed function call stop is unknown",
			body: sse(`{"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL"}]}`),
			stop: providers.StopUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := replay.Sequence{replay.SSE(tt.body)}.Serve(t)
			reply, _, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), simpleRequest())
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if reply.Stop != tt.stop || reply.Usage != tt.usage {
				t.Errorf("got stop %q usage %+v, want %q %+v", reply.Stop, reply.Usage, tt.stop, tt.usage)
			}
			if !reflect.DeepEqual(reply.Message.Reasoning, tt.reasoning) {
				t.Errorf("reasoning: got %+v, want %+v", reply.Message.Reasoning, tt.reasoning)
			}
			if !reflect.DeepEqual(reply.Message.ToolCalls, tt.calls) {
				t.Errorf("calls: got %+v, want %+v", reply.Message.ToolCalls, tt.calls)
			}
			var warning string
			for _, w := range reply.Warnings {
				warning = w.Code
			}
			if warning != tt.warning {
				t.Errorf("warning: got %q, want %q", warning, tt.warning)
			}
		})
	}
}

func TestStopReason(t *testing.T) {
	for in, want := range map[finishReason]providers.StopReason{
		"STOP": providers.StopNatural, "MAX_TOKENS": providers.StopLength,
		"SAFETY": providers.StopContentFilter, "RECITATION": providers.StopContentFilter, "BLOCKLIST": providers.StopContentFilter,
		"PROHIBITED_CONTENT": providers.StopContentFilter, "SPII": providers.StopContentFilter,
		"OTHER": providers.StopUnknown, "LANGUAGE": providers.StopUnknown, "": providers.StopUnknown,
	} {
		if got := stopReason(in); got != want {
			t.Errorf("stopReason(%q): got %q, want %q", in, got, want)
		}
	}
}

// TestIntegerEnums: a JSON body with integer enums (what
// $alt=json;enum-encoding=int returns) is read like the string form:
// finish and block reasons by their numbers, the per-modality and safety
// details no one reads skipped, and call arguments kept as sent.
func TestIntegerEnums(t *testing.T) {
	tests := []struct {
		body    string
		stop    providers.StopReason
		usage   providers.Usage
		warning string // the content-filter message
		args    string // of the one call
	}{
		{body: `{"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":2,"safetyRatings":[{"category":8,"probability":1}]}],"usageMetadata":{"promptTokenCount":3,"promptTokensDetails":[{"modality":1}]}}`,
			stop: providers.StopLength, usage: providers.Usage{InputTokens: 3}},
		{body: `{"promptFeedback":{"blockReason":1}}`,
			stop: providers.StopContentFilter, warning: "google: the prompt was blocked (SAFETY)"},
		{body: `{"candidates":[{"finishReason":"STOP","content":{"parts":[{"functionCall":{"name":"f","args":{"category":8}}}]}}]}`,
			stop: providers.StopToolCalls, args: `{"category":8}`},
		{body: `{"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":99}]}`, stop: providers.StopUnknown},
	}
	for _, tt := range tests {
		srv := replay.Sequence{replay.Status(200, "["+tt.body+"]")}.Serve(t)
		reply, chunks, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), simpleRequest())
		if err != nil {
			t.Errorf("%s: got error %v, want nil", tt.body, err)
			continue
		}
		var warning, args string
		for _, c := range chunks {
			if c.Type == providers.ChunkWarning {
				warning = c.Warning.Message
			}
		}
		if len(reply.Message.ToolCalls) == 1 {
			args = reply.Message.ToolCalls[0].Arguments
		}
		if reply.Stop != tt.stop || reply.Usage != tt.usage || warning != tt.warning || args != tt.args {
			t.Errorf("%s:\n got stop %q usage %+v warning %q args %q\nwant %q %+v %q %q",
				tt.body, reply.Stop, reply.Usage, warning, args, tt.stop, tt.usage, tt.warning, tt.args)
		}
	}
}

// TestEnumName: an enum reads from its name or its number; the zero value
// and null read as unset, a number past the table as OTHER, and anything
// else fails.
func TestEnumName(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: `"STOP"`, want: "STOP"},
		{in: `"NEW_REASON"`, want: "NEW_REASON"},
		{in: `1`, want: "STOP"},
		{in: `12`, want: "UNEXPECTED_TOOL_CALL"},
		{in: `40`, want: "OTHER"},
		{in: `0`, want: ""},
		{in: `"FINISH_REASON_UNSPECIFIED"`, want: ""},
		{in: `null`, want: ""},
		{in: `true`, err: true},
		{in: `1.5`, err: true},
	}
	for _, tt := range tests {
		got, err := enumName([]byte(tt.in), finishReasons)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("enumName(%s): got %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestBodyFormats: the same reply is read from SSE under a JSON content
// type, a streamed JSON array and a single generateContent object.
func TestBodyFormats(t *testing.T) {
	const event = `{"candidates":[{"content":{"parts":[{"text":"ok"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3}}`
	for name, body := range map[string]string{
		"sse as application/json": "data: " + event + "\n\n",
		"json array":              "[" + event + "\n]",
		"json object":             "\r\n" + event,
	} {
		t.Run(name, func(t *testing.T) {
			srv := replay.Sequence{replay.Status(200, body)}.Serve(t)
			reply, _, err := replay.Run(t.Context(), newTestProvider(srv, providers.Timeouts{}), simpleRequest())
			if err != nil || reply.Message.Text() != "ok" || reply.Stop != providers.StopNatural {
				t.Errorf("got %q stop %q err %v, want \"ok\", natural, nil", reply.Message.Text(), reply.Stop, err)
			}
		})
	}
}
