package adapter

import (
	"bufio"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

// pieces is a reader that returns one piece per Read and records, for each
// Read, how many chunks the caller had been given before it.
type pieces struct {
	parts  []string
	got    *[]providers.Chunk
	before []int
}

func (p *pieces) Read(b []byte) (int, error) {
	p.before = append(p.before, len(*p.got))
	if len(p.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.parts[0])
	p.parts[0] = p.parts[0][n:]
	if p.parts[0] == "" {
		p.parts = p.parts[1:]
	}
	return n, nil
}

// TestCoalescerJoinsWhatArrivesTogether streams lines of deltas through
// a Coalescer the way an adapter does, and checks that the deltas of one
// read come as one chunk, passed on before the next read.
func TestCoalescerJoinsWhatArrivesTogether(t *testing.T) {
	var got []providers.Chunk
	c := NewCoalescer(func(ch providers.Chunk) { got = append(got, ch) })
	src := &pieces{parts: []string{"t:a\nt:b\nt:c\n", "t:d\nr:x\nr:y\ns:sig\nt:e\n", "w:warn\nt:f\nt:g\n"}, got: &got}
	sc := bufio.NewScanner(c.Before(src))
	for sc.Scan() {
		kind, text, _ := strings.Cut(sc.Text(), ":")
		switch kind {
		case "t":
			c.Emit(providers.Chunk{Type: providers.ChunkText, Text: text})
		case "r":
			c.Emit(providers.Chunk{Type: providers.ChunkReasoning, Text: text})
		case "s":
			c.Emit(providers.Chunk{Type: providers.ChunkReasoning, Signature: text})
		case "w":
			c.Emit(providers.Chunk{Type: providers.ChunkWarning, Warning: providers.Warning{Message: text}})
		}
	}
	c.Flush()
	var say []string
	for _, ch := range got {
		switch {
		case ch.Type == providers.ChunkWarning:
			say = append(say, "w:"+ch.Warning.Message)
		case ch.Signature != "":
			say = append(say, "s:"+ch.Signature)
		case ch.Type == providers.ChunkReasoning:
			say = append(say, "r:"+ch.Text)
		default:
			say = append(say, "t:"+ch.Text)
		}
	}
	want := []string{"t:abc", "t:d", "r:xy", "s:sig", "t:e", "w:warn", "t:fg"}
	if !slices.Equal(say, want) {
		t.Errorf("chunks: got %q, want %q", say, want)
	}
	// Nothing was held over a read: before each one, everything read
	// until then had been passed on ("abc"; then up to "e"; then all).
	if wantBefore := []int{0, 1, 5, 7}; !slices.Equal(src.before, wantBefore) {
		t.Errorf("chunks given before each read: got %v, want %v", src.before, wantBefore)
	}
}

// TestCoalescerBoundsAJoinedChunk: text arriving faster than the reader
// reads is passed on in pieces of at most maxJoined bytes (plus a delta).
func TestCoalescerBoundsAJoinedChunk(t *testing.T) {
	var got []providers.Chunk
	c := NewCoalescer(func(ch providers.Chunk) { got = append(got, ch) })
	delta := strings.Repeat("x", 1000)
	for range 200 {
		c.Emit(providers.Chunk{Type: providers.ChunkText, Text: delta})
	}
	c.Flush()
	total := 0
	for _, ch := range got {
		if len(ch.Text) > maxJoined+len(delta) {
			t.Errorf("a chunk of %d bytes, want at most %d", len(ch.Text), maxJoined+len(delta))
		}
		total += len(ch.Text)
	}
	if total != 200*len(delta) || len(got) < 3 {
		t.Errorf("got %d bytes in %d chunks, want %d bytes in at least 3", total, len(got), 200*len(delta))
	}
}

// TestCoalescerPassesRawAtOnce: a raw payload does not end a run of text,
// so asking for payloads leaves the decoded chunks as they were.
func TestCoalescerPassesRawAtOnce(t *testing.T) {
	var got []providers.Chunk
	c := NewCoalescer(func(ch providers.Chunk) { got = append(got, ch) })
	c.Emit(providers.Chunk{Type: providers.ChunkText, Text: "a"})
	c.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: []byte(`{}`)})
	c.Emit(providers.Chunk{Type: providers.ChunkText, Text: "b"})
	c.Flush()
	if len(got) != 2 || got[0].Type != providers.ChunkRaw || got[1].Text != "ab" {
		t.Errorf("got %+v, want the raw chunk, then \"ab\"", got)
	}
}

// TestCoalescerFoldsTotalsIntoARun: usage totals between deltas do not
// cut a run of text; they are folded and passed on after it.
func TestCoalescerFoldsTotalsIntoARun(t *testing.T) {
	var got []providers.Chunk
	c := NewCoalescer(func(ch providers.Chunk) { got = append(got, ch) })
	c.Emit(providers.Chunk{Type: providers.ChunkUsage, Usage: providers.Usage{InputTokens: 9}})
	for i, s := range []string{"a", "b", "c"} {
		c.Emit(providers.Chunk{Type: providers.ChunkText, Text: s})
		c.Emit(providers.Chunk{Type: providers.ChunkUsage, Usage: providers.Usage{OutputTokens: i + 1}})
	}
	c.Emit(providers.Chunk{Type: providers.ChunkStop, Stop: providers.StopNatural})
	want := []providers.Chunk{
		{Type: providers.ChunkText, Text: "abc"},
		{Type: providers.ChunkUsage, Usage: providers.Usage{InputTokens: 9, OutputTokens: 3}},
		{Type: providers.ChunkStop, Stop: providers.StopNatural},
	}
	if !slices.EqualFunc(got, want, func(a, b providers.Chunk) bool {
		return a.Type == b.Type && a.Text == b.Text && a.Usage == b.Usage && a.Stop == b.Stop
	}) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestCoalescerDeltaAndUsageAreEmit: a delta handed to Delta, and totals
// handed to Usage, are passed on exactly as the same chunks handed to
// Emit, among chunks of every kind, flushes and joins past the bound.
func TestCoalescerDeltaAndUsageAreEmit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 500 {
		var viaEmit, viaDelta []providers.Chunk
		a := NewCoalescer(func(c providers.Chunk) { viaEmit = append(viaEmit, c) })
		b := NewCoalescer(func(c providers.Chunk) { viaDelta = append(viaDelta, c) })
		for range rng.IntN(60) {
			switch k := rng.IntN(20); {
			case k < 16:
				typ := providers.ChunkText
				if k == 15 {
					typ = providers.ChunkReasoning
				}
				text := strings.Repeat("x", rng.IntN(3)) + "w "
				if rng.IntN(8) == 0 {
					text = strings.Repeat("y", maxJoined/3+1)
				}
				a.Emit(providers.Chunk{Type: typ, Text: text})
				b.Delta(typ, text)
			case k == 16:
				c := providers.Chunk{Type: providers.ChunkUsage, Usage: providers.Usage{OutputTokens: rng.IntN(100)}}
				a.Emit(c)
				b.Usage(c.Usage)
			case k == 17:
				c := providers.Chunk{Type: providers.ChunkReasoning, Text: "t", Signature: "sig"}
				a.Emit(c)
				b.Emit(c)
			case k == 18:
				c := providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{Name: "f"}}
				a.Emit(c)
				b.Emit(c)
			default:
				a.Flush()
				b.Flush()
			}
		}
		a.Flush()
		b.Flush()
		if !reflect.DeepEqual(viaEmit, viaDelta) {
			t.Fatalf("round %d: Delta and Usage passed on %d chunks, Emit %d, or they differ", round, len(viaDelta), len(viaEmit))
		}
	}
}
