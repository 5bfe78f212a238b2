package openai

import (
	goopenai "github.com/sashabaranov/go-openai"

	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Nearly every event of a Chat Completions stream is a chunk carrying a
// few characters of text, reasoning or a call's arguments. decodeChunk
// reads such a chunk directly, in the API's key order or any other, with
// the adapter package's scanners instead of the reflective decoder, which
// costs several times more than the bytes it reads. It reads only what the
// chunk type declares, skips members no field matches (id, model, created,
// logprobs: null, ...), and declines anything else: a member of a shape it
// does not expect (content as a list of parts, a usage object, an error),
// a name repeated or matching a field only by case, or a string it leaves
// to encoding/json. A declined chunk goes to the general decoder, so the
// result is always what encoding/json reads.

// The names of the fields of chunk, choice, delta, goopenai.ToolCall and
// goopenai.FunctionCall: a member that matches one but is not read as
// expected declines the chunk rather than being skipped.
var (
	chunkNames    = adapter.NewFields("choices", "usage", "x_groq", "error")
	choiceNames   = adapter.NewFields("index", "delta", "message", "finish_reason")
	deltaNames    = adapter.NewFields("content", "refusal", "reasoning_content", "reasoning", "tool_calls", "function_call")
	toolCallNames = adapter.NewFields("index", "id", "type", "function")
	functionNames = adapter.NewFields("name", "arguments")
)

// decodeChunk fills c from data when data is a chunk it reads directly
// (see above) and reports whether it did. c.Choices' array is reused;
// scratch is reused for unescaping.
func decodeChunk(data []byte, c *chunk, scratch *adapter.Scratch) bool {
	choices := c.Choices[:0]
	var seen uint
	rest, ok := adapter.Members(data, func(name, v []byte) ([]byte, bool) {
		switch string(name) {
		case "choices":
			if !adapter.Once(&seen, 1) {
				return nil, false
			}
			return adapter.Elements(v, func(v []byte) ([]byte, bool) {
				choices = append(choices, choice{})
				return readChoice(v, &choices[len(choices)-1], scratch)
			})
		case "usage":
			if !adapter.Once(&seen, 2) {
				return nil, false
			}
			return adapter.CutPrefix(v, "null")
		}
		return adapter.SkipUnread(name, v, chunkNames)
	})
	if !ok || !adapter.OnlySpace(rest) {
		return false
	}
	switch {
	case seen&1 == 0:
		choices = nil
	case choices == nil:
		choices = []choice{}
	}
	*c = chunk{Choices: choices}
	return true
}

// readChoice reads one choice of a streamed chunk.
func readChoice(b []byte, ch *choice, scratch *adapter.Scratch) ([]byte, bool) {
	var seen uint
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		switch string(name) {
		case "index":
			if !adapter.Once(&seen, 1) {
				return nil, false
			}
			i, rest, ok := adapter.ReadIndex(v)
			ch.Index = i
			return rest, ok
		case "delta":
			if !adapter.Once(&seen, 2) {
				return nil, false
			}
			return readDelta(v, &ch.Delta, scratch)
		case "finish_reason":
			if !adapter.Once(&seen, 4) {
				return nil, false
			}
			return nullOrString(v, &ch.FinishReason, scratch)
		}
		return adapter.SkipUnread(name, v, choiceNames)
	})
}

// readDelta reads a choice's delta: text as a string, reasoning under
// either name, a refusal, tool call fragments.
func readDelta(b []byte, d *delta, scratch *adapter.Scratch) ([]byte, bool) {
	var seen uint
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		switch string(name) {
		case "content":
			if !adapter.Once(&seen, 1) {
				return nil, false
			}
			return nullOrText(v, &d.Content.Text, scratch)
		case "refusal":
			if !adapter.Once(&seen, 2) {
				return nil, false
			}
			return nullOrText(v, &d.Refusal, scratch)
		case "reasoning_content":
			if !adapter.Once(&seen, 4) {
				return nil, false
			}
			return nullOrText(v, &d.ReasoningContent, scratch)
		case "reasoning":
			if !adapter.Once(&seen, 8) {
				return nil, false
			}
			return nullOrText(v, &d.Reasoning, scratch)
		case "tool_calls":
			if !adapter.Once(&seen, 16) {
				return nil, false
			}
			d.ToolCalls = []goopenai.ToolCall{}
			return adapter.Elements(v, func(v []byte) ([]byte, bool) {
				d.ToolCalls = append(d.ToolCalls, goopenai.ToolCall{})
				return readToolCall(v, &d.ToolCalls[len(d.ToolCalls)-1], scratch)
			})
		}
		return adapter.SkipUnread(name, v, deltaNames)
	})
}

// readToolCall reads one tool call fragment.
func readToolCall(b []byte, tc *goopenai.ToolCall, scratch *adapter.Scratch) ([]byte, bool) {
	var seen uint
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		switch string(name) {
		case "index":
			if !adapter.Once(&seen, 1) {
				return nil, false
			}
			i, rest, ok := adapter.ReadIndex(v)
			tc.Index = &i
			return rest, ok
		case "id":
			if !adapter.Once(&seen, 2) {
				return nil, false
			}
			return nullOrString(v, &tc.ID, scratch)
		case "type":
			if !adapter.Once(&seen, 4) {
				return nil, false
			}
			s, rest, ok := adapter.ReadString(v, scratch)
			tc.Type = goopenai.ToolType(s)
			return rest, ok
		case "function":
			if !adapter.Once(&seen, 8) {
				return nil, false
			}
			return readFunction(v, &tc.Function, scratch)
		}
		return adapter.SkipUnread(name, v, toolCallNames)
	})
}

// readFunction reads a fragment's name and arguments.
func readFunction(b []byte, f *goopenai.FunctionCall, scratch *adapter.Scratch) ([]byte, bool) {
	var seen uint
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		switch string(name) {
		case "name":
			if !adapter.Once(&seen, 1) {
				return nil, false
			}
			return nullOrString(v, &f.Name, scratch)
		case "arguments":
			if !adapter.Once(&seen, 2) {
				return nil, false
			}
			return nullOrText(v, &f.Arguments, scratch)
		}
		return adapter.SkipUnread(name, v, functionNames)
	})
}

// nullOrString reads a string into s; null leaves s alone, as
// encoding/json does.
func nullOrString(v []byte, s *string, scratch *adapter.Scratch) ([]byte, bool) {
	if rest, ok := adapter.CutPrefix(v, "null"); ok {
		return rest, true
	}
	str, rest, ok := adapter.ReadString(v, scratch)
	*s = str
	return rest, ok
}

// nullOrText is nullOrString for a delta's text (adapter.ReadText).
func nullOrText(v []byte, s *string, scratch *adapter.Scratch) ([]byte, bool) {
	if rest, ok := adapter.CutPrefix(v, "null"); ok {
		return rest, true
	}
	str, rest, ok := adapter.ReadText(v, scratch)
	*s = str
	return rest, ok
}
