package openai

import (
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"
	goopenai "github.com/sashabaranov/go-openai"

	"github.com/llmrt/llmrt/providers"
)

// chunk is a chat.completion.chunk, or a whole chat.completion when the
// server ignored stream:true. Only the fields the adapter reads are decoded.
type chunk struct {
	Choices []choice        `json:"choices"`
	Usage   *goopenai.Usage `json:"usage"`
	// XGroq carries Groq's usage when stream_options was not honoured.
	XGroq *struct {
		Usage *goopenai.Usage `json:"usage"`
	} `json:"x_groq"`
	Error json.RawMessage `json:"error"`
}

type choice struct {
	Index        int    `json:"index"`
	Delta        delta  `json:"delta"`
	Message      *delta `json:"message"` // non-streamed replies
	FinishReason string `json:"finish_reason"`
}

// delta holds what a choice adds. Reasoning arrives as reasoning_content
// (DeepSeek, xAI, Z.ai) or reasoning (OpenRouter, Groq, llama.cpp, vLLM), and
// from Mistral as "thinking" parts inside content.
type delta struct {
	Content          content             `json:"content"`
	Refusal          string              `json:"refusal"`
	ReasoningContent string              `json:"reasoning_content"`
	Reasoning        string              `json:"reasoning"`
	ToolCalls        []goopenai.ToolCall `json:"tool_calls"`
	// FunctionCall is the legacy single call of pre-tools replies.
	FunctionCall *goopenai.FunctionCall `json:"function_call"`
}

// content is a message content: a string, null, or a list of parts.
type content struct {
	Text      string
	Reasoning string
}

func (c *content) UnmarshalJSON(b []byte) error {
	switch b[0] {
	case '"':
		return json.Unmarshal(b, &c.Text)
	case '[':
		var parts []struct {
			Type     string          `json:"type"`
			Text     string          `json:"text"`
			Thinking json.RawMessage `json:"thinking"`
		}
		// The whole payload was validated before this runs, so an error
		// here is a part of a shape we do not read: keep what decoded.
		_ = json.Unmarshal(b, &parts)
		for _, p := range parts {
			switch p.Type {
			case "text":
				c.Text += p.Text
			case "thinking":
				c.Reasoning += thinkingText(p.Thinking)
			}
		}
	}
	return nil
}

// UnmarshalJSONFrom is UnmarshalJSON for the one-pass decoder: a string,
// the common case, is read once instead of being decoded a second time.
func (c *content) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		c.Text = tok.String()
		return nil
	case '[':
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		return c.UnmarshalJSON(v)
	}
	return dec.SkipValue()
}

// thinkingText reads Mistral's thinking: a string or a list of text parts.
func thinkingText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var out string
	for _, p := range parts {
		out += p.Text
	}
	return out
}

// stopReason maps finish_reason to the neutral stop reasons.
func stopReason(finish string) providers.StopReason {
	switch finish {
	case "stop", "end_turn":
		return providers.StopNatural
	case "tool_calls", "function_call":
		return providers.StopToolCalls
	case "length":
		return providers.StopLength
	case "content_filter":
		return providers.StopContentFilter
	}
	return providers.StopUnknown
}

// toUsage maps wire usage. completion_tokens includes reasoning at OpenAI,
// but xAI counts reasoning outside it while total_tokens includes it, so
// output is taken as total minus prompt when that is larger: Total() then
// matches what the server bills.
func toUsage(u *goopenai.Usage) providers.Usage {
	out := providers.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
	if d := u.PromptTokensDetails; d != nil {
		out.CacheReadTokens = d.CachedTokens
	}
	if d := u.CompletionTokensDetails; d != nil {
		out.ReasoningTokens = d.ReasoningTokens
	}
	if u.TotalTokens > u.PromptTokens+u.CompletionTokens {
		out.OutputTokens = u.TotalTokens - u.PromptTokens
	}
	return out
}
