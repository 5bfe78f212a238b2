package google

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/llmrt/llmrt/providers"
)

// maxNameLen is the longest function name Gemini accepts.
const maxNameLen = 64

// toolNames maps tool names to function names Gemini accepts and back.
// Gemini takes [A-Za-z0-9_.-] up to 64 characters, but a name must start
// with a letter or an underscore, which providers.NameCodec (a per-byte
// rule) cannot express; such names get a leading underscore on top.
type toolNames struct {
	codec    *providers.NameCodec
	toWire   map[string]string // names whose codec spelling starts badly
	fromWire map[string]string
}

// newToolNames builds the mapping for the offered tools and the tools called
// earlier in the conversation, so history stays consistent on the wire.
func newToolNames(req *providers.Request) *toolNames {
	var names []string
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
	n := &toolNames{codec: providers.NewNameCodec(names, providers.FunctionNameByte, maxNameLen)}
	taken := make(map[string]bool, len(names))
	for _, name := range names {
		taken[n.codec.Wire(name)] = true
	}
	for _, name := range names {
		w := n.codec.Wire(name)
		if startsWell(w) || n.toWire[name] != "" {
			continue
		}
		fixed := "_" + w
		if len(fixed) > maxNameLen || taken[fixed] {
			sum := sha256.Sum256([]byte(name))
			suffix := "_" + hex.EncodeToString(sum[:4])
			fixed = "_" + w[:min(len(w), maxNameLen-1-len(suffix))] + suffix
		}
		if n.toWire == nil {
			n.toWire, n.fromWire = map[string]string{}, map[string]string{}
		}
		taken[fixed] = true
		n.toWire[name], n.fromWire[fixed] = fixed, name
	}
	return n
}

// Wire returns the function name to send for a tool name.
func (n *toolNames) Wire(name string) string {
	if w, ok := n.toWire[name]; ok {
		return w
	}
	return n.codec.Wire(name)
}

// Name returns the tool name for a function name the model sent.
func (n *toolNames) Name(wire string) string {
	if name, ok := n.fromWire[wire]; ok {
		return name
	}
	return n.codec.Name(wire)
}

func startsWell(w string) bool {
	if w == "" {
		return false
	}
	b := w[0]
	return b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}
