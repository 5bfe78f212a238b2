package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	sseread "github.com/llmrt/llmrt/providers/internal/sse"
)

// maxEventSize bounds one event, as the SDK's reader did: a long tool
// input or thinking block can arrive in one content_block_start.
const maxEventSize = 32 << 20

// streamer turns one streamed reply into chunks. It lives for one call.
type streamer struct {
	endpoint    string
	contentType string // of the response, for the empty-reply error
	codec       *adapter.NameCodec
	out         adapter.Sink
	raw         bool // hand on each event's data as a ChunkRaw

	started bool   // message_start seen
	done    bool   // message_stop seen
	stop    string // stop_reason, from message_delta
	usage   usage
	blocks  []openBlock     // by content block index
	scratch adapter.Scratch // reused to unescape delta strings
}

// usage holds the API's counts; input_tokens excludes cached input.
type usage struct{ input, cacheRead, cacheWrite, output, thinking int64 }

// openBlock is what the streamer remembers of an open content block.
type openBlock struct {
	kind string // text, thinking, tool_use, or a type not passed on
	// args reports whether a tool_use block streamed argument JSON.
	args bool
	// input is the tool input given in content_block_start, sent when no
	// argument deltas follow.
	input string
	// signature is a thinking signature given in content_block_start,
	// sent at the block's end unless a signature_delta came.
	signature string
	signed    bool
}

// eventJSON is one streamed event, decoded into just the fields the
// adapter reads: the stream is the hot path of every call, and the
// decoder skips the rest without building it.
type eventJSON struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message struct {
		Usage usageJSON `json:"usage"`
	} `json:"message"`
	ContentBlock blockJSON `json:"content_block"`
	Delta        deltaJSON `json:"delta"`
	Usage        usageJSON `json:"usage"`
}

type usageJSON struct {
	InputTokens         int64 `json:"input_tokens"`
	CacheRead           int64 `json:"cache_read_input_tokens"`
	CacheCreation       int64 `json:"cache_creation_input_tokens"`
	OutputTokens        int64 `json:"output_tokens"`
	OutputTokensDetails struct {
		ThinkingTokens int64 `json:"thinking_tokens"`
	} `json:"output_tokens_details"`
}

type blockJSON struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

// deltaJSON is the delta of content_block_delta and of message_delta.
type deltaJSON struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Thinking    string `json:"thinking"`
	Signature   string `json:"signature"`
	PartialJSON string `json:"partial_json"`
	StopReason  string `json:"stop_reason"`
}

// read consumes the event stream until it ends, then finishes the reply.
// Events without a type and pings carry nothing; an "error" event is the
// server failing mid-stream. The reader joins multi-line data and accepts
// CRLF, LF and CR line ends.
func (s *streamer) read(ctx context.Context, body io.Reader) error {
	var ev eventJSON
	events := sseread.NewReader(body, maxEventSize)
	for events.Next() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		typ, data := events.Type(), events.Data() // valid until the next event
		switch {
		case typ == "" || typ == "ping" || len(data) == 0:
			continue
		case typ == "error":
			return s.eventError(data)
		}
		if s.raw {
			s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: bytes.Clone(data)})
		}
		if err := s.decode(data, &ev); err != nil {
			return s.readError(ctx, err)
		}
		if err := s.handle(&ev, data); err != nil {
			return err
		}
		if s.done {
			return s.finish()
		}
	}
	if err := events.Err(); err != nil {
		return s.readError(ctx, err)
	}
	return s.finish()
}

// decode fills ev from data: directly when it is a delta in the API's
// own layout (decodeDelta), else in one pass when the event is plain.
// Anything the one-pass decoder refuses is decoded again by encoding/json,
// whose verdict (and error message) stands.
func (s *streamer) decode(data []byte, ev *eventJSON) error {
	if decodeDelta(data, ev, &s.scratch) {
		return nil
	}
	*ev = eventJSON{}
	if adapter.DecodeFast(data, ev) {
		return nil
	}
	*ev = eventJSON{}
	return json.Unmarshal(data, ev)
}

// handle emits what one event carries; raw is the event's JSON.
func (s *streamer) handle(ev *eventJSON, raw []byte) error {
	switch ev.Type {
	case "message_start":
		s.started = true
		u := ev.Message.Usage
		s.usage = usage{input: u.InputTokens, cacheRead: u.CacheRead,
			cacheWrite: u.CacheCreation, output: u.OutputTokens, thinking: u.OutputTokensDetails.ThinkingTokens}
		s.emitUsage()
	case "content_block_start":
		s.blockStart(ev.Index, &ev.ContentBlock)
	case "content_block_delta":
		s.blockDelta(ev.Index, &ev.Delta)
	case "content_block_stop":
		s.blockStop(ev.Index)
	case "message_delta":
		if ev.Delta.StopReason != "" {
			s.stop = ev.Delta.StopReason
		}
		// Counts are cumulative; input counts appear here too when server
		// tools (web search) added input during the turn.
		u := ev.Usage
		s.usage = usage{input: pick(s.usage.input, u.InputTokens), cacheRead: pick(s.usage.cacheRead, u.CacheRead),
			cacheWrite: pick(s.usage.cacheWrite, u.CacheCreation), output: pick(s.usage.output, u.OutputTokens),
			thinking: pick(s.usage.thinking, u.OutputTokensDetails.ThinkingTokens)}
		s.emitUsage()
	case "message_stop":
		s.done = true
	case "error":
		// An error payload under another event name than "error".
		return s.eventError(raw)
	}
	// Unknown event types are new API features this adapter does not use.
	return nil
}

func pick(old, v int64) int64 {
	if v != 0 {
		return v
	}
	return old
}

// maxBlockSkip bounds how far past the blocks seen so far a new block's
// index may jump. The API numbers blocks 0, 1, 2, …; a server sending
// index 1e12 would otherwise have the streamer allocate for every index
// in between.
const maxBlockSkip = 1024

func (s *streamer) blockStart(i int, cb *blockJSON) {
	if i < 0 || i > len(s.blocks)+maxBlockSkip {
		return
	}
	for len(s.blocks) <= i {
		s.blocks = append(s.blocks, openBlock{})
	}
	s.blocks[i] = openBlock{kind: cb.Type}
	b := &s.blocks[i]
	switch cb.Type {
	case "text":
		s.text(providers.ChunkText, cb.Text)
	case "thinking":
		s.text(providers.ChunkReasoning, cb.Thinking)
		b.signature = cb.Signature
	case "redacted_thinking":
		s.out.Emit(providers.Chunk{Type: providers.ChunkReasoning, Redacted: cb.Data})
	case "tool_use":
		b.input = string(cb.Input)
		s.out.Emit(providers.Chunk{Type: providers.ChunkToolCall,
			ToolCall: providers.ToolCallDelta{Index: i, ID: cb.ID, Name: s.codec.Name(cb.Name)}})
	}
	// server_tool_use and *_tool_result blocks are the API's own tools at
	// work (web search): they are not calls for the engine to run.
}

func (s *streamer) blockDelta(i int, d *deltaJSON) {
	if i < 0 || i >= len(s.blocks) {
		return
	}
	b := &s.blocks[i]
	switch {
	case d.Type == "text_delta" && b.kind == "text":
		s.text(providers.ChunkText, d.Text)
	case d.Type == "thinking_delta" && b.kind == "thinking":
		s.text(providers.ChunkReasoning, d.Thinking)
	case d.Type == "signature_delta" && b.kind == "thinking" && d.Signature != "":
		b.signed = true
		s.out.Emit(providers.Chunk{Type: providers.ChunkReasoning, Signature: d.Signature})
	case d.Type == "input_json_delta" && b.kind == "tool_use" && d.PartialJSON != "":
		b.args = true
		s.out.Emit(providers.Chunk{Type: providers.ChunkToolCall,
			ToolCall: providers.ToolCallDelta{Index: i, Arguments: d.PartialJSON}})
	}
}

func (s *streamer) blockStop(i int) {
	if i < 0 || i >= len(s.blocks) {
		return
	}
	b := &s.blocks[i]
	switch {
	case b.kind == "thinking" && !b.signed && b.signature != "":
		s.out.Emit(providers.Chunk{Type: providers.ChunkReasoning, Signature: b.signature})
	case b.kind == "tool_use" && !b.args:
		// A call without arguments streams none; the engine needs an
		// object, so send the start's input, or {}.
		args := b.input
		if strings.TrimSpace(args) == "" || !json.Valid([]byte(args)) || args == "null" {
			args = "{}"
		}
		s.out.Emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{Index: i, Arguments: args}})
	}
	b.kind = ""
}

func (s *streamer) text(t providers.ChunkType, text string) {
	if text != "" {
		s.out.Delta(t, text)
	}
}

// emitUsage sends running totals. InputTokens counts cached input too, as
// providers.Usage defines it; Anthropic's input_tokens leaves it out.
func (s *streamer) emitUsage() {
	u := s.usage
	s.out.Usage(providers.Usage{
		InputTokens:      int(u.input + u.cacheRead + u.cacheWrite),
		OutputTokens:     int(u.output),
		ReasoningTokens:  int(u.thinking),
		CacheReadTokens:  int(u.cacheRead),
		CacheWriteTokens: int(u.cacheWrite),
	})
}

// finish ends the reply with a stop chunk, or fails it: a body without a
// message is never turned into an empty reply, and a stream that ended
// before message_stop and before any stop_reason was cut short.
func (s *streamer) finish() error {
	if !s.started {
		msg := "empty reply: the response from " + s.endpoint + " held no message"
		if ct := s.contentType; ct != "" && !strings.Contains(ct, "event-stream") {
			msg = "empty reply: expected an event stream from " + s.endpoint + ", got " + ct
		}
		return adapter.StreamError(Name, s.endpoint, msg)
	}
	if !s.done && s.stop == "" {
		return adapter.StreamError(Name, s.endpoint,
			"stream ended before the reply was complete ("+s.endpoint+")")
	}
	s.out.Emit(providers.Chunk{Type: providers.ChunkStop, Stop: stopReason(s.stop)})
	return nil
}

// stopReason maps stop_reason to the neutral stop reasons.
func stopReason(r string) providers.StopReason {
	switch r {
	case "end_turn", "stop_sequence":
		return providers.StopNatural
	case "tool_use":
		return providers.StopToolCalls
	case "max_tokens", "model_context_window_exceeded":
		return providers.StopLength
	case "refusal":
		return providers.StopContentFilter
	}
	// pause_turn: a server tool paused a long turn; the reply is partial.
	return providers.StopUnknown
}
