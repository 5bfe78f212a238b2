package openai

import (
	"encoding/json"

	"github.com/llmrt/llmrt/providers"
)

// event is one server-sent event of a streamed response, or (Output set,
// Type empty) a whole response from a server that ignored stream: true.
// Only the fields the adapter reads are decoded.
type event struct {
	Type         string   `json:"type"`
	Delta        string   `json:"delta"`
	OutputIndex  int      `json:"output_index"`
	SummaryIndex int      `json:"summary_index"`
	Arguments    string   `json:"arguments"`
	Item         *item    `json:"item"`
	Response     *outcome `json:"response"`
	// Code and Message are set on "error" events.
	Code    any    `json:"code"`
	Message string `json:"message"`
	// The fields of a whole response (see above).
	response
}

// response is a whole response: the object of response.completed,
// .incomplete and .failed, or a non-streamed reply.
type response struct {
	outcome
	Output []item `json:"output"`
}

// outcome is what the adapter reads of a response besides its output. A
// stream's closing response repeats every item the stream carried (the
// whole answer again), so events decode it as an outcome, skipping them.
type outcome struct {
	Status            string          `json:"status"`
	Usage             *responsesUsage `json:"usage"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error json.RawMessage `json:"error"`
}

// item is an output item: a message, a reasoning item, a function call,
// or a built-in tool's call (web_search_call), which is not replayed.
type item struct {
	Type             string        `json:"type"`
	ID               string        `json:"id"`
	CallID           string        `json:"call_id"`
	Name             string        `json:"name"`
	Arguments        string        `json:"arguments"`
	EncryptedContent string        `json:"encrypted_content"`
	Summary          []summaryPart `json:"summary"`
	// Content holds a message's output_text and refusal parts, and a
	// reasoning item's reasoning_text parts.
	Content []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
}

type responsesUsage struct {
	InputTokens        int `json:"input_tokens"`
	OutputTokens       int `json:"output_tokens"`
	TotalTokens        int `json:"total_tokens"`
	InputTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
}

// neutral maps the usage object. Output includes reasoning at OpenAI; a
// server counting reasoning outside it (as xAI does in Chat Completions)
// still gets a Total that matches its total_tokens.
func (u *responsesUsage) neutral() providers.Usage {
	out := providers.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
	if d := u.InputTokensDetails; d != nil {
		out.CacheReadTokens = d.CachedTokens
	}
	if d := u.OutputTokensDetails; d != nil {
		out.ReasoningTokens = d.ReasoningTokens
	}
	if u.TotalTokens > u.InputTokens+u.OutputTokens {
		out.OutputTokens = u.TotalTokens - u.InputTokens
	}
	return out
}
