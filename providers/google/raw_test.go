package google

import (
	"testing"

	"github.com/llmrt/llmrt/providers/internal/replay"
)

// TestRaw: with Request.Raw the adapter hands on each response it receives
// as a raw chunk, before what it decodes from it, and changes nothing else;
// in both of Gemini's stream formats.
func TestRaw(t *testing.T) {
	t.Run("sse", func(t *testing.T) { target().CheckRaw(t, replay.Load(t, textStream)) })
	t.Run("json array", func(t *testing.T) {
		target().CheckRaw(t, replay.Load(t, "gemini/llm-gemini__test_gemini.test_prompt.json"))
	})
}
