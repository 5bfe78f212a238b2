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

// deltaPrefix opens every content_block_delta the API sends.
const deltaPrefix = `{"type":"content_block_delta","index":`

// deltaKinds are the deltas read directly: what follows the index up to
// the opening quote of the one string they carry.
var deltaKinds = [...]struct {
	head, typ string
}{
	{`,"delta":{"type":"text_delta","text":`, "text_delta"},
	{`,"delta":{"type":"thinking_delta","thinking":`, "thinking_delta"},
	{`,"delta":{"type":"input_json_delta","partial_json":`, "input_json_delta"},
}

// decodeDelta fills ev from data when data is a text, thinking or
// argument delta in the API's own layout (white space allowed before the
// closing braces, where the API pads events) and reports whether it did.
// scratch is reused for unescaping.
func decodeDelta(data []byte, ev *eventJSON, scratch *[]byte) bool {
	rest, ok := bytes.CutPrefix(data, []byte(deltaPrefix))
	if !ok {
		return false
	}
	// The index: up to 9 digits (no overflow), no leading zero.
	n, index := 0, 0
	for n < len(rest) && n < 10 && '0' <= rest[n] && rest[n] <= '9' {
		index = index*10 + int(rest[n]-'0')
		n++
	}
	if n == 0 || n > 9 || (n > 1 && rest[0] == '0') {
		return false
	}
	rest = rest[n:]
	for _, k := range deltaKinds {
		after, ok := bytes.CutPrefix(rest, []byte(k.head))
		if !ok {
			continue
		}
		s, tail, ok := jsonString(after, scratch)
		if !ok || !closesTwice(tail) {
			return false
		}
		*ev = eventJSON{Type: "content_block_delta", Index: index}
		ev.Delta.Type = k.typ
		switch k.typ {
		case "text_delta":
			ev.Delta.Text = s
		case "thinking_delta":
			ev.Delta.Thinking = s
		default:
			ev.Delta.PartialJSON = s
		}
		return true
	}
	return false
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
