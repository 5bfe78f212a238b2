package openai

import (
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Nearly every event of a streamed response is a delta: a few characters
// of output text, reasoning (summary) text or a call's arguments, with the
// item's id, an index or two and a sequence number. decodeEvent reads such
// an event directly, in any key order, as decodeChunk does for Chat
// Completions: only the strings and indices the event type declares are
// read, members no field matches are skipped, and anything else (an item,
// a response object, an error's code, a name matching a field only by
// case, a repeated member, a string left to encoding/json) declines the
// event, which then goes to the general decoder.

// eventNames are the fields of event, its embedded response included.
var eventNames = adapter.NewFields("type", "delta", "output_index", "summary_index", "arguments", "item", "response",
	"code", "message", "status", "output", "usage", "incomplete_details", "error")

// deltaTypes are the types of the events decodeEvent reads most often,
// kept without a copy.
var deltaTypes = []string{"response.output_text.delta", "response.reasoning_summary_text.delta",
	"response.reasoning_text.delta", "response.function_call_arguments.delta"}

// decodeEvent fills ev from data when data is an event it reads directly
// and reports whether it did; scratch is reused for unescaping.
func decodeEvent(data []byte, ev *event, scratch *adapter.Scratch) bool {
	if apiDelta(data, ev, scratch) {
		return true
	}
	var e event
	var seen uint
	text := func(bit uint, dst *string, v []byte) ([]byte, bool) {
		if !adapter.Once(&seen, bit) {
			return nil, false
		}
		s, rest, ok := adapter.ReadText(v, scratch)
		*dst = s
		return rest, ok
	}
	index := func(bit uint, dst *int, v []byte) ([]byte, bool) {
		if !adapter.Once(&seen, bit) {
			return nil, false
		}
		i, rest, ok := adapter.ReadIndex(v)
		*dst = i
		return rest, ok
	}
	rest, ok := adapter.Members(data, func(name, v []byte) ([]byte, bool) {
		switch string(name) {
		case "type":
			if !adapter.Once(&seen, 1) {
				return nil, false
			}
			t, rest, ok := adapter.ReadKnownString(v, deltaTypes, scratch)
			e.Type = t
			return rest, ok
		case "delta":
			return text(2, &e.Delta, v)
		case "arguments":
			return text(4, &e.Arguments, v)
		case "output_index":
			return index(8, &e.OutputIndex, v)
		case "summary_index":
			return index(16, &e.SummaryIndex, v)
		}
		return adapter.SkipUnread(name, v, eventNames)
	})
	if !ok || !adapter.OnlySpace(rest) {
		return false
	}
	*ev = e
	return true
}

// apiDelta reads a delta laid out as OpenAI sends it, "type" first and the
// other members in the order of their names, without white space:
//
//	{"type":T,["content_index":N,]"delta":S,"item_id":S,["logprobs":[],]
//	["obfuscation":S,]"output_index":N,"sequence_number":N[,"summary_index":N]}
//
// with T one of deltaTypes. Comparing the names in place costs a fraction
// of walking the members; any other layout is walked.
func apiDelta(data []byte, ev *event, scratch *adapter.Scratch) bool {
	// The fields are set on ev at the end, in one go: event is large, and
	// a copy of it per delta costs as much as reading one.
	var delta string
	var summary int
	// Up to the text, a reply's deltas are the same: the opening is
	// checked once (see adapter.Span), and so are the item's id and the
	// output index after the text.
	b, kind, ok := scratch.Spans[2].Step(data, eventOpening)
	if !ok {
		return false
	}
	typ := deltaTypes[kind]
	if delta, b, ok = adapter.ReadText(b, scratch); !ok {
		return false
	}
	// After the text, a reply's deltas differ only in the obfuscation and
	// the sequence number.
	if b, _, ok = scratch.Spans[0].Step(b, eventItem); !ok {
		return false
	}
	if b, ok = adapter.SkipOptional(b, `,"obfuscation":`); !ok {
		return false
	}
	rest, output, ok := scratch.Spans[1].Step(b, eventIndex)
	if !ok {
		return false
	}
	if b, ok = adapter.SkipValue(rest); !ok { // the sequence number
		return false
	}
	if rest, ok := adapter.CutPrefix(b, `,"summary_index":`); ok {
		if summary, b, ok = adapter.ReadIndex(rest); !ok {
			return false
		}
	}
	if b, ok = adapter.CutPrefix(b, "}"); !ok || !adapter.OnlySpace(b) {
		return false
	}
	*ev = event{Type: typ, Delta: delta, OutputIndex: output, SummaryIndex: summary}
	return true
}

// eventOpening reads {"type":T,["content_index":N,]"delta": and returns
// T's place in deltaTypes.
func eventOpening(b []byte) ([]byte, int, bool) {
	b, ok := adapter.CutPrefix(b, `{"type":"`)
	if !ok {
		return nil, 0, false
	}
	kind := -1
	for i, t := range deltaTypes {
		if rest, ok := adapter.CutPrefixes(b, t, `",`); ok {
			kind, b = i, rest
			break
		}
	}
	if kind < 0 {
		return nil, 0, false
	}
	if rest, ok := adapter.CutPrefix(b, `"content_index":`); ok {
		if b, ok = adapter.SkipValue(rest); !ok {
			return nil, 0, false
		}
		if b, ok = adapter.CutPrefix(b, ","); !ok {
			return nil, 0, false
		}
	}
	if b, ok = adapter.CutPrefix(b, `"delta":`); !ok {
		return nil, 0, false
	}
	return b, kind, true
}

// eventItem reads ,"item_id":S[,"logprobs":[]]; it reads no index.
func eventItem(b []byte) ([]byte, int, bool) {
	b, ok := adapter.CutPrefix(b, `,"item_id":`)
	if !ok {
		return nil, 0, false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return nil, 0, false
	}
	return adapter.CutOptional(b, `,"logprobs":[]`), 0, true
}

// eventIndex reads ,"output_index":N,"sequence_number": and returns N.
func eventIndex(b []byte) (rest []byte, index int, ok bool) {
	if b, ok = adapter.CutPrefix(b, `,"output_index":`); !ok {
		return nil, 0, false
	}
	if index, b, ok = adapter.ReadIndex(b); !ok {
		return nil, 0, false
	}
	if b, ok = adapter.CutPrefix(b, `,"sequence_number":`); !ok {
		return nil, 0, false
	}
	return b, index, true
}
