package engine

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// answerScanner decodes the top-level "answer" string of final_answer
// arguments incrementally, as argument fragments stream in, so hosts can
// print the answer while it is generated (answer_delta). It is a small
// state machine over JSON text; anything it does not understand simply
// yields no text, and the complete answer still arrives in the Result.
type answerScanner struct {
	state     scanState
	depth     int
	expectKey bool
	key       strings.Builder
	lastKey   string
	afterKey  bool // a ':' followed the key "answer"

	esc   bool
	hex   []byte // digits of a \u escape being read
	high  rune   // pending high surrogate
	strEs bool   // escape inside a skipped string
}

type scanState uint8

const (
	scanValue  scanState = iota // between tokens
	scanKey                     // inside an object key at depth 1
	scanSkip                    // inside a string we do not decode
	scanAnswer                  // inside the answer string
	scanDone                    // the answer string ended
)

// Feed consumes a fragment and returns the answer text it completes.
func (s *answerScanner) Feed(frag string) string {
	if s.state == scanDone {
		return ""
	}
	var out strings.Builder
	for i := 0; i < len(frag); i++ {
		c := frag[i]
		switch s.state {
		case scanValue:
			s.value(c)
		case scanKey:
			s.keyByte(c)
		case scanSkip:
			s.skipByte(c)
		case scanAnswer:
			s.answerByte(c, &out)
			if s.state == scanDone {
				return out.String()
			}
		}
	}
	return out.String()
}

func (s *answerScanner) value(c byte) {
	switch c {
	case '{':
		s.depth++
		s.expectKey = s.depth == 1
	case '[':
		s.depth++
	case '}', ']':
		s.depth--
	case ',':
		s.expectKey = s.depth == 1
		s.afterKey = false
	case ':':
		s.expectKey = false
		s.afterKey = s.depth == 1 && s.lastKey == "answer"
	case '"':
		switch {
		case s.depth == 1 && s.expectKey:
			s.key.Reset()
			s.state = scanKey
		case s.afterKey:
			s.state = scanAnswer
		default:
			s.state = scanSkip
		}
	}
}

func (s *answerScanner) keyByte(c byte) {
	switch {
	case s.strEs:
		s.strEs = false
		s.key.WriteByte(c)
	case c == '\\':
		s.strEs = true
	case c == '"':
		s.lastKey = s.key.String()
		s.state = scanValue
	default:
		s.key.WriteByte(c)
	}
}

func (s *answerScanner) skipByte(c byte) {
	switch {
	case s.strEs:
		s.strEs = false
	case c == '\\':
		s.strEs = true
	case c == '"':
		s.state = scanValue
	}
}

func (s *answerScanner) answerByte(c byte, out *strings.Builder) {
	switch {
	case s.hex != nil:
		s.hex = append(s.hex, c)
		if len(s.hex) == 4 {
			s.unicode(out)
		}
	case s.esc:
		s.esc = false
		switch c {
		case 'n':
			s.put(out, '\n')
		case 't':
			s.put(out, '\t')
		case 'r':
			s.put(out, '\r')
		case 'b':
			s.put(out, '\b')
		case 'f':
			s.put(out, '\f')
		case 'u':
			s.hex = make([]byte, 0, 4)
		default: // '"', '\\', '/'
			s.put(out, rune(c))
		}
	case c == '\\':
		s.esc = true
	case c == '"':
		s.flushHigh(out)
		s.state = scanDone
	default:
		s.flushHigh(out)
		out.WriteByte(c) // raw UTF-8 bytes pass through unchanged
	}
}

func (s *answerScanner) unicode(out *strings.Builder) {
	var r rune
	for _, h := range s.hex {
		r <<= 4
		switch {
		case h >= '0' && h <= '9':
			r |= rune(h - '0')
		case h >= 'a' && h <= 'f':
			r |= rune(h-'a') + 10
		case h >= 'A' && h <= 'F':
			r |= rune(h-'A') + 10
		default:
			r = utf8.RuneError
		}
	}
	s.hex = nil
	if utf16.IsSurrogate(r) && r < 0xDC00 {
		s.flushHigh(out)
		s.high = r
		return
	}
	if s.high != 0 {
		pair := utf16.DecodeRune(s.high, r)
		s.high = 0
		out.WriteRune(pair)
		return
	}
	out.WriteRune(r)
}

func (s *answerScanner) put(out *strings.Builder, r rune) {
	s.flushHigh(out)
	out.WriteRune(r)
}

func (s *answerScanner) flushHigh(out *strings.Builder) {
	if s.high != 0 {
		out.WriteRune(utf8.RuneError)
		s.high = 0
	}
}
