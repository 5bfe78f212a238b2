package adapter

import (
	"io"
	"strings"

	"github.com/llmrt/llmrt/internal/stream"
	"github.com/llmrt/llmrt/providers"
)

// maxJoined bounds the text one joined chunk holds, so a reply that
// arrives faster than it is read still reaches the caller in pieces.
const maxJoined = 64 << 10

// Coalescer joins text deltas that arrive together. A server that streams
// one token per event sends many events per network read; each would
// otherwise cost the caller a chunk (an engine event, a render, a write).
// Consecutive text chunks, or consecutive reasoning chunks without a
// signature, are held (with the usage totals that come between them) and
// passed on as one when something else comes, before the stream is read
// from the network again (see Before), and when the stream ends (Flush).
// So nothing is held while the reader waits for the server: the caller
// sees text as early as it would one chunk at a time, only in fewer
// pieces. Raw payloads pass at once, not in order
// with held text.
type Coalescer struct {
	emit  func(providers.Chunk)
	first providers.Chunk // the held chunk, when only one is held
	more  strings.Builder // the held text, once a second chunk joined
	held  int
	last  int // the length of the text joined last
	// usage holds the running totals that came with the held text, passed
	// on after it (a protocol that restates its totals with every delta
	// would otherwise cut every run of text).
	usage     providers.Usage
	heldUsage bool
}

// NewCoalescer returns a Coalescer passing chunks on to emit.
func NewCoalescer(emit func(providers.Chunk)) *Coalescer {
	return &Coalescer{emit: emit}
}

// Emit takes one chunk of the stream, in order.
func (c *Coalescer) Emit(ch providers.Chunk) {
	if ch.Type == providers.ChunkRaw {
		// An event's payload, asked for beside the chunks: it passes at
		// once, so asking for it leaves the other chunks as they were.
		c.emit(ch)
		return
	}
	if ch.Type == providers.ChunkUsage {
		c.Usage(ch.Usage)
		return
	}
	if !joinable(ch) {
		c.Flush()
		c.emit(ch)
		return
	}
	if c.held > 0 && ch.Type == c.first.Type {
		c.join(ch.Text)
		return
	}
	c.flushText() // held text of the other kind
	c.first, c.held = ch, 1
}

// join adds text to the held chunks, of its kind.
func (c *Coalescer) join(text string) {
	if c.held == 1 {
		// Room for as much as was joined last time, at once, rather
		// than a builder doubling its way there on every read.
		c.more.Grow(max(c.last, len(c.first.Text)+len(text)))
		c.more.WriteString(c.first.Text)
	}
	c.more.WriteString(text)
	c.held++
	if c.more.Len() >= maxJoined {
		c.flushText()
	}
}

// Sink is where an adapter's stream reader sends what it reads: any chunk
// to Emit, a text or reasoning delta (what nearly every event of a reply
// carries) to Delta, and running totals (which some APIs restate with
// every delta) to Usage; these two need not build a chunk.
type Sink interface {
	Emit(providers.Chunk)
	Delta(t providers.ChunkType, text string)
	Usage(u providers.Usage)
}

// SinkFunc is a Sink handing every chunk to the function.
type SinkFunc func(providers.Chunk)

// Emit calls f.
func (f SinkFunc) Emit(c providers.Chunk) { f(c) }

// Delta calls f with the delta's chunk.
func (f SinkFunc) Delta(t providers.ChunkType, text string) { f(providers.Chunk{Type: t, Text: text}) }

// Usage calls f with the totals' chunk.
func (f SinkFunc) Usage(u providers.Usage) { f(providers.Chunk{Type: providers.ChunkUsage, Usage: u}) }

// Delta takes a text or reasoning delta: what Emit does with
// Chunk{Type: typ, Text: text}, without building the chunk, which is
// larger than the work of holding its text.
func (c *Coalescer) Delta(typ providers.ChunkType, text string) {
	if c.held > 0 && c.first.Type == typ {
		c.join(text)
		return
	}
	c.Emit(providers.Chunk{Type: typ, Text: text})
}

// Usage takes running totals: what Emit does with
// Chunk{Type: ChunkUsage, Usage: u}. They are held, merged, until the
// held text is passed on.
func (c *Coalescer) Usage(u providers.Usage) {
	c.usage, c.heldUsage = stream.MergeUsage(c.usage, u), true
}

// joinable reports whether ch is a plain text or reasoning delta.
func joinable(ch providers.Chunk) bool {
	switch ch.Type {
	case providers.ChunkText:
		return true
	case providers.ChunkReasoning:
		return ch.Signature == "" && ch.Redacted == ""
	}
	return false
}

// Flush passes on what is held: the text, then the totals.
func (c *Coalescer) Flush() {
	c.flushText()
	if c.heldUsage {
		c.emit(providers.Chunk{Type: providers.ChunkUsage, Usage: c.usage})
		c.usage, c.heldUsage = providers.Usage{}, false
	}
}

func (c *Coalescer) flushText() {
	switch c.held {
	case 0:
		return
	case 1:
		c.emit(c.first)
	default:
		c.last = min(c.more.Len(), maxJoined)
		c.emit(providers.Chunk{Type: c.first.Type, Text: c.more.String()})
		c.more = strings.Builder{}
	}
	c.first, c.held = providers.Chunk{}, 0
}

// Before returns r, flushing c before each read: whatever arrived is
// passed on before the reader may wait for more.
func (c *Coalescer) Before(r io.Reader) io.Reader { return flushReader{r, c} }

type flushReader struct {
	r io.Reader
	c *Coalescer
}

func (f flushReader) Read(p []byte) (int, error) {
	f.c.Flush()
	return f.r.Read(p)
}
