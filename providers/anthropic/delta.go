package anthropic

import (
	"bytes"
	"unicode/utf8"
)

// Nearly every event of a reply is a content_block_delta carrying a few
// characters, laid out the same way every time. decodeDelta reads that
// layout directly, without the general decoder's reflection, which costs
// several times more than the bytes it reads. Anything else (another
// event, other key order, extra members, a \u escape, invalid UTF-8) is
// left to the general decoder, so the result is always what encoding/json
// would read.

// apiPrefix opens every content_block_delta the API sends; sortedPrefix
// opens one with its keys sorted, as servers that build events from maps
// (test servers, some proxies) send it.
const (
	apiPrefix    = `{"type":"content_block_delta","index":`
	sortedPrefix = `{"delta":{"`
)

// deltaKinds are the deltas read directly: their type and the member
// holding their one string.
var deltaKinds = [...]struct{ typ, field string }{
	{"text_delta", "text"},
	{"thinking_delta", "thinking"},
	{"input_json_delta", "partial_json"},
}

// decodeDelta fills ev from data when data is a text, thinking or
// argument delta laid out as the API sends it (white space allowed before
// the closing braces, where the API pads events) or with its keys sorted,
// and reports whether it did. scratch is reused for unescaping.
func decodeDelta(data []byte, ev *eventJSON, scratch *[]byte) bool {
	if rest, ok := cut(data, apiPrefix); ok {
		return apiDelta(rest, ev, scratch)
	}
	if rest, ok := cut(data, sortedPrefix); ok {
		return sortedDelta(rest, ev, scratch)
	}
	return false
}

// apiDelta reads N,"delta":{"type":"T","F":S}} after apiPrefix.
func apiDelta(rest []byte, ev *eventJSON, scratch *[]byte) bool {
	index, rest, ok := deltaIndex(rest)
	if !ok {
		return false
	}
	for k, kind := range deltaKinds {
		after, ok := cutAll(rest, `,"delta":{"type":"`, kind.typ, `","`, kind.field, `":`)
		if !ok {
			continue
		}
		s, tail, ok := jsonString(after, scratch)
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
func sortedDelta(rest []byte, ev *eventJSON, scratch *[]byte) bool {
	for k, kind := range deltaKinds {
		after, ok := cutAll(rest, kind.field, `":`)
		if !ok {
			continue
		}
		s, tail, ok := jsonString(after, scratch)
		if !ok {
			return false
		}
		if tail, ok = cutAll(tail, `,"type":"`, kind.typ, `"},"index":`); !ok {
			return false
		}
		index, tail, ok := deltaIndex(tail)
		if !ok {
			return false
		}
		tail, ok = cut(tail, `,"type":"content_block_delta"}`)
		if !ok || len(bytes.TrimLeft(tail, " \t\r\n")) != 0 {
			return false
		}
		setDelta(ev, index, k, s)
		return true
	}
	return false
}

// deltaIndex reads an index: up to 9 digits (no overflow), no leading
// zero.
func deltaIndex(b []byte) (int, []byte, bool) {
	n, index := 0, 0
	for n < len(b) && n < 10 && '0' <= b[n] && b[n] <= '9' {
		index = index*10 + int(b[n]-'0')
		n++
	}
	if n == 0 || n > 9 || (n > 1 && b[0] == '0') {
		return 0, nil, false
	}
	return index, b[n:], true
}

// cutAll removes the parts from the start of b, in order.
func cutAll(b []byte, parts ...string) ([]byte, bool) {
	for _, p := range parts {
		var ok bool
		if b, ok = cut(b, p); !ok {
			return nil, false
		}
	}
	return b, true
}

// cut removes p from the start of b (bytes.CutPrefix without converting
// p).
func cut(b []byte, p string) ([]byte, bool) {
	if len(b) < len(p) || string(b[:len(p)]) != p {
		return nil, false
	}
	return b[len(p):], true
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

// jsonString reads the JSON string b opens with and returns its value and
// what follows it. It declines (ok false) strings with \u escapes, control
// characters or invalid UTF-8, whose handling it leaves to the general
// decoder.
func jsonString(b []byte, scratch *[]byte) (s string, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return "", nil, false
	}
	escaped, ascii := false, true
	end := -1
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			end = i
		case c == '\\':
			escaped = true
			i++ // the escaped byte cannot end the string
			continue
		case c < 0x20:
			return "", nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return "", nil, false
	}
	body := b[1:end]
	if !ascii && !utf8.Valid(body) {
		return "", nil, false
	}
	if !escaped {
		return string(body), b[end+1:], true
	}
	out := (*scratch)[:0]
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch body[i] {
		case '"', '\\', '/':
			out = append(out, body[i])
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		default: // \u, or not an escape at all
			return "", nil, false
		}
	}
	*scratch = out
	return string(out), b[end+1:], true
}

// closesTwice reports whether b is two closing braces and nothing else
// but white space.
func closesTwice(b []byte) bool {
	for range 2 {
		b = bytes.TrimLeft(b, " \t\r\n")
		if len(b) == 0 || b[0] != '}' {
			return false
		}
		b = b[1:]
	}
	return len(bytes.TrimLeft(b, " \t\r\n")) == 0
}
