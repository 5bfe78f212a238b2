package google

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	sseread "github.com/llmrt/llmrt/providers/internal/sse"
)

// maxEventSize bounds one SSE event. Events are usually a few kB, but a
// long tool call or thought summary can arrive in one.
const maxEventSize = 32 << 20

// read parses a 200 response body. streamGenerateContent?alt=sse answers
// with server-sent events; what else arrives is sniffed: a JSON array (the
// streamed form without alt=sse, which proxies and recordings use) or one
// JSON object (a generateContent reply) is read as JSON, anything else as
// SSE, for servers that send events under another content type.
func (s *streamer) read(ctx context.Context, body io.Reader, contentType string) error {
	if strings.Contains(contentType, "event-stream") {
		return s.readSSE(ctx, body)
	}
	br := bufio.NewReaderSize(body, 64<<10)
	c, err := firstByte(br)
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		return s.broke(ctx, err)
	case c == '[' || c == '{':
		return s.readJSON(ctx, &failReader{r: br}, c == '[')
	}
	return s.readSSE(ctx, br) // an empty body ends there, as an empty reply
}

// firstByte skips white space and peeks at the next byte.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		if !strings.ContainsRune(" \t\r\n", rune(b[0])) {
			return b[0], nil
		}
		_, _ = br.Discard(1)
	}
}

// readSSE reads events until the end of the body. Each event's data is one
// response; the reader joins multi-line data and accepts CRLF, LF and CR
// line ends.
func (s *streamer) readSSE(ctx context.Context, r io.Reader) error {
	events := sseread.NewReader(r, maxEventSize)
	for events.Next() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		data := events.Data() // valid until the next event
		if len(data) == 0 {
			continue
		}
		if s.raw {
			s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: bytes.Clone(data)})
		}
		resp, err := s.decodeEvent(data)
		if err != nil {
			return err
		}
		if err := s.handle(resp); err != nil {
			return err
		}
	}
	if err := events.Err(); err != nil {
		return s.broke(ctx, err)
	}
	return s.finishReply()
}

// decodeEvent decodes one event's response into s.resp: directly when it
// is a text or thought delta (decodeResponse), in one reflective pass when
// it is plain. Anything the one-pass decoder refuses is decoded again by
// encoding/json, whose verdict (and error message) stands.
func (s *streamer) decodeEvent(data []byte) (*response, error) {
	if decodeResponse(data, &s.resp, &s.scratch) {
		return &s.resp, nil
	}
	s.resp = response{}
	if adapter.DecodeFast(data, &s.resp) {
		return &s.resp, nil
	}
	s.resp = response{}
	if err := json.Unmarshal(data, &s.resp); err != nil {
		return nil, s.invalidEvent(data, err)
	}
	return &s.resp, nil
}

// readJSON reads a streamed JSON array element by element, so responses
// reach the caller as the server sends them, or a single object. An array
// without its closing bracket was cut short.
func (s *streamer) readJSON(ctx context.Context, r *failReader, array bool) error {
	dec := json.NewDecoder(r)
	if array {
		if _, err := dec.Token(); err != nil { // the '['
			return s.jsonError(ctx, r, err)
		}
	}
	for {
		if array && !dec.More() {
			if _, err := dec.Token(); err != nil { // the ']'
				return s.jsonError(ctx, r, err)
			}
			break
		}
		var resp response
		if err := s.decode(dec, &resp); err != nil {
			return s.jsonError(ctx, r, err)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := s.handle(&resp); err != nil {
			return err
		}
		if !array {
			break
		}
	}
	return s.finishReply()
}

// decode reads the next response of a JSON body, handing it on as a
// ChunkRaw first when the request asked for them.
func (s *streamer) decode(dec *json.Decoder, resp *response) error {
	if !s.raw {
		return dec.Decode(resp)
	}
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: raw})
	return json.Unmarshal(raw, resp)
}

// jsonError sorts a JSON decoding failure: the body broke off (r saw the
// failure), ended inside the JSON, or held JSON that does not parse or
// does not have the shape of a response.
func (s *streamer) jsonError(ctx context.Context, r *failReader, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case r.err != nil:
		return s.broke(ctx, r.err)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return s.broke(ctx, io.ErrUnexpectedEOF)
	}
	return s.invalidJSON(err)
}

// failReader remembers the first failure of the reader beneath, which
// json.Decoder passes on without saying it was not a decoding error.
type failReader struct {
	r   io.Reader
	err error
}

func (f *failReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && f.err == nil {
		f.err = err
	}
	return n, err
}

// broke handles a body that failed before its end. A reply whose finish
// reason and final usage had arrived lost only the end of the body and is
// kept: failing it would throw away a whole answer.
func (s *streamer) broke(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if s.finish != "" && !errors.Is(err, bufio.ErrTooLong) {
		return s.finishReply()
	}
	return s.readError(ctx, err)
}
