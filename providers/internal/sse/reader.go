package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
)

// ErrUnexpectedEOF reports a stream that ended inside a line: the last
// field was cut off.
var ErrUnexpectedEOF = errors.New("sse: the stream ended in the middle of a line")

// bufferSize is the reader's first buffer: twice the 64 KiB a caller's
// bufio.Reader usually holds, so that once the event being read is moved
// to the buffer's start there is room for a read as large as that
// bufio.Reader, which it then hands straight to the network without a
// copy of its own.
const bufferSize = 128 << 10

// maxFieldName is the length of the longest field name ("event", "retry");
// a line whose colon comes later is not a field.
const maxFieldName = 5

// Reader reads events from a stream. Call Next until it returns false,
// then Err. The data of an event is valid until the next call to Next.
type Reader struct {
	r   io.Reader
	max int // the largest event, in bytes

	buf        []byte // read from r; buf[pos:end] is not yet parsed
	pos, end   int
	skipLF     bool // the last line ended in \r: a \n right after it belongs to it
	cr         int  // the index in buf of the next \r from pos on (MaxInt: none before end), or below pos when not known
	eof        bool
	begun      bool // a line was read (a byte order mark may open the stream)
	eventBytes int  // the size of the event being read, for the max

	// data is the event's data so far, its lines joined by newlines. A
	// single data line is not copied: data then points into buf (aliased),
	// and is copied to own before fill moves what buf holds.
	data    []byte
	own     []byte
	aliased bool
	hasData bool // a data line was read
	typ     string
	name    string // the last event type read, kept so a repeat costs nothing
	dirty   bool   // a field of the current event was read
	err     error
}

// NewReader reads events from r. An event larger than maxEventSize bytes
// fails the stream with bufio.ErrTooLong, as a bufio.Scanner would.
func NewReader(r io.Reader, maxEventSize int) *Reader {
	return &Reader{r: r, max: maxEventSize, cr: -1}
}

// Next reads the next event and reports whether there is one. At the end
// of the stream (or on an error) it returns false; Err tells which.
func (r *Reader) Next() bool {
	r.data, r.aliased, r.hasData = nil, false, false
	r.typ, r.dirty, r.eventBytes = "", false, 0
	if r.quick() {
		return true
	}
	for r.err == nil {
		line, ok := r.line()
		if !ok {
			// A clean end dispatches the event in progress.
			if r.err == io.EOF {
				return r.dirty
			}
			return false
		}
		if len(line) == 0 {
			if r.dirty {
				return true
			}
			continue
		}
		r.field(line)
	}
	return false
}

// field handles one line of an event.
func (r *Reader) field(line []byte) {
	if !r.begun {
		r.begun = true
		line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
	}
	colon := fieldEnd(line)
	if colon > maxFieldName {
		return
	}
	var value []byte
	if colon < 0 {
		colon = len(line)
	} else {
		value = line[colon+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(line[:colon]) {
	case "data":
		if !r.hasData {
			r.data, r.aliased, r.hasData = value, true, true
		} else {
			r.keep()
			r.data = append(append(r.data, '\n'), value...)
		}
		r.dirty = true
	case "event":
		if r.name != string(value) {
			r.name = string(value)
		}
		r.typ = r.name
		r.dirty = true
	case "id":
		// An id holding a NUL is ignored, as the standard says; any
		// other id marks the event, though nothing here reads it.
		if bytes.IndexByte(value, 0) < 0 {
			r.dirty = true
		}
	}
	// retry, comments (a leading colon) and unknown fields are skipped.
}

// findCR makes r.cr the index of the next \r from pos on, when it is not
// known.
func (r *Reader) findCR() {
	if r.cr < r.pos {
		r.cr = math.MaxInt
		if j := bytes.IndexByte(r.buf[r.pos:r.end], '\r'); j >= 0 {
			r.cr = r.pos + j
		}
	}
}

// quickEvents lets tests compare quick with the line by line way.
var quickEvents = true

// quick reads the next event in one go when the buffer holds it whole in
// the layout nearly every event of a model's stream has: an optional
// "event: T" line, one "data: D" line and a blank line, each ended by \n
// (OpenAI, Anthropic) or \r\n (Gemini). It reads what the line by line
// way would, to the byte: a blank line's \r is the event's end, and the
// \n after it is read (and counted) with the next event. For anything
// else it reports false, having read nothing.
func (r *Reader) quick() bool {
	if !quickEvents || !r.begun {
		return false // a byte order mark may come
	}
	lead := 0
	if r.skipLF {
		if r.pos == r.end {
			return false
		}
		if r.buf[r.pos] == '\n' {
			lead = 1 // the \n of a \r\n that ended the event before
		}
	}
	rest := r.buf[r.pos+lead : r.end]
	n := 0
	var typ []byte
	if len(rest) > 7 && string(rest[:7]) == "event: " {
		i := bytes.IndexByte(rest[7:], '\n')
		if i < 0 {
			return false
		}
		typ, n = withoutCR(rest[7:7+i]), 7+i+1
	}
	if len(rest)-n < 6 || string(rest[n:n+6]) != "data: " {
		return false
	}
	after := rest[n+6:]
	j := bytes.IndexByte(after, '\n')
	if j < 0 || j+1 >= len(after) {
		return false
	}
	data := withoutCR(after[:j])
	blank := after[j+1] // the blank line: \n, or \r (then its \n is the next event's)
	if blank != '\n' && blank != '\r' {
		return false
	}
	size := lead + n + 6 + j + 2
	if size > r.max {
		return false
	}
	if r.findCR(); r.cr-r.pos < size {
		// A \r inside the event may only end a line, right before its \n.
		if bytes.IndexByte(typ, '\r') >= 0 || bytes.IndexByte(data, '\r') >= 0 {
			return false
		}
		r.cr = -1 // the next \r is past this event: not known yet
	}
	r.pos += size
	r.skipLF = blank == '\r'
	r.data, r.aliased, r.hasData = data, true, true
	if typ != nil {
		if r.name != string(typ) {
			r.name = string(typ)
		}
		r.typ = r.name
	}
	r.dirty = true
	return true
}

// withoutCR is line without the \r that ends it, if one does.
func withoutCR(line []byte) []byte {
	if len(line) > 0 && line[len(line)-1] == '\r' {
		return line[:len(line)-1]
	}
	return line
}

// fieldEnd returns the index of line's first colon, or -1, looking for the
// two fields that make up nearly every line first.
func fieldEnd(line []byte) int {
	switch {
	case len(line) >= 5 && string(line[:5]) == "data:":
		return 4
	case len(line) >= 6 && string(line[:6]) == "event:":
		return 5
	}
	return bytes.IndexByte(line, ':')
}

// Type is the event's type: its event field, or "" when it had none.
func (r *Reader) Type() string { return r.typ }

// keep copies data that points into buf to a buffer of the reader's own.
func (r *Reader) keep() {
	if r.aliased {
		r.own = append(r.own[:0], r.data...)
		r.data, r.aliased = r.own, false
	}
}

// Data is the event's data, its data fields joined by newlines. It is
// valid until the next call to Next.
func (r *Reader) Data() []byte { return r.data }

// Err is the error that ended the stream, or nil at its clean end.
func (r *Reader) Err() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

// line returns the next line without its end (\n, \r or \r\n), valid until
// the next read. At the end of input, or on an error, it returns false and
// sets r.err.
func (r *Reader) line() ([]byte, bool) {
	for {
		if r.skipLF && r.pos < r.end {
			if r.buf[r.pos] == '\n' {
				r.pos++
				r.eventBytes++
			}
			r.skipLF = false
		}
		rest := r.buf[r.pos:r.end]
		if i := r.lineEnd(rest); i >= 0 {
			line := rest[:i]
			r.pos += i + 1
			r.eventBytes += i + 1
			r.skipLF = rest[i] == '\r'
			if r.eventBytes > r.max {
				r.err = bufio.ErrTooLong
				return nil, false
			}
			return line, true
		}
		if r.eventBytes+len(rest) > r.max {
			r.err = bufio.ErrTooLong
			return nil, false
		}
		if r.err != nil {
			return nil, false // a read error, after the lines read before it
		}
		if r.eof {
			if !r.begun {
				// go-sse drops a byte order mark before it looks for lines.
				rest = bytes.TrimPrefix(rest, []byte("\xEF\xBB\xBF"))
			}
			if len(rest) > 0 {
				r.err = ErrUnexpectedEOF
			} else {
				r.err = io.EOF
			}
			return nil, false
		}
		r.fill()
	}
}

// fill reads more input, keeping the unparsed rest at the buffer's start
// and growing the buffer when the rest fills it.
func (r *Reader) fill() {
	r.keep()
	if r.pos > 0 {
		r.end = copy(r.buf, r.buf[r.pos:r.end])
		r.pos = 0
	}
	if r.end == len(r.buf) {
		size := max(bufferSize, 2*len(r.buf))
		r.buf = append(r.buf, make([]byte, size-len(r.buf))...)
	}
	r.cr = -1 // positions moved, and more bytes come
	n, err := r.r.Read(r.buf[r.end:])
	r.end += n
	if err == io.EOF {
		r.eof = true
	} else if err != nil {
		r.err = err
	}
}

// lineEnd returns the index of the first \r or \n in rest, buf[pos:end],
// or -1. Where the next \r is, is remembered until a read brings more
// bytes: most streams hold none, and one search per read then replaces
// one per line.
func (r *Reader) lineEnd(rest []byte) int {
	r.findCR()
	i := bytes.IndexByte(rest, '\n')
	if cr := r.cr - r.pos; cr < len(rest) && (i < 0 || cr < i) {
		return cr
	}
	return i
}
