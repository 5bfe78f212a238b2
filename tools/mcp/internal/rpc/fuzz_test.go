package rpc

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzReadLines: whatever a server writes, ReadLines hands on exactly its
// non-blank lines of at most max bytes, trimmed, in order, and never
// panics. max is small so that lines longer than the read buffer are
// tried too.
func FuzzReadLines(f *testing.F) {
	for _, s := range []string{"", "\n", "a\nb", "{\"id\":1}\r\n\r\n", strings.Repeat("x", 40) + "\nshort\n", "  \t\n\x00\xff\n"} {
		f.Add([]byte(s), uint8(8))
	}
	f.Fuzz(func(t *testing.T, data []byte, m uint8) {
		max := int(m%64) + 1
		var want [][]byte
		for _, piece := range bytes.Split(data, []byte("\n")) {
			piece = bytes.TrimSuffix(piece, []byte("\r"))
			if len(piece) > max {
				continue
			}
			if piece = bytes.TrimSpace(piece); len(piece) > 0 {
				want = append(want, piece)
			}
		}
		var got [][]byte
		if err := ReadLines(bytes.NewReader(data), max, func(l []byte) { got = append(got, slices.Clone(l)) }); err != nil {
			t.Fatalf("ReadLines(%q, %d): %v", data, max, err)
		}
		if !slices.EqualFunc(got, want, bytes.Equal) {
			t.Fatalf("ReadLines(%q, %d) = %q, want %q", data, max, got, want)
		}
	})
}

// FuzzReadEvents: any stream parses without panicking, and a well-formed
// event made of the fuzzed text comes back whole.
func FuzzReadEvents(f *testing.F) {
	f.Add([]byte("event: endpoint\ndata: /x\n\n"), "hello")
	f.Add([]byte("id: 1\nretry: 5\ndata: a\ndata: b\n\n:comment\n"), "")
	f.Fuzz(func(t *testing.T, junk []byte, text string) {
		_, _ = readEvents(bytes.NewReader(junk), &cursor{}, func(string, []byte) {})
		if strings.ContainsAny(text, "\r\n") {
			return
		}
		var got []string
		stream := "data:" + text + "\n\n"
		if _, err := readEvents(strings.NewReader(stream), nil, func(name string, data []byte) { got = append(got, name+"|"+string(data)) }); err != nil {
			t.Fatal(err)
		}
		want := "message|" + strings.TrimPrefix(text, " ")
		if len(got) != 1 || got[0] != want {
			t.Fatalf("readEvents(%q) = %q, want [%q]", stream, got, want)
		}
	})
}
