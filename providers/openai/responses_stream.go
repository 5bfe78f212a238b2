package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	"github.com/llmrt/llmrt/providers/internal/sse"
)

// itemSeen is what the parser knows of one output item, by output index.
type itemSeen struct {
	kind    string
	started bool // a function call's first fragment went out
	call    int  // the neutral index of a function call
	text    bool // text, arguments or summary text went out for it
	summary int  // the summary part last streamed
}

// rstreamer turns one streamed response into chunks. It lives for one call.
type rstreamer struct {
	site
	codec *adapter.NameCodec
	out   adapter.Sink
	raw   bool

	events int // response events received
	done   bool
	calls  int
	items  []itemSeen

	ev      event           // the decode target, reused from event to event
	scratch adapter.Scratch // decodeEvent's unescaping buffer, reused
}

// readSSE parses an event stream until response.completed (or
// .incomplete), an error event, or the end of the body.
func (s *rstreamer) readSSE(ctx context.Context, r io.Reader) error {
	events := sse.NewReader(r, maxEventSize)
	for events.Next() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		data := events.Data() // valid until the next event
		if len(data) == 0 || string(data) == "[DONE]" {
			continue
		}
		if s.raw {
			s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: bytes.Clone(data)})
		}
		if err := s.handle(data); err != nil {
			return err
		}
		if s.done {
			// Whatever follows (a proxy's [DONE]) adds nothing.
			return nil
		}
	}
	if err := events.Err(); err != nil {
		return s.readError(ctx, err)
	}
	return s.finish()
}

// readJSON handles a server that answered with one whole response.
func (s *rstreamer) readJSON(ctx context.Context, r io.Reader) error {
	data, err := io.ReadAll(io.LimitReader(r, maxJSONBody))
	if err != nil {
		return s.readError(ctx, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return s.finish()
	}
	if s.raw {
		s.out.Emit(providers.Chunk{Type: providers.ChunkRaw, Raw: data})
	}
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return s.invalidJSON(data)
	}
	if len(ev.Error) > 0 && string(ev.Error) != "null" {
		return s.serverError(data)
	}
	if ev.Status == "" && ev.Output == nil {
		return adapter.StreamError(s.provider, s.endpoint,
			"empty reply: the response from "+adapter.StripQuery(s.endpoint)+" held no output")
	}
	s.events++
	for i := range ev.Output {
		s.itemDone(i, &ev.Output[i])
	}
	return s.completed(&ev.outcome)
}

// handle decodes one event and emits what it holds.
func (s *rstreamer) handle(data []byte) error {
	ev, err := s.decode(data)
	if err != nil {
		return err
	}
	s.events++
	if ev.Type == "" && len(ev.Error) > 0 && string(ev.Error) != "null" {
		return s.serverError(data) // a proxy's {"error":{...}}
	}
	switch ev.Type {
	case "response.output_text.delta", "response.refusal.delta":
		if ev.Delta != "" {
			s.seen(ev.OutputIndex, "message").text = true
			s.out.Delta(providers.ChunkText, ev.Delta)
		}
	case "response.reasoning_summary_text.delta":
		it := s.seen(ev.OutputIndex, "reasoning")
		if ev.Delta == "" {
			break
		}
		text := ev.Delta
		if it.text && ev.SummaryIndex != it.summary {
			text = "\n\n" + text // a new summary part
		}
		it.text, it.summary = true, ev.SummaryIndex
		s.out.Delta(providers.ChunkReasoning, text)
	case "response.reasoning_text.delta":
		if ev.Delta != "" {
			s.seen(ev.OutputIndex, "reasoning").text = true
			s.out.Delta(providers.ChunkReasoning, ev.Delta)
		}
	case "response.output_item.added":
		if ev.Item != nil && ev.Item.Type == "function_call" {
			s.callStart(ev.OutputIndex, ev.Item)
		}
	case "response.function_call_arguments.delta":
		s.callArgs(ev.OutputIndex, ev.Delta)
	case "response.function_call_arguments.done":
		if it := s.seen(ev.OutputIndex, "function_call"); !it.text {
			s.callArgs(ev.OutputIndex, ev.Arguments)
		}
	case "response.output_item.done":
		if ev.Item != nil {
			s.itemDone(ev.OutputIndex, ev.Item)
		}
	case "response.completed", "response.incomplete":
		if ev.Response == nil {
			return s.invalidJSON(data)
		}
		return s.completed(ev.Response)
	case "response.failed":
		if ev.Response != nil && len(ev.Response.Error) > 0 && string(ev.Response.Error) != "null" {
			return s.serverError([]byte(`{"error":` + string(ev.Response.Error) + `}`))
		}
		return s.serverError(data)
	case "error":
		if ev.Message == "" && len(ev.Error) > 0 && string(ev.Error) != "null" {
			return s.serverError(data) // {"type":"error","error":{...}}
		}
		return s.codedError(ev.Code, ev.Message)
	}
	return nil
}

// decode fills s.ev from data: directly when it is a delta or another
// event of plain strings and indices (decodeEvent), in one reflective pass
// when it is plain JSON. Odd payloads go through encoding/json: a field of an unexpected type (an
// extension we do not read) is skipped; anything else is not JSON, or not
// an object.
func (s *rstreamer) decode(data []byte) (*event, error) {
	if decodeEvent(data, &s.ev, &s.scratch) {
		return &s.ev, nil
	}
	s.ev = event{}
	if adapter.DecodeFast(data, &s.ev) {
		return &s.ev, nil
	}
	s.ev = event{}
	if err := json.Unmarshal(data, &s.ev); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field == "" {
			return nil, s.invalidJSON(data)
		}
	}
	return &s.ev, nil
}

// seen returns the record of the item at output index i, making it of
// kind when it is new. Indices the server should not send (negative, or
// far beyond the items so far) share one scratch record.
func (s *rstreamer) seen(i int, kind string) *itemSeen {
	if i < 0 || i > len(s.items)+64 {
		return &itemSeen{kind: kind}
	}
	for len(s.items) <= i {
		s.items = append(s.items, itemSeen{})
	}
	it := &s.items[i]
	if it.kind == "" {
		it.kind = kind
	}
	return it
}

// callStart emits the first fragment of a function call: its id, its
// decoded name and any arguments the item already holds.
func (s *rstreamer) callStart(i int, fc *item) {
	it := s.seen(i, "function_call")
	it.kind, it.started, it.call = "function_call", true, s.calls
	s.calls++
	it.text = fc.Arguments != ""
	s.out.Emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{
		Index: it.call, ID: fc.CallID, Name: s.codec.Name(fc.Name), Arguments: fc.Arguments}})
}

func (s *rstreamer) callArgs(i int, args string) {
	it := s.seen(i, "function_call")
	if args == "" || !it.started {
		return // a whole call comes with output_item.done
	}
	it.text = true
	s.out.Emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{Index: it.call, Arguments: args}})
}

// itemDone handles a finished item. What its deltas already carried is
// not sent again; what they did not (a server that sends only whole
// items) is sent now. A reasoning item ends its reasoning block with its
// replay state as the signature.
func (s *rstreamer) itemDone(i int, done *item) {
	switch done.Type {
	case "function_call":
		switch it := s.seen(i, "function_call"); {
		case !it.started:
			s.callStart(i, done)
		case !it.text:
			s.callArgs(i, done.Arguments)
		}
	case "message":
		if it := s.seen(i, "message"); !it.text {
			for _, c := range done.Content {
				if t := c.Text + c.Refusal; t != "" {
					s.out.Emit(providers.Chunk{Type: providers.ChunkText, Text: t})
				}
			}
			it.text = true
		}
	case "reasoning":
		it := s.seen(i, "reasoning")
		var text string
		if !it.text {
			text = reasoningText(done)
		}
		if done.ID == "" && done.EncryptedContent == "" && text == "" {
			break // nothing to show or replay
		}
		s.out.Emit(providers.Chunk{Type: providers.ChunkReasoning, Text: text,
			Signature: encodeReasoning(done.ID, done.EncryptedContent)})
	}
}

// reasoningText is the readable text of a whole reasoning item: its
// summary parts, or else its raw reasoning text.
func reasoningText(r *item) string {
	var parts []string
	for _, p := range r.Summary {
		if p.Text != "" {
			parts = append(parts, p.Text)
		}
	}
	if len(parts) == 0 {
		for _, c := range r.Content {
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// codedError is an "error" event: a code (a string, or null) and a
// message at the top level.
func (s *rstreamer) codedError(code any, msg string) error {
	c := ""
	if code != nil {
		c = fmt.Sprint(code)
	}
	if msg == "" {
		msg = "the server reported an error in the stream"
	}
	return &providers.Error{Provider: s.provider, URL: adapter.StripQuery(s.endpoint),
		Code: c, Message: msg, Retryable: retryableCode(c)}
}

// completed ends the reply: usage, then the stop chunk. An incomplete
// response stopped at the output limit or a content filter.
func (s *rstreamer) completed(r *outcome) error {
	s.done = true
	if u := r.Usage; u != nil && (u.InputTokens > 0 || u.OutputTokens > 0) {
		s.out.Usage(u.neutral())
	}
	stop := providers.StopNatural
	switch {
	case r.Status == "incomplete" || r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "":
		stop = providers.StopUnknown
		if d := r.IncompleteDetails; d != nil {
			switch d.Reason {
			case "max_output_tokens":
				stop = providers.StopLength
			case "content_filter":
				stop = providers.StopContentFilter
			}
		}
	case s.calls > 0:
		stop = providers.StopToolCalls
	}
	s.out.Emit(providers.Chunk{Type: providers.ChunkStop, Stop: stop})
	return nil
}

// finish fails a stream that ended without a completed response: a body
// without a single event is never turned into an empty reply, and one
// that stopped before response.completed was cut short.
func (s *rstreamer) finish() error {
	if s.events == 0 {
		return adapter.StreamError(s.provider, s.endpoint,
			"empty reply: the response from "+adapter.StripQuery(s.endpoint)+" held no events")
	}
	return adapter.StreamError(s.provider, s.endpoint,
		"stream ended before the reply was complete ("+adapter.StripQuery(s.endpoint)+")")
}
