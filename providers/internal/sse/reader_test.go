package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	gosse "github.com/tmaxmax/go-sse"
)

// outcome is what a reader made of a stream: its events, then how it
// ended ("" for a clean end, "cut" for a stream ending inside a line).
type outcome struct {
	events []string
	end    string
}

func ours(in io.Reader, max int) outcome {
	var o outcome
	r := NewReader(in, max)
	for r.Next() {
		o.events = append(o.events, fmt.Sprintf("%q:%q", r.Type(), r.Data()))
	}
	o.end = endOf(r.Err(), ErrUnexpectedEOF)
	return o
}

func theirs(in io.Reader, max int) outcome {
	var o outcome
	for ev, err := range gosse.Read(in, &gosse.ReadConfig{MaxEventSize: max}) {
		if err != nil {
			o.end = endOf(err, nil)
			break
		}
		o.events = append(o.events, fmt.Sprintf("%q:%q", ev.Type, ev.Data))
	}
	return o
}

func endOf(err, cut error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, bufio.ErrTooLong):
		return "too long"
	case err == cut || err.Error() == "go-sse: unexpected end of input":
		return "cut"
	}
	return err.Error()
}

func same(a, b outcome) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// TestReaderMatchesGoSSE reads hand-made streams (line ends of every kind,
// fields without values or spaces, comments, ids, a byte order mark, a cut
// last line) with this reader and with go-sse, whole and a byte at a time.
func TestReaderMatchesGoSSE(t *testing.T) {
	for _, in := range []string{
		"",
		"\n\n\n",
		"data: a\n\n",
		"data: a\n\ndata: b\n\n",
		"data:a\r\n\r\ndata:  b\r\rdata: c\r\n\n",
		"event: error\ndata: {\"x\":1}\n\n",
		"event: only\n\n",
		"data\n\n",
		"data\ndata\n\n",
		"data: one\ndata: two\n\n",
		": comment\ndata: x\n\n",
		":\n\n",
		"id: 7\n\n",
		"id: a\x00b\n\n",
		"retry: 10\n\n",
		"datas: x\n\n",
		"event:x\nevent:y\ndata: d\n\n",
		"unknownfield: x\ndata: y\n\n",
		"\xEF\xBB\xBFdata: bom\n\n",
		"\n\n\xEF\xBB\xBFdata: bom after blanks\n\n",
		"data: \xEF\xBB\xBFkept\n\n",
		"data: no blank line at the end\n",
		"data: cut off",
		"data: a\n\ndata: cut off",
		"data: [DONE]\n\n",
		"data: a\r",
		"data: a\r\n",
	} {
		for _, split := range []bool{false, true} {
			read := func() io.Reader {
				if split {
					return iotest.OneByteReader(strings.NewReader(in))
				}
				return strings.NewReader(in)
			}
			if got, want := ours(read(), 1<<20), theirs(read(), 1<<20); !same(got, want) {
				t.Errorf("%q (byte at a time: %v):\ngot  %v\nwant %v", in, split, got, want)
			}
		}
	}
}

// TestReaderMatchesGoSSERandom compares the two readers on random streams
// built from the pieces that matter to the format.
func TestReaderMatchesGoSSERandom(t *testing.T) {
	pieces := []string{"data", "event", "id", "retry", ":", " ", "\n", "\r", "\r\n", "x", "{\"a\":1}", "\x00", "\xEF\xBB\xBF", "error"}
	for i, in := range randomStreams(1, pieces, 30) {
		var r io.Reader = strings.NewReader(in)
		if i%2 == 1 {
			r = iotest.OneByteReader(r)
		}
		if got, want := ours(r, 1<<20), theirs(strings.NewReader(in), 1<<20); !same(got, want) {
			t.Fatalf("stream %d %q:\ngot  %v\nwant %v", i, in, got, want)
		}
	}
}

// TestReaderMatchesGoSSEOnModelStreams: streams made mostly of events in
// the layouts models send (an event line, one data line, a blank line,
// each ended by \n or by \r\n),
// read whole or a byte at a time, with the odd line that leaves it (\r,
// a second data line, a comment, a field without its space), read as
// go-sse reads them; and, under a limit some events pass, as the reader
// reads them line by line (where the limit falls between blank lines
// and a \r\n, go-sse's accounting is its own).
func TestReaderMatchesGoSSEOnModelStreams(t *testing.T) {
	pieces := []string{"event: delta\n", "event: other\n", "event: \n", "data: {\"a\":1}\n", "data: {\"a\":1}\n\n",
		"data: x\n\n", "data: \n\n", "\n", "\r\n", "\r", "data:x\n", "event:t\n", ": note\n", "id: 7\n", "data: y", "event: delta\ndata: z\n\n",
		"data: {\"a\":1}\r\n\r\n", "event: delta\r\n", "data: x\r\n", "data: a\rb\r\n\r\n", "event: delta\r\ndata: z\r\n\r\n"}
	for i, in := range randomStreams(3, pieces, 40) {
		max := 1 << 20
		if i%5 == 0 {
			max = 30
		}
		var r io.Reader = strings.NewReader(in)
		if i%3 == 1 {
			r = iotest.OneByteReader(r)
		}
		want := theirs(strings.NewReader(in), max)
		if max < 1<<20 {
			quickEvents = false
			want = ours(strings.NewReader(in), max)
			quickEvents = true
		}
		if got := ours(r, max); !same(got, want) {
			t.Fatalf("stream %d %q (limit %d):\ngot  %v\nwant %v", i, in, max, got, want)
		}
	}
}

// randomStreams returns 20,000 streams of up to most pieces each, drawn
// with seed.
func randomStreams(seed uint64, pieces []string, most int) []string {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	streams := make([]string, 20000)
	for i := range streams {
		var b strings.Builder
		for range rng.IntN(most) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		streams[i] = b.String()
	}
	return streams
}

// TestReaderTooLong fails an event larger than the limit with
// bufio.ErrTooLong, after the events before it.
func TestReaderTooLong(t *testing.T) {
	in := "data: small\n\ndata: " + strings.Repeat("x", 5000) + "\n\ndata: after\n\n"
	got := ours(strings.NewReader(in), 1000)
	want := outcome{events: []string{`"":"small"`}, end: "too long"}
	if !same(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if w := theirs(strings.NewReader(in), 1000); !same(w, want) {
		t.Fatalf("go-sse: got %v, want %v", w, want)
	}
}

// TestReaderReadError ends the stream with the reader's error, after the
// events read before it.
func TestReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), iotest.ErrReader(boom)), 1<<20)
	var got []string
	for r.Next() {
		got = append(got, string(r.Data()))
	}
	if len(got) != 1 || got[0] != "a" || !errors.Is(r.Err(), boom) {
		t.Fatalf("got events %q and error %v, want [a] and %v", got, r.Err(), boom)
	}
}

// TestReaderAllocations reads a thousand events with one buffer.
func TestReaderAllocations(t *testing.T) {
	var b bytes.Buffer
	for i := range 1000 {
		fmt.Fprintf(&b, "event: delta\ndata: {\"i\":%d,\"text\":\"some text\"}\n\n", i)
	}
	body := b.Bytes()
	allocs := testing.AllocsPerRun(10, func() {
		r := NewReader(bytes.NewReader(body), 1<<20)
		for r.Next() {
		}
	})
	// The reader, its buffer, the data buffer, the type string, the
	// bytes.Reader: a handful, not one per event.
	if allocs > 10 {
		t.Fatalf("got %v allocations for 1000 events, want at most 10", allocs)
	}
}

// TestQuickReadsModelLayouts: an event in the layout a model's stream uses,
// its lines ended by \n (OpenAI, Anthropic) or by \r\n (Gemini), is read
// in one go by quick, to the same type and data; a bare \r inside a line
// leaves it to the line by line way.
func TestQuickReadsModelLayouts(t *testing.T) {
	for _, c := range []struct {
		event     string
		quick     bool
		typ, data string
	}{
		{"event: delta\ndata: {\"a\":1}\n\n", true, "delta", `{"a":1}`},
		{"data: {\"a\":1}\n\n", true, "", `{"a":1}`},
		{"data: {\"text\": \"w1 \"}\r\n\r\n", true, "", `{"text": "w1 "}`},
		{"event: delta\r\ndata: {\"a\":1}\r\n\r\n", true, "delta", `{"a":1}`},
		{"data: {\"a\":1}\r\n\n", true, "", `{"a":1}`},
		{"data: {\"a\":1}\n\r\n", true, "", `{"a":1}`},
		{"data: a\rb\r\n\r\n", false, "", ""},
		{"event: de\rlta\r\ndata: x\r\n\r\n", false, "", ""},
		{"data: x\r\r\n\r\n", false, "", ""},
		{"data: x\r\n\r", true, "", "x"}, // a \r ends the blank line, as the line by line way reads it
	} {
		// The first event is read the line by line way (a byte order mark
		// may open a stream); the second is the one looked at.
		r := NewReader(strings.NewReader("data: first\n\n"+c.event), 1<<20)
		if !r.Next() {
			t.Fatalf("%q: no first event", c.event)
		}
		r.data, r.typ = nil, ""
		if got := r.quick(); got != c.quick {
			t.Errorf("%q: quick = %v, want %v", c.event, got, c.quick)
			continue
		}
		if c.quick && (r.Type() != c.typ || string(r.Data()) != c.data) {
			t.Errorf("%q: quick read %q:%q, want %q:%q", c.event, r.Type(), r.Data(), c.typ, c.data)
		}
	}
}
