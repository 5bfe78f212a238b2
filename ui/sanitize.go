package ui

import (
	"io"
	"unicode/utf8"
)

// Text that comes from outside llmrt — the model's answer, reasoning and
// narration, tool output, MCP results, a server's stderr, file names,
// error messages — reaches a terminal only as text: every control
// character is taken out except newline and tab, and with it the whole
// escape sequence it starts (CSI, OSC, DCS, SOS, PM, APC, and the 8-bit
// C1 forms of each), payload included, so an OSC 8 link keeps its
// visible text and loses its target, and an OSC 0 title or OSC 52
// clipboard write disappears whole. Backspace and carriage return go too:
// they would let text overstrike what is already on the line.
//
// A Sanitizer does this to a stream: the state of an unfinished sequence
// (or of an unfinished UTF-8 character) carries over to the next piece, so
// an ESC at the end of one delta and "]0;title" in the next are removed
// together. Sanitize does it to a whole string.

// scanState is where a Sanitizer is within an escape sequence.
type scanState uint8

const (
	stText      scanState = iota
	stEsc                 // after ESC
	stEscInter            // after ESC and intermediate bytes (0x20-0x2F)
	stCSI                 // in a control sequence's parameters
	stString              // in the payload of OSC, DCS, SOS, PM or APC
	stStringEsc           // after ESC within a payload: ST if '\' follows
)

const esc = 0x1b

// Sanitizer removes terminal control sequences from a stream of text that
// arrives in pieces. The zero value is ready to use; a Sanitizer is not
// safe for concurrent use.
type Sanitizer struct {
	state scanState
	// held is an incomplete UTF-8 character at the end of the last piece,
	// put before the next.
	held []byte
}

// String returns piece without control sequences, continuing whatever
// sequence the pieces before it left open. Text that holds nothing to
// remove is returned as it is, without copying.
func (s *Sanitizer) String(piece string) string {
	if s.state == stText && len(s.held) == 0 {
		i := safePrefix(piece)
		if i == len(piece) {
			return piece
		}
		out := make([]byte, i, len(piece))
		copy(out, piece)
		return string(s.scan(out, piece[i:], true, false))
	}
	if len(s.held) > 0 {
		piece = string(s.held) + piece
		s.held = s.held[:0]
	}
	return string(s.scan(make([]byte, 0, len(piece)), piece, true, false))
}

// Reset ends the stream: an unfinished sequence or character is dropped,
// and the next piece starts as plain text.
func (s *Sanitizer) Reset() {
	s.state, s.held = stText, s.held[:0]
}

// Sanitize returns s without terminal control sequences and control
// characters other than newline and tab; invalid UTF-8 becomes U+FFFD.
// A string that holds nothing to remove is returned as it is.
func Sanitize(s string) string { return clean(s, safePrefix(s), false) }

// clean scans s from from, the length of its prefix known to need
// nothing removed; keep says SGR sequences stay.
func clean(s string, from int, keep bool) string {
	if from == len(s) {
		return s
	}
	var z Sanitizer
	out := make([]byte, from, len(s))
	copy(out, s)
	return string(z.scan(out, s[from:], false, keep))
}

// keepStyle is Sanitize for llmrt's own rendered output (the renderer's
// blocks, the chat screen's lines, progress lines, inline forms): SGR
// sequences, which only set colours and
// attributes, are kept; every other sequence and control goes. It is the
// last line of defence: outside text was cleaned on its way in, and this
// makes sure that nothing that moves the cursor, clears the screen, sets
// a title, writes the clipboard, makes a link or rings the bell leaves
// llmrt's renderers, whatever path it came by.
func keepStyle(s string) string { return clean(s, styledPrefix(s), true) }

// safePrefix returns the length of the prefix of s that is plain text:
// printable characters, newlines and tabs, valid UTF-8, no C1 controls.
// Eight bytes of printable ASCII are checked at a time: this is what a
// streamed delta or a tool result costs when it holds nothing to remove.
func safePrefix(s string) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	i := 0
	for i < len(s) {
		if i+8 <= len(s) {
			x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			// No byte under 0x20 and none over 0x7e.
			if ((x-lsb*0x20)&^x|(x+lsb)|x)&msb == 0 {
				i += 8
				continue
			}
		}
		b := s[i]
		if b >= 0x20 && b < 0x7f || b == '\n' || b == '\t' {
			i++
			continue
		}
		if b < 0x80 {
			return i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r < 0xa0 {
			return i
		}
		i += n
	}
	return i
}

// styledPrefix returns the length of the prefix of s that keepStyle
// keeps as it is: plain text and SGR sequences. llmrt's own frames are
// nothing else, so they are checked without being copied.
func styledPrefix(s string) int {
	i := 0
	for {
		i += safePrefix(s[i:])
		if i == len(s) || s[i] != esc {
			return i
		}
		j := sgrEnd(s, i)
		if j == 0 {
			return i
		}
		i = j
	}
}

// scan appends to out what p leaves once its controls are removed.
// stream holds back an incomplete UTF-8 character at the end of p for
// the next piece; keep keeps SGR sequences.
func (s *Sanitizer) scan(out []byte, p string, stream, keep bool) []byte {
	start := -1 // where the sequence being read began in p, for keep
	for i := 0; i < len(p); {
		switch s.state {
		case stText:
			// Runs of plain text are copied whole.
			if j := i + safePrefix(p[i:]); j > i {
				out = append(out, p[i:j]...)
				if i = j; i == len(p) {
					return out
				}
			}
			if keep && p[i] == esc {
				if j := sgrEnd(p, i); j > 0 {
					out = append(out, p[i:j]...)
					i = j
					continue
				}
			}
		case stString:
			// A payload is skipped up to the next byte that could end it.
			for i < len(p) && p[i] >= 0x20 && p[i] < 0x80 {
				i++
			}
			if i == len(p) {
				return out
			}
		}
		b := p[i]
		if b < 0x80 {
			if b == esc {
				start = i
			}
			var again bool
			out, again = s.step(out, b, keep, p, start, i)
			if !again {
				i++
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			if stream && !utf8.FullRuneInString(p[i:]) {
				s.held = append(s.held, p[i:]...)
				return out
			}
			if s.state == stText {
				out = append(out, "\uFFFD"...)
			}
		case r < 0xa0:
			// A C1 control is the 8-bit form of ESC and a byte: 0x9b is
			// CSI, 0x9d OSC, 0x9c ST. It is never kept.
			start = -1
			out, _ = s.step(out, esc, false, p, -1, i)
			for again := true; again; {
				out, again = s.step(out, byte(r-0x40), false, p, -1, i)
			}
		default:
			switch s.state {
			case stText:
				out = append(out, p[i:i+n]...)
			case stEsc, stEscInter, stCSI:
				// Text ends a malformed sequence and is kept.
				s.state = stText
				out = append(out, p[i:i+n]...)
			}
		}
		i += n
	}
	return out
}

// sgrEnd returns the end of the SGR sequence at p[i] (an ESC), or 0 when
// none starts there.
func sgrEnd(p string, i int) int {
	if i+2 >= len(p) || p[i+1] != '[' {
		return 0
	}
	for j := i + 2; j < len(p); j++ {
		switch c := p[j]; {
		case c == 'm':
			return j + 1
		case (c < '0' || c > '9') && c != ';' && c != ':':
			return 0
		}
	}
	return 0
}

// step moves the scan over one 7-bit byte b, appending what is kept. It
// returns again when b must be looked at once more in the new state. p,
// start and i locate b and its sequence for keep.
func (s *Sanitizer) step(out []byte, b byte, keep bool, p string, start, i int) ([]byte, bool) {
	switch s.state {
	case stText:
		switch {
		case b == esc:
			s.state = stEsc
		case b >= 0x20 && b < 0x7f || b == '\n' || b == '\t':
			out = append(out, b)
		}
	case stEsc, stEscInter:
		switch {
		case b == esc:
			s.state = stEsc
		case b == '\n':
			s.state = stText
			out = append(out, b)
		case s.state == stEsc && b == '[':
			s.state = stCSI
		case s.state == stEsc && (b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_'):
			s.state = stString
		case b >= 0x20 && b <= 0x2f:
			s.state = stEscInter
		case b >= 0x30 && b <= 0x7e:
			s.state = stText // a complete two-byte sequence
		}
	case stCSI:
		switch {
		case b == esc:
			s.state = stEsc
		case b == '\n':
			s.state = stText
			out = append(out, b)
		case b >= 0x40 && b <= 0x7e:
			s.state = stText
			if keep && b == 'm' && start >= 0 && sgrParams(p[start+2:i]) {
				out = append(out, p[start:i+1]...)
			}
		}
	case stString:
		switch b {
		case 0x07, 0x18, 0x1a: // BEL ends an OSC; CAN and SUB abort any
			s.state = stText
		case esc:
			s.state = stStringEsc
		case '\n':
			// A payload never runs past the end of a line: an unterminated
			// sequence must not swallow the rest of an answer.
			s.state = stText
			out = append(out, b)
		}
	case stStringEsc:
		if b == '\\' {
			s.state = stText
			return out, false
		}
		s.state = stEsc
		return out, true
	}
	return out, false
}

// sgrParams reports whether p is the parameter string of a plain SGR
// sequence: digits, ';' and ':' only.
func sgrParams(p string) bool {
	for i := 0; i < len(p); i++ {
		if c := p[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// TextWriter writes streamed text from outside llmrt to a writer as plain
// text: control sequences are removed as the text streams, so one split
// across two writes goes whole. It is how `llmrt run` prints an answer
// that is not rendered (piped, or -o text without a terminal).
type TextWriter struct {
	w     io.Writer
	clean Sanitizer
}

// NewTextWriter returns a TextWriter writing to w.
func NewTextWriter(w io.Writer) *TextWriter { return &TextWriter{w: w} }

// Write writes p without its control sequences. It reports len(p) written
// when the underlying write succeeds, whatever was removed.
func (t *TextWriter) Write(p []byte) (int, error) { return t.WriteString(string(p)) }

// WriteString is Write for a string, which io.WriteString then passes
// without a copy: a whole answer is printed this way.
func (t *TextWriter) WriteString(s string) (int, error) {
	if c := t.clean.String(s); c != "" {
		if _, err := io.WriteString(t.w, c); err != nil {
			return 0, err
		}
	}
	return len(s), nil
}
