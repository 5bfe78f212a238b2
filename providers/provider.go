package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Provider is one model API. Stream makes a single model call and delivers
// the reply as chunks, in order, through emit, from the calling goroutine.
// It returns nil once the reply is complete (a Stop chunk has been emitted),
// or an error: an *Error for anything the API or network did, the context's
// error on cancellation. Stream never retries; see RetryPolicy.
type Provider interface {
	Name() string
	Stream(ctx context.Context, req *Request, emit func(Chunk)) error
}

// Effort is a reasoning-effort level. Each adapter maps it to its API's own
// control (a reasoning_effort field, a thinking budget, Ollama's think
// switch). The empty value leaves the provider's default in place.
type Effort string

// Reasoning effort levels.
const (
	EffortNone   Effort = "none"
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
)

// ParseEffort checks a reasoning-effort name; the empty name is the empty
// Effort (the provider's default).
func ParseEffort(s string) (Effort, error) {
	switch e := Effort(s); e {
	case "", EffortNone, EffortLow, EffortMedium, EffortHigh:
		return e, nil
	}
	return "", fmt.Errorf("unknown reasoning effort %q (use none, low, medium or high)", s)
}

// WebSearch turns on the provider's native web search. Adapters whose API
// has none, or cannot combine it with tools, ignore it with a warning.
type WebSearch struct {
	// ContextSize is low, medium or high; empty means medium.
	ContextSize string `json:"context_size,omitempty"`
}

// ParseWebSearch reads a web-search setting: "" or "off" is none (nil),
// low, medium or high turn it on with that context size.
func ParseWebSearch(s string) (*WebSearch, error) {
	switch s {
	case "", "off":
		return nil, nil
	case "low", "medium", "high":
		return &WebSearch{ContextSize: s}, nil
	}
	return nil, fmt.Errorf("unknown web search setting %q (use off, low, medium or high)", s)
}

// Timeouts bound one HTTP attempt of an adapter. Zero values take the
// defaults.
type Timeouts struct {
	// Response is the longest wait for response headers (default 2m).
	Response time.Duration
	// Idle is the longest silence inside a streamed body (default
	// DefaultIdleTimeout). A stream silent for longer fails with a
	// retryable *Error saying it stalled, which RetryPolicy retries within
	// its attempts.
	Idle time.Duration
}

// DefaultIdleTimeout is the longest silence inside a streamed reply that
// an adapter waits out by default, so that a stalled connection is
// noticed and retried within a minute. A model that may think silently
// for longer mid-stream needs a longer Idle.
const DefaultIdleTimeout = 60 * time.Second

// Request is one model call in neutral form. System text may appear as
// system messages anywhere in Messages; adapters with a single system field
// merge them with SplitSystem.
type Request struct {
	Model           string
	Messages        []Message
	Tools           []ToolSpec
	Temperature     *float64
	MaxTokens       int
	ReasoningEffort Effort
	WebSearch       *WebSearch
	// Raw asks the adapter to hand on every payload it receives as a
	// ChunkRaw, for hosts that need what the neutral chunks leave out. An
	// adapter that cannot ignores it; without it no ChunkRaw comes.
	Raw bool
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// emptySchema is the schema of a tool without parameters.
const emptySchema = `{"type":"object","properties":{}}`

// Schema returns the tool's parameter schema for the wire: Parameters, or
// an object schema without properties when Parameters is empty or null,
// which every API rejects.
func (t ToolSpec) Schema() json.RawMessage {
	if p := bytes.TrimSpace(t.Parameters); len(p) == 0 || string(p) == "null" {
		return json.RawMessage(emptySchema)
	}
	return t.Parameters
}

// StopReason says why a reply ended.
type StopReason string

// Stop reasons every adapter maps its API's values to.
const (
	StopNatural       StopReason = "natural"
	StopToolCalls     StopReason = "tool_calls"
	StopLength        StopReason = "length"
	StopContentFilter StopReason = "content_filter"
	StopUnknown       StopReason = "unknown"
)

// Usage counts tokens. InputTokens includes cached input; OutputTokens
// includes reasoning tokens, so Total matches the server's own total.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

// Add returns the field-wise sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + v.InputTokens,
		OutputTokens:     u.OutputTokens + v.OutputTokens,
		ReasoningTokens:  u.ReasoningTokens + v.ReasoningTokens,
		CacheReadTokens:  u.CacheReadTokens + v.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
	}
}

// Total is input plus output tokens, the figure token budgets count.
func (u Usage) Total() int { return u.InputTokens + u.OutputTokens }

// Warning is something the caller should know that does not stop the call
// or the run: web search being ignored by an adapter, a retry, a tool call
// the permission policy refused.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Rule, on the engine's permission_denied warnings, is the rule that
	// would have allowed the call.
	Rule string `json:"rule,omitempty"`
}

// ChunkType says which field of a Chunk is set.
type ChunkType uint8

// Chunk types.
const (
	// ChunkText carries a text delta in Text.
	ChunkText ChunkType = iota + 1
	// ChunkReasoning carries a reasoning delta in Text, and/or the opaque
	// Signature closing the current reasoning block, and/or Redacted state
	// forming a block of its own.
	ChunkReasoning
	// ChunkToolCall carries a fragment of a tool call in ToolCall. The first
	// fragment of a call has its ID and Name; later ones with the same Index
	// append Arguments.
	ChunkToolCall
	// ChunkUsage carries running token totals for this call in Usage.
	ChunkUsage
	// ChunkWarning carries a Warning.
	ChunkWarning
	// ChunkStop carries the stop reason; it is the last chunk of a reply.
	ChunkStop
	// ChunkRaw carries in Raw one payload as the adapter received it (the
	// data of one server-sent event, one line of a JSON stream, one
	// element of a streamed JSON array), just before the chunks decoded
	// from it. Only requests with Raw set get them; they are not part of
	// the reply.
	ChunkRaw
)

// ToolCallDelta is a fragment of a streamed tool call.
type ToolCallDelta struct {
	Index     int
	ID        string
	Name      string
	Arguments string
	Signature string
}

// Chunk is one piece of a streamed reply.
type Chunk struct {
	Type      ChunkType
	Text      string
	Signature string
	Redacted  string
	ToolCall  ToolCallDelta
	Usage     Usage
	Warning   Warning
	Stop      StopReason
	// Raw is the payload of a ChunkRaw, the caller's to keep.
	Raw json.RawMessage
}
