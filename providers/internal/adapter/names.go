package adapter

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/llmrt/llmrt/providers"
)

// NameRule says which tool names an API accepts on the wire.
type NameRule struct {
	// Byte reports whether a byte may appear in a name.
	Byte func(byte) bool
	// First, when set, reports whether a byte may start a name; names that
	// would start otherwise get a leading '_', which First must accept.
	First func(byte) bool
	// MaxLen bounds names (0 = no bound).
	MaxLen int
}

// FunctionNameByte is the character set OpenAI, Anthropic and Gemini accept
// in function names: [A-Za-z0-9_-].
func FunctionNameByte(b byte) bool {
	return b == '_' || b == '-' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// FunctionNames is the rule of most chat APIs: [A-Za-z0-9_-]{1,64}.
var FunctionNames = NameRule{Byte: FunctionNameByte, MaxLen: 64}

// NameCodec maps tool names to names an API accepts and back.
// Names that are already valid pass through unchanged; others have invalid
// characters replaced by '_' and, when that collides or is too long, a short
// hash suffix, so the mapping stays one-to-one.
type NameCodec struct {
	toWire   map[string]string
	fromWire map[string]string
}

// ToolNameCodec builds a codec for every tool name a request mentions: the
// offered tools, the calls in its history and the tool results, so names
// stay consistent on the wire across the whole conversation.
func ToolNameCodec(req *providers.Request, rule NameRule) *NameCodec {
	names := make([]string, 0, len(req.Tools))
	for _, t := range req.Tools {
		names = append(names, t.Name)
	}
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			names = append(names, c.Name)
		}
		if m.ToolName != "" {
			names = append(names, m.ToolName)
		}
	}
	return NewNameCodec(names, rule)
}

// NewNameCodec builds a codec for names under rule.
func NewNameCodec(names []string, rule NameRule) *NameCodec {
	c := &NameCodec{toWire: make(map[string]string, len(names)), fromWire: make(map[string]string, len(names))}
	// Valid names claim their own spelling first so they are never renamed.
	var rest []string
	for _, n := range names {
		if _, dup := c.toWire[n]; dup {
			continue
		}
		if rule.valid(n) {
			c.toWire[n], c.fromWire[n] = n, n
		} else {
			rest = append(rest, n)
		}
	}
	for _, n := range rest {
		if _, dup := c.toWire[n]; dup {
			continue
		}
		w := rule.sanitize(n)
		if _, taken := c.fromWire[w]; taken || (rule.MaxLen > 0 && len(w) > rule.MaxLen) {
			sum := sha256.Sum256([]byte(n))
			suffix := "_" + hex.EncodeToString(sum[:4])
			if rule.MaxLen > 0 && len(w)+len(suffix) > rule.MaxLen {
				w = w[:rule.MaxLen-len(suffix)]
			}
			w += suffix
		}
		c.toWire[n], c.fromWire[w] = w, n
	}
	return c
}

// Wire returns the name to send for a tool name.
func (c *NameCodec) Wire(name string) string {
	if w, ok := c.toWire[name]; ok {
		return w
	}
	return name
}

// Name returns the tool name for a name received from the API.
func (c *NameCodec) Name(wire string) string {
	if n, ok := c.fromWire[wire]; ok {
		return n
	}
	return wire
}

func (r NameRule) valid(n string) bool {
	if n == "" || (r.MaxLen > 0 && len(n) > r.MaxLen) {
		return false
	}
	if r.First != nil && !r.First(n[0]) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !r.Byte(n[i]) {
			return false
		}
	}
	return true
}

func (r NameRule) sanitize(n string) string {
	b := []byte(n)
	for i := range b {
		if !r.Byte(b[i]) {
			b[i] = '_'
		}
	}
	if len(b) == 0 || (r.First != nil && !r.First(b[0])) {
		b = append([]byte{'_'}, b...)
	}
	return string(b)
}
