package ollama

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// chatChunk is one NDJSON line of /api/chat, or the whole body when a
// server ignored stream:true. Only the fields the adapter reads are decoded.
type chatChunk struct {
	Message struct {
		Content   string         `json:"content"`
		Thinking  string         `json:"thinking"`
		ToolCalls []wireToolCall `json:"tool_calls"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
	// Error is a string from Ollama, an object from some proxies.
	Error json.RawMessage `json:"error"`
}

// streamer turns one reply into chunks. It lives for one call.
type streamer struct {
	endpoint string
	codec    *adapter.NameCodec
	out      adapter.Sink
	gate     textGate
	raw      bool // hand on each line as a ChunkRaw

	lines int  // JSON values decoded
	calls int  // tool calls emitted, native or recovered from text
	done  bool // a done:true line arrived
	stop  string
	line  json.RawMessage // the line being decoded, reused

	scratch adapter.Scratch // decodeLine's unescaping buffer, reused
}

func newStreamer(endpoint string, codec *adapter.NameCodec, tools []providers.ToolSpec, out adapter.Sink) *streamer {
	s := &streamer{endpoint: endpoint, codec: codec, out: out}
	s.gate = newTextGate(tools, s.text)
	return s
}

// read decodes the body one JSON value at a time until done:true or the
// end of the body: whole lines of the common shapes directly (readLines),
// then, from the first line that is not, with a Decoder. Both hand on each
// line as soon as it is complete, so text streams chunk by chunk.
func (s *streamer) read(ctx context.Context, r io.Reader) error {
	br := bufio.NewReaderSize(r, lineBuffer)
	// One chunk value is reused: Decode leaves absent fields alone, so it
	// is cleared per line, but not reallocated.
	c := new(chatChunk)
	if err := s.readLines(ctx, br, c); err != nil {
		return err
	}
	return s.readValues(ctx, json.NewDecoder(br), c)
}

// readValues decodes the rest of the body with dec, one value at a time,
// into c.
func (s *streamer) readValues(ctx context.Context, dec *json.Decoder, c *chatChunk) error {
	for !s.done {
		*c = chatChunk{}
		err := s.decode(dec, c)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			// A field of an unexpected type (an extension we do not read)
			// is skipped; anything else ends the reply.
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) || te.Field == "" {
				return s.decodeError(ctx, err, dec)
			}
		}
		s.lines++
		if err := s.handle(c); err != nil {
			return err
		}
	}
	return s.finish()
}

// decode reads the next line into c, handing it on as a ChunkRaw first
// when the request asked for them. The decoder only finds the value's end
// and copies it into s.line (reused); the value is then read directly when
// it is a content or thinking line (decodeLine), decoded in one pass when
// it is plain, or, when that pass refuses it, by encoding/json, whose
// error stands.
func (s *streamer) decode(dec *json.Decoder, c *chatChunk) error {
	if err := dec.Decode(&s.line); err != nil {
		return err
	}
	if s.raw {
		s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: bytes.Clone(s.line)})
	}
	if decodeLine(s.line, c, &s.scratch) {
		return nil
	}
	if adapter.DecodeFast(s.line, c) {
		return nil
	}
	*c = chatChunk{}
	return json.Unmarshal(s.line, c)
}

// handle emits what one line holds, in order: thinking, text, tool calls,
// and on the last line usage.
func (s *streamer) handle(c *chatChunk) error {
	if e := bytes.TrimSpace(c.Error); len(e) > 0 && string(e) != "null" {
		return s.serverError(e)
	}
	m := &c.Message
	if m.Thinking != "" {
		s.out.Delta(providers.ChunkReasoning, m.Thinking)
	}
	if m.Content != "" {
		s.gate.write(m.Content)
	}
	for i := range m.ToolCalls {
		s.nativeCall(&m.ToolCalls[i])
	}
	if c.Done {
		s.done, s.stop = true, c.DoneReason
		if c.PromptEvalCount > 0 || c.EvalCount > 0 {
			s.out.Usage(providers.Usage{InputTokens: c.PromptEvalCount, OutputTokens: c.EvalCount})
		}
	}
	return nil
}

func (s *streamer) text(t string) {
	s.out.Delta(providers.ChunkText, t)
}

// nativeCall emits a whole tool call as one fragment: Ollama sends each
// call complete. Indexes are assigned here in arrival order, because older
// servers send no function.index. An absent id (also older servers) stays
// empty; the engine assigns one.
func (s *streamer) nativeCall(tc *wireToolCall) {
	s.gate.sawNativeCall()
	s.call(tc.ID, s.codec.Name(tc.Function.Name), argsString(tc.Function.Arguments))
}

func (s *streamer) call(id, name, args string) {
	s.out.Emit(providers.Chunk{Type: providers.ChunkToolCall,
		ToolCall: providers.ToolCallDelta{Index: s.calls, ID: id, Name: name, Arguments: args}})
	s.calls++
}

// argsString turns the wire arguments (an object, or from some servers a
// string holding one) into the neutral argument string.
func argsString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// finish settles held text, then ends the reply with a stop chunk, or
// fails it: a body without a single JSON value is never an empty reply,
// and a stream that ended before done:true was cut short.
func (s *streamer) finish() error {
	if s.lines == 0 {
		return adapter.StreamError(Name, s.endpoint, "empty reply: the response from "+s.endpoint+" held no messages")
	}
	if !s.done {
		return adapter.StreamError(Name, s.endpoint, "stream ended before the reply was complete ("+s.endpoint+")")
	}
	for _, c := range s.gate.flush(s.codec) {
		s.call("", c.name, c.args)
	}
	s.out.Emit(providers.Chunk{Type: providers.ChunkStop, Stop: s.stopReason()})
	return nil
}

// stopReason maps done_reason. Ollama says "stop" after tool calls too.
func (s *streamer) stopReason() providers.StopReason {
	switch s.stop {
	case "stop":
		if s.calls > 0 {
			return providers.StopToolCalls
		}
		return providers.StopNatural
	case "length":
		return providers.StopLength
	}
	return providers.StopUnknown
}
