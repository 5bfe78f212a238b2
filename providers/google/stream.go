package google

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"

	"google.golang.org/genai"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// streamer turns the responses of one call into chunks. It lives for one
// call.
type streamer struct {
	names *adapter.NameCodec
	emit  func(providers.Chunk)

	responses int // responses received
	content   bool
	calls     int
	finish    genai.FinishReason
	block     string // the prompt was blocked for this reason
	blockMsg  string
	usage     providers.Usage
}

// handle emits what one response holds, in order: each part of the first
// candidate (thought text and signatures, text, function calls), then usage.
func (s *streamer) handle(r *genai.GenerateContentResponse) {
	s.responses++
	if pf := r.PromptFeedback; pf != nil && pf.BlockReason != "" && !strings.HasSuffix(string(pf.BlockReason), unsetSuffix) {
		s.block, s.blockMsg = string(pf.BlockReason), pf.BlockReasonMessage
	}
	// One candidate is requested; a server sending more is read for the
	// first only.
	if len(r.Candidates) > 0 && r.Candidates[0] != nil {
		cand := r.Candidates[0]
		s.content = true
		if cand.Content != nil {
			for _, part := range cand.Content.Parts {
				if part != nil {
					s.part(part)
				}
			}
		}
		if cand.FinishReason != "" && cand.FinishReason != genai.FinishReasonUnspecified {
			s.finish = cand.FinishReason
		}
	}
	if u := r.UsageMetadata; u != nil {
		if usage := toUsage(u); usage != s.usage {
			s.usage = usage
			s.emit(providers.Chunk{Type: providers.ChunkUsage, Usage: usage})
		}
	}
}

// part emits one part. Thought signatures are opaque: a signature on a
// function call goes with the call, one on a thought or text part closes a
// reasoning block, marked with the kind of part it came on so it can be
// sent back on the same kind.
func (s *streamer) part(p *genai.Part) {
	sig := ""
	if len(p.ThoughtSignature) > 0 {
		sig = base64.StdEncoding.EncodeToString(p.ThoughtSignature)
	}
	switch {
	case p.FunctionCall != nil:
		args := "{}"
		if len(p.FunctionCall.Args) > 0 {
			b, _ := json.Marshal(p.FunctionCall.Args)
			args = string(b)
		}
		s.emit(providers.Chunk{Type: providers.ChunkToolCall, ToolCall: providers.ToolCallDelta{
			Index:     s.calls,
			ID:        p.FunctionCall.ID,
			Name:      s.names.Name(p.FunctionCall.Name),
			Arguments: args,
			Signature: sig,
		}})
		s.calls++
	case p.Thought:
		if sig != "" {
			sig = thoughtSigPrefix + sig
		}
		if p.Text != "" || sig != "" {
			s.emit(providers.Chunk{Type: providers.ChunkReasoning, Text: p.Text, Signature: sig})
		}
	default:
		if p.Text != "" {
			s.emit(providers.Chunk{Type: providers.ChunkText, Text: p.Text})
		}
		if sig != "" {
			s.emit(providers.Chunk{Type: providers.ChunkReasoning, Signature: sig})
		}
	}
}

// complete reports whether the reply had finished when the body broke off:
// the finish reason and final usage arrived, only the end of the body was
// lost, and failing would throw away a whole answer.
func (s *streamer) complete(ctx context.Context, ex *exchange) bool {
	return s.finish != "" && ex.readErr != nil && ctx.Err() == nil
}

// finishReply ends the reply with a stop chunk, or fails it: a body with no
// candidate is never turned into an empty reply, and a stream that ended
// before any finish reason was cut short. A blocked prompt is a complete
// reply stopped by the content filter.
func (s *streamer) finishReply(provider, endpoint string) error {
	switch {
	case s.finish == "" && s.block != "":
		msg := "google: the prompt was blocked (" + s.block + ")"
		if s.blockMsg != "" {
			msg += ": " + s.blockMsg
		}
		s.emit(providers.Chunk{Type: providers.ChunkWarning, Warning: providers.Warning{Code: "content_filter", Message: msg}})
		s.emit(providers.Chunk{Type: providers.ChunkStop, Stop: providers.StopContentFilter})
		return nil
	case !s.content:
		return adapter.StreamError(provider, endpoint,
			"empty reply: the response from "+adapter.StripQuery(endpoint)+" held no candidates")
	case s.finish == "":
		return adapter.StreamError(provider, endpoint,
			"stream ended before the reply was complete ("+adapter.StripQuery(endpoint)+")")
	}
	stop := stopReason(s.finish)
	if stop == providers.StopNatural && s.calls > 0 {
		stop = providers.StopToolCalls
	}
	s.emit(providers.Chunk{Type: providers.ChunkStop, Stop: stop})
	return nil
}

// stopReason maps Gemini's finish reasons to the neutral stop reasons.
func stopReason(r genai.FinishReason) providers.StopReason {
	switch r {
	case genai.FinishReasonStop:
		return providers.StopNatural
	case genai.FinishReasonMaxTokens:
		return providers.StopLength
	case genai.FinishReasonSafety, genai.FinishReasonRecitation, genai.FinishReasonBlocklist,
		genai.FinishReasonProhibitedContent, genai.FinishReasonSPII,
		genai.FinishReasonImageSafety, genai.FinishReasonImageProhibitedContent:
		return providers.StopContentFilter
	}
	return providers.StopUnknown
}

// toUsage maps usage metadata, which carries running totals. Input counts
// the prompt (cached part included) and the prompt of built-in tools such
// as search; output counts the answer and the thoughts, so Total matches
// the server's totalTokenCount.
func toUsage(u *genai.GenerateContentResponseUsageMetadata) providers.Usage {
	return providers.Usage{
		InputTokens:     int(u.PromptTokenCount + u.ToolUsePromptTokenCount),
		OutputTokens:    int(u.CandidatesTokenCount + u.ThoughtsTokenCount),
		ReasoningTokens: int(u.ThoughtsTokenCount),
		CacheReadTokens: int(u.CachedContentTokenCount),
	}
}
