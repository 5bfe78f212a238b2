package adapter

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// The helpers below read the few event layouts that make up nearly every
// byte of a stream (a text, reasoning or argument delta) directly, without
// a general decoder's reflection, which costs several times more than the
// bytes it reads. Each adapter builds its direct reader from them and
// compares it with encoding/json over its recordings and a fuzz test.
//
// They are strict in one direction only: whatever they accept, they read
// as encoding/json does; anything they are unsure of (a \u escape of a
// surrogate, invalid UTF-8 in a value that is read, deep nesting, a member
// name with an escape or a non-ASCII letter) they decline, and the caller
// falls back to the general decoder, whose verdict stands.

// CutPrefix removes p from the start of b (bytes.CutPrefix without
// converting p).
func CutPrefix(b []byte, p string) ([]byte, bool) {
	if len(b) < len(p) || string(b[:len(p)]) != p {
		return nil, false
	}
	return b[len(p):], true
}

// CutPrefixes removes the parts from the start of b, in order.
func CutPrefixes(b []byte, parts ...string) ([]byte, bool) {
	for _, p := range parts {
		var ok bool
		if b, ok = CutPrefix(b, p); !ok {
			return nil, false
		}
	}
	return b, true
}

// CutOptional removes p from the start of b when b starts with it.
func CutOptional(b []byte, p string) []byte {
	if rest, ok := CutPrefix(b, p); ok {
		return rest
	}
	return b
}

// SkipOptional skips, in order, each member b starts with of those the
// prefixes open (a comma, the quoted name and a colon); it declines when
// one's value is not JSON.
func SkipOptional(b []byte, prefixes ...string) ([]byte, bool) {
	for _, p := range prefixes {
		if rest, ok := CutPrefix(b, p); ok {
			if b, ok = SkipValue(rest); !ok {
				return nil, false
			}
		}
	}
	return b, true
}

// ReadIndex reads a small non-negative integer: 1 to 9 digits (so it
// cannot overflow), no leading zero, no sign, fraction or exponent.
func ReadIndex(b []byte) (int, []byte, bool) {
	n, v := 0, 0
	for n < len(b) && n < 10 && '0' <= b[n] && b[n] <= '9' {
		v = v*10 + int(b[n]-'0')
		n++
	}
	if n == 0 || n > 9 || (n > 1 && b[0] == '0') {
		return 0, nil, false
	}
	if n < len(b) && (b[n] == '.' || b[n] == 'e' || b[n] == 'E') {
		return 0, nil, false
	}
	return v, b[n:], true
}

// SkipSpace removes JSON white space from the start of b.
func SkipSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// OnlySpace reports whether b holds nothing but JSON white space.
func OnlySpace(b []byte) bool { return len(SkipSpace(b)) == 0 }

// isSpace tests c > ' ' first: nearly every byte a reader asks about is
// not white space.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

// ReadBool reads true or false.
func ReadBool(b []byte) (v bool, rest []byte, ok bool) {
	if rest, ok = CutPrefix(b, "true"); ok {
		return true, rest, true
	}
	rest, ok = CutPrefix(b, "false")
	return false, rest, ok
}

// scanString checks the JSON string b opens with as encoding/json's
// scanner does (no control characters, only defined escapes) and returns
// the index just past its closing quote, whether it holds escapes, and
// whether it is all ASCII. UTF-8 is not checked. Runs of plain bytes are
// stepped over eight at a time.
func scanString(b []byte) (end int, escaped, ascii, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return 0, false, false, false
	}
	var high uint64 // the bytes stepped over, OR-ed: a high bit means non-ASCII
	for i := 1; ; {
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			if k := firstSpecial(x); k < 8 {
				high |= x & (1<<(8*k) - 1)
				i += k
				break
			}
			high |= x
			i += 8
		}
		if i >= len(b) {
			return 0, false, false, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, high&highBits == 0, true
		case c == '\\':
			escaped = true
			n, ok := escapeLen(b[i:])
			if !ok {
				return 0, false, false, false
			}
			i += n
		case c < 0x20:
			return 0, false, false, false
		default:
			high |= uint64(c)
			i++
		}
	}
}

// scanName checks the JSON string b opens with is a member name a caller
// can compare byte for byte, plain ASCII without escapes, and returns the
// index just past its closing quote.
func scanName(b []byte) (end int, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return 0, false
	}
	i := 1
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := specialOrHigh(x); m != 0 {
			i += bits.TrailingZeros64(m) / 8
			return i + 1, b[i] == '"'
		}
	}
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return 0, false
		}
	}
	return 0, false
}

// skipString checks the JSON string b opens with as scanString does and
// returns the index just past its closing quote, for a value that is
// skipped: neither its escapes nor its bytes are reported.
func skipString(b []byte) (end int, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return 0, false
	}
	for i := 1; ; {
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			if k := firstSpecial(x); k < 8 {
				i += k
				break
			}
			i += 8
		}
		if i >= len(b) {
			return 0, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			n, ok := escapeLen(b[i:])
			if !ok {
				return 0, false
			}
			i += n
		case c < 0x20:
			return 0, false
		default:
			i++
		}
	}
}

// escapeLen returns the length of the escape b opens with (a backslash
// and what follows it), or false for one JSON does not define.
func escapeLen(b []byte) (int, bool) {
	if len(b) < 2 {
		return 0, false
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
		if len(b) < 6 || !isHex(b[2]) || !isHex(b[3]) || !isHex(b[4]) || !isHex(b[5]) {
			return 0, false
		}
		return 6, true
	}
	return 0, false
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// firstSpecial returns the index of the first of the eight bytes of x (in
// memory order) that is a quote, a backslash or a control character, or 8
// when none is. It uses the classic "has a zero byte" and "has a byte less
// than n" tests, whose lowest flag is exact: a false one can only follow a
// true one.
func firstSpecial(x uint64) int {
	return bits.TrailingZeros64(special(x)) / 8
}

// special flags (with its high bit) each of the eight bytes of x that is
// a quote, a backslash or a control character, and maybe some bytes after
// the first flagged one.
func special(x uint64) uint64 {
	q := x ^ (lowBits * '"')
	s := x ^ (lowBits * '\\')
	return ((x-lowBits*0x20)&^x | (q-lowBits)&^q | (s-lowBits)&^s) & highBits
}

// specialOrHigh is special with the non-ASCII bytes flagged too.
func specialOrHigh(x uint64) uint64 { return special(x) | x&highBits }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexValue(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c <= '9':
			r = r<<4 | rune(c-'0')
		case c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			r = r<<4 | rune(c-'a'+10)
		}
	}
	return r
}

// ReadString reads the JSON string b opens with and returns its value and
// what follows it. It declines (ok false) invalid strings, strings holding
// invalid UTF-8 and \u escapes of UTF-16 surrogates, whose replacement
// rules it leaves to the general decoder. scratch is reused for
// unescaping.
func ReadString(b []byte, scratch *Scratch) (s string, rest []byte, ok bool) {
	v, rest, ok := readString(b, scratch)
	if !ok {
		return "", nil, false
	}
	return string(v), rest, true
}

// ReadText is ReadString for a delta's text, which the stream's caller
// copies on (joins, appends to a reply): the value is copied into a block
// scratch shares with the deltas before and after it, not allocated on
// its own.
func ReadText(b []byte, scratch *Scratch) (s string, rest []byte, ok bool) {
	v, rest, ok := readString(b, scratch)
	if !ok {
		return "", nil, false
	}
	return scratch.text(v), rest, true
}

// readString is ReadString's work: the value's bytes, in b when it holds
// no escape, else in scratch, valid until scratch is used again.
func readString(b []byte, scratch *Scratch) (v, rest []byte, ok bool) {
	end, escaped, ascii, ok := scanString(b)
	if !ok {
		return nil, nil, false
	}
	body := b[1 : end-1]
	if !ascii && !utf8.Valid(body) {
		return nil, nil, false
	}
	if !escaped {
		return body, b[end:], true
	}
	out := scratch.buf[:0]
	for len(body) > 0 {
		i := 0
		for i < len(body) && body[i] != '\\' {
			i++
		}
		out = append(out, body[:i]...)
		if i == len(body) {
			break
		}
		// scanString checked every escape is complete.
		switch c := body[i+1]; c {
		case 'u':
			r := hexValue(body[i+2:])
			if utf8.RuneLen(r) < 0 { // a surrogate
				return nil, nil, false
			}
			out = utf8.AppendRune(out, r)
			body = body[i+6:]
			continue
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		default: // " \ /
			out = append(out, c)
		}
		body = body[i+2:]
	}
	scratch.buf = out
	return out, b[end:], true
}

// ReadKnownString is ReadString for a member with a few usual values
// (an event type): a value equal to one of known is returned as that
// string, without a copy.
func ReadKnownString(b []byte, known []string, scratch *Scratch) (string, []byte, bool) {
	end, escaped, _, ok := scanString(b)
	if ok && !escaped {
		for _, k := range known {
			if string(b[1:end-1]) == k {
				return k, b[end:], true
			}
		}
	}
	return ReadString(b, scratch)
}
