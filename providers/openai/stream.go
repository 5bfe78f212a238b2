package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/sse"
)

// maxEventSize bounds one SSE event. Events are usually under 1 kB, but a
// whole tool call or a long reasoning block can arrive in one.
const maxEventSize = 32 << 20

// maxJSONBody bounds a non-streamed reply.
const maxJSONBody = 64 << 20

// streamer turns one reply into chunks. It lives for one call.
type streamer struct {
	site
	codec *adapter.NameCodec
	out   adapter.Sink
	raw   bool // hand on each payload as a ChunkRaw

	choices int    // choice objects received
	finish  string // the last finish_reason seen
	calls   map[int]*callSeen
	ids     map[string]int // call id → index, for servers that send no index
	last    int            // index of the latest call fragment

	c       chunk           // the decode target, reused from event to event
	scratch adapter.Scratch // decodeChunk's unescaping buffer, reused
}

type callSeen struct{ id, name bool }

// readSSE parses an event stream until [DONE] or the end of the body.
func (s *streamer) readSSE(ctx context.Context, r io.Reader) error {
	done := false
	events := sse.NewReader(r, maxEventSize)
	for events.Next() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		data := events.Data() // valid until the next event
		if events.Type() == "error" {
			return s.serverError(data)
		}
		if len(data) == 0 {
			continue
		}
		if string(data) == "[DONE]" {
			done = true
			break
		}
		if s.raw {
			s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: bytes.Clone(data)})
		}
		if err := s.handle(data); err != nil {
			return err
		}
	}
	if err := events.Err(); err != nil {
		if s.finish == "" || ctx.Err() != nil || errors.Is(err, bufio.ErrTooLong) {
			return s.readError(ctx, err)
		}
		// The reply was complete; only the usage chunk and [DONE] were
		// lost. Failing it would throw away a whole answer.
	}
	return s.finishReply(done)
}

// readJSON handles a server that answered with one chat.completion.
func (s *streamer) readJSON(ctx context.Context, r io.Reader) error {
	data, err := io.ReadAll(io.LimitReader(r, maxJSONBody))
	if err != nil {
		return s.readError(ctx, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return s.finishReply(false)
	}
	if s.raw {
		s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: data})
	}
	if err := s.handle(data); err != nil {
		return err
	}
	return s.finishReply(true)
}

// handle decodes one payload and emits what it holds, in order: reasoning,
// text, tool call fragments, usage.
func (s *streamer) handle(data []byte) error {
	c, err := s.decode(data)
	if err != nil {
		return err
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return s.serverError(data)
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue // only one choice is ever requested
		}
		s.choices++
		d := &ch.Delta
		if ch.Message != nil {
			d = ch.Message
		}
		// A server sending both names carries the same text twice.
		if d.ReasoningContent != "" {
			s.text(providers.ChunkReasoning, d.ReasoningContent)
		} else {
			s.text(providers.ChunkReasoning, d.Reasoning)
		}
		s.text(providers.ChunkReasoning, d.Content.Reasoning)
		s.text(providers.ChunkText, d.Content.Text)
		s.text(providers.ChunkText, d.Refusal)
		for j := range d.ToolCalls {
			s.toolCall(&d.ToolCalls[j])
		}
		if fc := d.FunctionCall; fc != nil {
			zero := 0
			s.toolCall(&goopenai.ToolCall{Index: &zero, Function: *fc})
		}
		if ch.FinishReason != "" {
			s.finish = ch.FinishReason
		}
	}
	u := c.Usage
	if u == nil && c.XGroq != nil {
		u = c.XGroq.Usage
	}
	if u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
		s.out.Usage(toUsage(u))
	}
	return nil
}

// decode fills s.c from data: directly when it is a chunk of the common
// shape (decodeChunk), in one reflective pass when it is plain JSON. Odd
// payloads go through encoding/json: a field of an unexpected type (an
// extension we do not read) is skipped; anything else is not JSON, or not
// an object. The strings decoded are new; only the containers are reused.
func (s *streamer) decode(data []byte) (*chunk, error) {
	if decodeChunk(data, &s.c, &s.scratch) {
		return &s.c, nil
	}
	// The decoder zeroes each element of the kept array before filling it.
	s.c = chunk{Choices: s.c.Choices[:0]}
	if adapter.DecodeFast(data, &s.c) {
		return &s.c, nil
	}
	s.c = chunk{}
	if err := json.Unmarshal(data, &s.c); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field == "" {
			return nil, s.invalidJSON(data)
		}
	}
	return &s.c, nil
}

func (s *streamer) text(t providers.ChunkType, text string) {
	if text != "" {
		s.out.Delta(t, text)
	}
}

// toolCall emits one fragment. The ID and name go out once, with the first
// fragment that has them; later fragments of the same index carry
// arguments.
func (s *streamer) toolCall(tc *goopenai.ToolCall) {
	if s.calls == nil {
		s.calls = make(map[int]*callSeen)
		s.ids = make(map[string]int)
	}
	idx := s.last
	switch {
	case tc.Index != nil:
		idx = *tc.Index
	case tc.ID != "":
		i, ok := s.ids[tc.ID]
		if !ok {
			i = len(s.calls)
		}
		idx = i
	}
	s.last = idx
	seen := s.calls[idx]
	if seen == nil {
		seen = &callSeen{}
		s.calls[idx] = seen
	}
	d := providers.ToolCallDelta{Index: idx, Arguments: tc.Function.Arguments}
	if tc.ID != "" && !seen.id {
		d.ID, seen.id = tc.ID, true
		s.ids[tc.ID] = idx
	}
	if tc.Function.Name != "" && !seen.name {
		d.Name, seen.name = s.codec.Name(tc.Function.Name), true
	}
	if d.ID != "" || d.Name != "" || d.Arguments != "" {
		s.out.Emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: d})
	}
}

// finishReply ends the reply with a stop chunk, or fails it: a body that
// held no choice is never turned into an empty reply, and a stream that
// stopped before [DONE] and before any finish_reason was cut short.
func (s *streamer) finishReply(done bool) error {
	if s.choices == 0 {
		return adapter.StreamError(s.provider, s.endpoint,
			"empty reply: the response from "+adapter.StripQuery(s.endpoint)+" held no choices")
	}
	if !done && s.finish == "" {
		return adapter.StreamError(s.provider, s.endpoint,
			"stream ended before the reply was complete ("+adapter.StripQuery(s.endpoint)+")")
	}
	s.out.Emit(providers.Chunk{Type: providers.ChunkStop, Stop: stopReason(s.finish)})
	return nil
}
