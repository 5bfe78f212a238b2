package google

import (
	"bytes"
	"encoding/json"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// streamer turns the responses of one call into chunks. It lives for one
// call.
type streamer struct {
	endpoint string // the URL called, without its query
	names    *adapter.NameCodec
	out      adapter.Sink
	warnings []providers.Warning // emitted before the first response's chunks
	raw      bool                // hand on each response as a ChunkRaw

	responses int // responses received
	content   bool
	calls     int
	finish    finishReason
	block     blockReason // the prompt was blocked for this reason
	blockMsg  string
	usage     providers.Usage
	args      bytes.Buffer    // scratch for encoding call arguments
	resp      response        // the decode target of each event, reused
	scratch   adapter.Scratch // decodeResponse's unescaping buffer, reused
}

// handle emits what one response holds, in order: each part of the first
// candidate (thought text and signatures, text, function calls), then
// usage. An error the server sent in place of a response ends the call.
func (s *streamer) handle(r *response) error {
	if r.Error != nil {
		return streamedError(s.endpoint, r.Error)
	}
	if s.responses == 0 {
		for _, w := range s.warnings {
			s.out.Emit(providers.Chunk{Type: providers.ChunkWarning, Warning: w})
		}
	}
	s.responses++
	if pf := r.PromptFeedback; pf != nil && pf.BlockReason != "" {
		s.block, s.blockMsg = pf.BlockReason, pf.BlockReasonMessage
	}
	// One candidate is requested; a server sending more is read for the
	// first only.
	if len(r.Candidates) > 0 && r.Candidates[0] != nil {
		cand := r.Candidates[0]
		s.content = true
		if cand.Content != nil {
			for i := range cand.Content.Parts {
				s.part(&cand.Content.Parts[i])
			}
		}
		if cand.FinishReason != "" {
			s.finish = cand.FinishReason
		}
	}
	if u := r.UsageMetadata; u != nil {
		if usage := toUsage(u); usage != s.usage {
			s.usage = usage
			s.out.Usage(usage)
		}
	}
	return nil
}

// part emits one part. Thought signatures are opaque base64, kept as sent:
// a signature on a function call goes with the call, one on a thought or
// text part closes a reasoning block, marked with the kind of part it came
// on so it can be sent back on the same kind.
func (s *streamer) part(p *responsePart) {
	sig := p.ThoughtSignature
	switch {
	case p.FunctionCall != nil:
		s.out.Emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{
			Index:     s.calls,
			ID:        p.FunctionCall.ID,
			Name:      s.names.Name(p.FunctionCall.Name),
			Arguments: s.callArgs(p.FunctionCall.Args),
			Signature: sig,
		}})
		s.calls++
	case p.Thought:
		if sig != "" {
			sig = thoughtSigPrefix + sig
		}
		if p.Text != "" || sig != "" {
			s.out.Emit(providers.Chunk{Type: providers.ChunkReasoning, Text: p.Text, Signature: sig})
		}
	default:
		if p.Text != "" {
			s.out.Delta(providers.ChunkText, p.Text)
		}
		if sig != "" {
			s.out.Emit(providers.Chunk{Type: providers.ChunkReasoning, Signature: sig})
		}
	}
}

// callArgs returns a call's args as compact JSON text with object keys
// sorted, "{}" when there are none. Gemini sends a whole call in one part,
// so the text is final. Numbers keep their digits (no float64 round trip)
// and <, > and & stay as they are.
func (s *streamer) callArgs(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw) // cannot happen: the response decoded
	}
	s.args.Reset()
	enc := json.NewEncoder(&s.args)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return string(raw)
	}
	return string(bytes.TrimSuffix(s.args.Bytes(), []byte("\n")))
}

// finishReply ends the reply with a stop chunk, or fails it: a body with no
// candidate is never turned into an empty reply, and a stream that ended
// before any finish reason was cut short. A blocked prompt is a complete
// reply stopped by the content filter.
func (s *streamer) finishReply() error {
	switch {
	case s.finish == "" && s.block != "":
		msg := "google: the prompt was blocked (" + string(s.block) + ")"
		if s.blockMsg != "" {
			msg += ": " + s.blockMsg
		}
		s.out.Emit(providers.Chunk{Type: providers.ChunkWarning, Warning: providers.Warning{Code: "content_filter", Message: msg}})
		s.out.Emit(providers.Chunk{Type: providers.ChunkStop, Stop: providers.StopContentFilter})
		return nil
	case !s.content:
		return adapter.StreamError(Name, s.endpoint,
			"empty reply: the response from "+s.endpoint+" held no candidates")
	case s.finish == "":
		return adapter.StreamError(Name, s.endpoint,
			"stream ended before the reply was complete ("+s.endpoint+")")
	}
	stop := stopReason(s.finish)
	if stop == providers.StopNatural && s.calls > 0 {
		stop = providers.StopToolCalls
	}
	s.out.Emit(providers.Chunk{Type: providers.ChunkStop, Stop: stop})
	return nil
}

// stopReason maps Gemini's finish reasons, by the names the API sends, to
// the neutral stop reasons.
func stopReason(r finishReason) providers.StopReason {
	switch r {
	case "STOP":
		return providers.StopNatural
	case "MAX_TOKENS":
		return providers.StopLength
	case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII",
		"IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT":
		return providers.StopContentFilter
	}
	return providers.StopUnknown
}

// toUsage maps usage metadata, which carries running totals. Input counts
// the prompt (cached part included) and the prompt of built-in tools such
// as search; output counts the answer and the thoughts, so Total matches
// the server's totalTokenCount.
func toUsage(u *usageMetadata) providers.Usage {
	return providers.Usage{
		InputTokens:     u.PromptTokenCount + u.ToolUsePromptTokenCount,
		OutputTokens:    u.CandidatesTokenCount + u.ThoughtsTokenCount,
		ReasoningTokens: u.ThoughtsTokenCount,
		CacheReadTokens: u.CachedContentTokenCount,
	}
}
