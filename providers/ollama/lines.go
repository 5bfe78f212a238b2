package ollama

import (
	"bufio"
	"bytes"
	"context"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// lineBuffer bounds the lines readLines takes; a longer one (a large tool
// call) and everything after it go to the Decoder.
const lineBuffer = 64 << 10

// readLines handles the lines decodeLine reads directly, one whole line at
// a time, as each arrives, and returns at the first line it does not take
// (left unread in br, for the Decoder), at the end of the body, or after
// done:true. The Decoder would have read each line it takes as the same
// single value, so what follows is read exactly as before; only the
// Decoder's own pass over the bytes, which costs more than the direct read,
// is saved.
func (s *streamer) readLines(ctx context.Context, br *bufio.Reader, c *chatChunk) error {
	for !s.done {
		line := peekLine(br)
		if line == nil {
			return nil
		}
		value := trimSpace(line)
		if len(value) == 0 { // blank lines, which the Decoder skips
			_, _ = br.Discard(len(line))
			continue
		}
		if !decodeLine(value, c, &s.scratch) {
			return nil
		}
		if s.raw {
			s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: bytes.Clone(value)})
		}
		_, _ = br.Discard(len(line))
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.lines++
		if err := s.handle(c); err != nil {
			return err
		}
	}
	return nil
}

// peekLine returns the next whole line in br, its newline included,
// without consuming it, reading more when the buffer holds no newline yet.
// It returns nil when the body ends (or fails) before one, or when the line
// does not fit in the buffer.
func peekLine(br *bufio.Reader) []byte {
	for {
		buf, _ := br.Peek(br.Buffered())
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			return buf[:i+1]
		}
		if br.Buffered() == br.Size() {
			return nil
		}
		// One more read: it returns as soon as some bytes arrive.
		if _, err := br.Peek(br.Buffered() + 1); err != nil {
			return nil
		}
	}
}

// trimSpace removes JSON white space from both ends of b.
func trimSpace(b []byte) []byte {
	b = adapter.SkipSpace(b)
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
