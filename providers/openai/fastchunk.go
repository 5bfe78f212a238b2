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
	if apiChunk(data, c, scratch) {
		return true
	}
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
	return nullOr(v, s, scratch, adapter.ReadString)
}

// nullOrText is nullOrString for a delta's text (adapter.ReadText).
func nullOrText(v []byte, s *string, scratch *adapter.Scratch) ([]byte, bool) {
	return nullOr(v, s, scratch, adapter.ReadText)
}

func nullOr(v []byte, s *string, scratch *adapter.Scratch, read func([]byte, *adapter.Scratch) (string, []byte, bool)) ([]byte, bool) {
	if rest, ok := adapter.CutPrefix(v, "null"); ok {
		return rest, true
	}
	str, rest, ok := read(v, scratch)
	*s = str
	return rest, ok
}

// apiChunk reads a text delta laid out as OpenAI's API and most servers
// that copy it send one, without white space:
//
//	{"id":S,"object":"chat.completion.chunk","created":N,"model":S[,"service_tier":V]
//	[,"system_fingerprint":V][,"provider":V],"choices":[{"index":N,"delta":{["role":"assistant",]
//	"content":S[,"role":"assistant"]}[,"logprobs":null][,"finish_reason":null]
//	[,"native_finish_reason":null]}][,"usage":null][,"service_tier":V]
//	[,"system_fingerprint":V][,"obfuscation":V]}
//
// Comparing the names in place costs a fraction of walking the members;
// any other layout is walked. None of the members skipped is a field of
// chunk, so a repeated one changes nothing.
func apiChunk(data []byte, c *chunk, scratch *adapter.Scratch) bool {
	// The opening up to the text, the same in every delta of a reply, is
	// checked once (see adapter.Span).
	b, index, ok := scratch.Spans[0].Step(data, chunkHead)
	if !ok {
		return false
	}
	text, b, ok := adapter.ReadText(b, scratch)
	if !ok {
		return false
	}
	b = adapter.CutOptional(b, `,"role":"assistant"`)
	if b, ok = adapter.CutPrefix(b, `}`); !ok {
		return false
	}
	b = adapter.CutOptional(adapter.CutOptional(adapter.CutOptional(b, `,"logprobs":null`), `,"finish_reason":null`), `,"native_finish_reason":null`)
	if b, ok = adapter.CutPrefix(b, `}]`); !ok {
		return false
	}
	b = adapter.CutOptional(b, `,"usage":null`)
	if b, ok = adapter.SkipOptional(b, `,"service_tier":`, `,"system_fingerprint":`, `,"obfuscation":`); !ok {
		return false
	}
	if b, ok = adapter.CutPrefix(b, `}`); !ok || !adapter.OnlySpace(b) {
		return false
	}
	*c = chunk{Choices: append(c.Choices[:0], choice{Index: index, Delta: delta{Content: content{Text: text}}})}
	return true
}

// chunkHead reads apiChunk's layout up to the text: it returns what
// follows "content": and the choice's index.
func chunkHead(data []byte) ([]byte, int, bool) {
	b, ok := adapter.CutPrefix(data, `{"id":`)
	if !ok {
		return nil, 0, false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return nil, 0, false
	}
	if b, ok = adapter.CutPrefix(b, `,"object":"chat.completion.chunk","created":`); !ok {
		return nil, 0, false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return nil, 0, false
	}
	if b, ok = adapter.CutPrefix(b, `,"model":`); !ok {
		return nil, 0, false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return nil, 0, false
	}
	if b, ok = adapter.SkipOptional(b, `,"service_tier":`, `,"system_fingerprint":`, `,"provider":`); !ok {
		return nil, 0, false
	}
	if b, ok = adapter.CutPrefix(b, `,"choices":[{"index":`); !ok {
		return nil, 0, false
	}
	index, b, ok := adapter.ReadIndex(b)
	if !ok {
		return nil, 0, false
	}
	if b, ok = adapter.CutPrefix(b, `,"delta":{`); !ok {
		return nil, 0, false
	}
	b = adapter.CutOptional(b, `"role":"assistant",`)
	if b, ok = adapter.CutPrefix(b, `"content":`); !ok {
		return nil, 0, false
	}
	return b, index, true
}
