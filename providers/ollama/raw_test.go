package ollama

import (
	"testing"

	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestRaw: with Request.Raw the adapter hands on each payload it receives
// as a raw chunk, before what it decodes from it, and changes nothing else.
func TestRaw(t *testing.T) {
	target().CheckRaw(t, replay.Load(t, simpleStream))
}
