package engine

import (
	"strings"

	"github.com/llmrt/llmrt/providers"
)

// DefaultContextWindow is assumed for a model the window table does not
// know and the request does not size: small enough to be safe for most.
const DefaultContextWindow = 32_000

// contextWindows are the context windows, in tokens, of the models people
// use, by model-name prefix; the longest matching prefix wins. Each is the
// input a request may hold as llmrt sends it: GPT-5's 400,000 include
// 128,000 of output, and Claude's million-token window needs a beta header
// the Anthropic adapter does not send.
var contextWindows = []struct {
	prefix string
	tokens int
}{
	{"gpt-5", 272_000},
	{"gpt-4.1", 1_047_576},
	{"gpt-4o", 128_000},
	{"gpt-4-turbo", 128_000},
	{"gpt-4", 8_192},
	{"gpt-3.5", 16_385},
	{"o1", 200_000},
	{"o3", 200_000},
	{"o4", 200_000},
	{"claude-", 200_000},
	{"gemini-1.5-pro", 2_097_152},
	{"gemini-", 1_048_576},
	{"grok-4", 256_000},
	{"grok-3", 131_072},
	{"grok-code", 256_000},
	{"llama3", 8_192},
	{"llama3.1", 131_072},
	{"llama3.2", 131_072},
	{"llama3.3", 131_072},
	{"qwen2.5", 32_768},
	{"qwen3", 40_960},
	{"mistral", 32_768},
	{"deepseek", 128_000},
}

// ContextWindow returns the context window of model from the built-in
// table, and whether the table knows it. Deployment or tag suffixes
// ("gpt-4o-2024-08-06", "llama3.1:8b") match their family's prefix.
func ContextWindow(model string) (int, bool) {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:] // "openai/gpt-4o" on a router
	}
	best, tokens := 0, 0
	for _, w := range contextWindows {
		if strings.HasPrefix(m, w.prefix) && len(w.prefix) > best {
			best, tokens = len(w.prefix), w.tokens
		}
	}
	return tokens, best > 0
}

// estimateTokens guesses the tokens of messages the provider has not
// counted yet: about four bytes of text a token, a little per message,
// and a flat cost per image or document.
func estimateTokens(msgs []Message) int {
	n := 0
	for i := range msgs {
		n += estimateMessage(&msgs[i])
	}
	return n
}

func estimateMessage(m *Message) int {
	bytes := 0
	for _, p := range m.Content {
		switch p.Type {
		case providers.PartText:
			bytes += len(p.Text)
		default:
			bytes += 4 * 1_000
		}
	}
	for _, r := range m.Reasoning {
		bytes += len(r.Text)
	}
	for _, c := range m.ToolCalls {
		bytes += len(c.Name) + len(c.Arguments)
	}
	return bytes/4 + 4
}

func estimateSpecs(specs []providers.ToolSpec) int {
	bytes := 0
	for _, s := range specs {
		bytes += len(s.Name) + len(s.Description) + len(s.Parameters)
	}
	return bytes / 4
}

// contextWindow is the window the run works within.
func (r *run) contextWindow() int {
	if r.req.ContextWindow > 0 {
		return r.req.ContextWindow
	}
	if w, ok := ContextWindow(r.req.Model); ok {
		return w
	}
	return DefaultContextWindow
}
