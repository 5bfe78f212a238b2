package anthropic

import (
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Nearly every event of a reply is a content_block_delta carrying a few
// characters, laid out the same way every time. decodeDelta reads that
// layout directly, without the general decoder's reflection, which costs
// several times more than the bytes it reads. Anything else (another
// event, other key order, extra members, a \u escape of a surrogate,
// invalid UTF-8) is left to the general decoder, so the result is always
// what encoding/json would read. The scanning helpers are the adapter
// package's, shared with the other protocols.

// apiPrefix opens every content_block_delta the API sends; sortedPrefix
// opens one with its keys sorted, as servers that build events from maps
// (test servers, some proxies) send it.
const (
	apiPrefix    = `{"type":"content_block_delta","index":`
	sortedPrefix = `{"delta":{"`
)

// deltaKinds are the deltas read directly: their type, the member holding
// their one string, and what follows the index in the API's layout up to
// that string, written out so that it is compared in one go.
var deltaKinds = [...]struct{ typ, field, api string }{
	{"text_delta", "text", `,"delta":{"type":"text_delta","text":`},
	{"thinking_delta", "thinking", `,"delta":{"type":"thinking_delta","thinking":`},
	{"input_json_delta", "partial_json", `,"delta":{"type":"input_json_delta","partial_json":`},
}

// decodeDelta fills ev from data when data is a text, thinking or
// argument delta laid out as the API sends it (white space allowed before
// the closing braces, where the API pads events) or with its keys sorted,
// and reports whether it did. scratch is reused for unescaping.
func decodeDelta(data []byte, ev *eventJSON, scratch *adapter.Scratch) bool {
	if rest, ok := adapter.CutPrefix(data, apiPrefix); ok {
		return apiDelta(rest, ev, scratch)
	}
	if rest, ok := adapter.CutPrefix(data, sortedPrefix); ok {
		return sortedDelta(rest, ev, scratch)
	}
	return false
}

// apiDelta reads N,"delta":{"type":"T","F":S}} after apiPrefix.
func apiDelta(rest []byte, ev *eventJSON, scratch *adapter.Scratch) bool {
	index, rest, ok := adapter.ReadIndex(rest)
	if !ok {
		return false
	}
	for k, kind := range deltaKinds {
		after, ok := adapter.CutPrefix(rest, kind.api)
		if !ok {
			continue
		}
		s, tail, ok := adapter.ReadText(after, scratch)
		if !ok || !closesTwice(tail) {
			return false
		}
		setDelta(ev, index, k, s)
		return true
	}
	return false
}

// sortedDelta reads F":S,"type":"T"},"index":N,"type":"content_block_delta"}
// after sortedPrefix.
func sortedDelta(rest []byte, ev *eventJSON, scratch *adapter.Scratch) bool {
	for k, kind := range deltaKinds {
		after, ok := adapter.CutPrefixes(rest, kind.field, `":`)
		if !ok {
			continue
		}
		s, tail, ok := adapter.ReadText(after, scratch)
		if !ok {
			return false
		}
		if tail, ok = adapter.CutPrefixes(tail, `,"type":"`, kind.typ, `"},"index":`); !ok {
			return false
		}
		index, tail, ok := adapter.ReadIndex(tail)
		if !ok {
			return false
		}
		tail, ok = adapter.CutPrefix(tail, `,"type":"content_block_delta"}`)
		if !ok || !adapter.OnlySpace(tail) {
			return false
		}
		setDelta(ev, index, k, s)
		return true
	}
	return false
}

// setDelta sets ev to the delta of kind k (an index of deltaKinds) with
// string s, every other field zero.
func setDelta(ev *eventJSON, index, k int, s string) {
	*ev = eventJSON{Type: "content_block_delta", Index: index}
	ev.Delta.Type = deltaKinds[k].typ
	switch k {
	case 0:
		ev.Delta.Text = s
	case 1:
		ev.Delta.Thinking = s
	default:
		ev.Delta.PartialJSON = s
	}
}

// closesTwice reports whether b is two closing braces and nothing else
// but white space.
func closesTwice(b []byte) bool {
	for range 2 {
		b = adapter.SkipSpace(b)
		if len(b) == 0 || b[0] != '}' {
			return false
		}
		b = b[1:]
	}
	return adapter.OnlySpace(b)
}
