package providers

import (
	"crypto/sha256"
	"encoding/hex"
)

// NameCodec maps tool names to names an API accepts and back (SPEC §4.6).
// Names that are already valid pass through unchanged; others have invalid
// characters replaced by '_' and, when that collides or is too long, a short
// hash suffix, so the mapping stays one-to-one.
type NameCodec struct {
	toWire   map[string]string
	fromWire map[string]string
}

// NewNameCodec builds a codec for names. valid reports whether a byte may
// appear in a wire name; maxLen bounds wire names (0 = no bound).
func NewNameCodec(names []string, valid func(byte) bool, maxLen int) *NameCodec {
	c := &NameCodec{toWire: make(map[string]string, len(names)), fromWire: make(map[string]string, len(names))}
	// Valid names claim their own spelling first so they are never renamed.
	var rest []string
	for _, n := range names {
		if _, dup := c.toWire[n]; dup {
			continue
		}
		if isValidName(n, valid, maxLen) {
			c.toWire[n], c.fromWire[n] = n, n
		} else {
			rest = append(rest, n)
		}
	}
	for _, n := range rest {
		if _, dup := c.toWire[n]; dup {
			continue
		}
		w := sanitizeName(n, valid)
		if _, taken := c.fromWire[w]; taken || (maxLen > 0 && len(w) > maxLen) || w == "" {
			sum := sha256.Sum256([]byte(n))
			suffix := "_" + hex.EncodeToString(sum[:4])
			if maxLen > 0 && len(w)+len(suffix) > maxLen {
				w = w[:maxLen-len(suffix)]
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

// FunctionNameByte is the character set OpenAI, Anthropic and Gemini accept
// in function names: [A-Za-z0-9_-].
func FunctionNameByte(b byte) bool {
	return b == '_' || b == '-' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

func isValidName(n string, valid func(byte) bool, maxLen int) bool {
	if n == "" || (maxLen > 0 && len(n) > maxLen) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !valid(n[i]) {
			return false
		}
	}
	return true
}

func sanitizeName(n string, valid func(byte) bool) string {
	b := []byte(n)
	for i := range b {
		if !valid(b[i]) {
			b[i] = '_'
		}
	}
	return string(b)
}
