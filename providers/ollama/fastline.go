package ollama

import (
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// Nearly every line of a reply carries a few characters of content or
// thinking, with the model's name and a timestamp. decodeLine reads such a
// line directly, in any key order, with the adapter package's scanners
// instead of the reflective decoder, which costs several times more than
// the bytes it reads. It reads only the fields chatChunk declares, skips
// members no field matches (model, created_at, durations), and declines
// anything else: tool calls, an error, a name matching a field only by
// case, a repeated member, a string left to encoding/json. A declined
// line goes to the general decoder, so the result is always what
// encoding/json reads.

// The names of the fields of chatChunk and of its message.
var (
	lineNames    = adapter.NewFields("message", "done", "done_reason", "prompt_eval_count", "eval_count", "error")
	messageNames = adapter.NewFields("content", "thinking", "tool_calls")
)

// decodeLine fills c from line when it is a line it reads directly and
// reports whether it did; scratch is reused for unescaping.
func decodeLine(line []byte, c *chatChunk, scratch *adapter.Scratch) bool {
	if apiLine(line, c, scratch) {
		return true
	}
	var out chatChunk
	var seen uint
	rest, ok := adapter.Members(line, func(name, v []byte) ([]byte, bool) {
		var rest []byte
		ok := false
		switch string(name) {
		case "message":
			if adapter.Once(&seen, 1) {
				rest, ok = readMessage(v, &out, scratch)
			}
		case "done":
			if adapter.Once(&seen, 2) {
				out.Done, rest, ok = adapter.ReadBool(v)
			}
		case "done_reason":
			if adapter.Once(&seen, 4) {
				out.DoneReason, rest, ok = adapter.ReadString(v, scratch)
			}
		case "prompt_eval_count":
			if adapter.Once(&seen, 8) {
				out.PromptEvalCount, rest, ok = adapter.ReadIndex(v)
			}
		case "eval_count":
			if adapter.Once(&seen, 16) {
				out.EvalCount, rest, ok = adapter.ReadIndex(v)
			}
		default:
			return adapter.SkipUnread(name, v, lineNames)
		}
		return rest, ok
	})
	if !ok || !adapter.OnlySpace(rest) {
		return false
	}
	*c = out
	return true
}

// readMessage reads the message's content and thinking; the role is
// skipped.
func readMessage(b []byte, c *chatChunk, scratch *adapter.Scratch) ([]byte, bool) {
	var seen uint
	m := &c.Message
	return adapter.Members(b, func(name, v []byte) ([]byte, bool) {
		var rest []byte
		ok := false
		switch string(name) {
		case "content":
			if adapter.Once(&seen, 1) {
				m.Content, rest, ok = adapter.ReadText(v, scratch)
			}
		case "thinking":
			if adapter.Once(&seen, 2) {
				m.Thinking, rest, ok = adapter.ReadText(v, scratch)
			}
		default:
			return adapter.SkipUnread(name, v, messageNames)
		}
		return rest, ok
	})
}

// apiLine reads a content or thinking line laid out as Ollama writes it:
//
//	{"model":S,"created_at":S,"message":{"role":"assistant","content":S[,"thinking":S]},"done":false}
//
// comparing the names in place, which costs a fraction of walking the
// members; any other layout is walked.
func apiLine(line []byte, c *chatChunk, scratch *adapter.Scratch) bool {
	b, ok := adapter.CutPrefix(line, `{"model":`)
	if !ok {
		return false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return false
	}
	if b, ok = adapter.CutPrefix(b, `,"created_at":`); !ok {
		return false
	}
	if b, ok = adapter.SkipValue(b); !ok {
		return false
	}
	if b, ok = adapter.CutPrefix(b, `,"message":{"role":"assistant","content":`); !ok {
		return false
	}
	var content, thinking string
	if content, b, ok = adapter.ReadText(b, scratch); !ok {
		return false
	}
	if rest, ok := adapter.CutPrefix(b, `,"thinking":`); ok {
		if thinking, b, ok = adapter.ReadText(rest, scratch); !ok {
			return false
		}
	}
	if b, ok = adapter.CutPrefix(b, `},"done":false}`); !ok || !adapter.OnlySpace(b) {
		return false
	}
	*c = chatChunk{}
	c.Message.Content, c.Message.Thinking = content, thinking
	return true
}
