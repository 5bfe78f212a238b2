package ollama

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// gateState says what a textGate does with content.
type gateState uint8

const (
	undecided gateState = iota // only whitespace (or a partial fence) so far
	streaming                  // plain text: pass it on at once
	holding                    // may be a tool call written as JSON: keep it
)

// textGate implements the text tool-call fallback. Small models sometimes
// answer with the tool call as JSON text ({"name": ..., "arguments": ...},
// possibly in a ```json fence) instead of native tool_calls. Text streams,
// so a reply whose first non-space character is '{' or '[', or that opens
// with a ``` fence, is held until the reply ends and then either becomes
// tool calls (every object names a known tool) or is emitted unchanged.
// Any other reply streams immediately.
type textGate struct {
	known  map[string]bool // tool names offered in the request
	out    func(string)
	state  gateState
	buf    strings.Builder
	native bool
}

// textCall is a tool call recovered from text.
type textCall struct{ name, args string }

func newTextGate(tools []providers.ToolSpec, out func(string)) textGate {
	g := textGate{out: out}
	if len(tools) == 0 {
		// Without tools no text can be a call: never hold anything.
		g.state = streaming
		return g
	}
	g.known = make(map[string]bool, len(tools))
	for _, t := range tools {
		g.known[t.Name] = true
	}
	return g
}

// write takes one content delta.
func (g *textGate) write(t string) {
	switch g.state {
	case streaming:
		g.out(t)
		return
	case holding:
		g.buf.WriteString(t)
		return
	}
	g.buf.WriteString(t)
	s := strings.TrimLeft(g.buf.String(), " \t\r\n")
	switch {
	case s == "":
	case s[0] == '{' || s[0] == '[' || strings.HasPrefix(s, "```"):
		g.state = holding
	case len(s) < 3 && strings.Trim(s, "`") == "":
		// One or two backticks: a fence may be starting.
	default:
		g.release()
	}
}

// sawNativeCall records a native tool call: the text beside it is text.
func (g *textGate) sawNativeCall() {
	g.native = true
	if g.state != streaming {
		g.release()
	}
}

func (g *textGate) release() {
	g.state = streaming
	if g.buf.Len() > 0 {
		g.out(g.buf.String())
		g.buf.Reset()
	}
}

// flush settles held text at the end of the reply: it returns the calls it
// holds, or emits it as text and returns nil.
func (g *textGate) flush(codec *adapter.NameCodec) []textCall {
	if g.state == holding && !g.native {
		if calls := parseTextCalls(g.buf.String(), g.known, codec); calls != nil {
			g.buf.Reset()
			return calls
		}
	}
	g.release()
	return nil
}

// textCallJSON is the shape a model writes a call in. Llama models say
// "parameters" where the others say "arguments".
type textCallJSON struct {
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Parameters json.RawMessage `json:"parameters"`
}

// parseTextCalls reads text that is, after trimming and unfencing, one JSON
// object or a list of objects each naming a known tool. Anything else, or
// one unknown name, means the text is not a call: nil.
func parseTextCalls(text string, known map[string]bool, codec *adapter.NameCodec) []textCall {
	body := []byte(unfence(strings.TrimSpace(text)))
	var list []textCallJSON
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &list) != nil {
			return nil
		}
	} else {
		var one textCallJSON
		if json.Unmarshal(body, &one) != nil {
			return nil
		}
		list = []textCallJSON{one}
	}
	if len(list) == 0 {
		return nil
	}
	calls := make([]textCall, 0, len(list))
	for _, c := range list {
		name := codec.Name(c.Name)
		args := c.Arguments
		if len(args) == 0 {
			args = c.Parameters
		}
		obj, ok := argsJSON(args)
		if !known[name] || !ok {
			return nil
		}
		calls = append(calls, textCall{name: name, args: obj})
	}
	return calls
}

// unfence strips a ```json (or bare ```) fence around the whole text.
func unfence(s string) string {
	inner, ok := strings.CutPrefix(s, "```")
	if !ok {
		return s
	}
	i := 0
	for i < len(inner) && (inner[i] >= 'a' && inner[i] <= 'z' || inner[i] >= 'A' && inner[i] <= 'Z') {
		i++
	}
	inner, ok = strings.CutSuffix(inner[i:], "```")
	if !ok {
		return s
	}
	return strings.TrimSpace(inner)
}

// argsJSON returns arguments as compact object JSON: an object, a string
// holding one, or nothing ("{}").
func argsJSON(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "{}", true
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		raw = bytes.TrimSpace([]byte(s))
	}
	if len(raw) == 0 || raw[0] != '{' {
		return "", false
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return "", false
	}
	return b.String(), true
}
