package scripted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/llmrt/llmrt/providers"
)

// Script is a parsed script file.
type Script struct {
	Turns []Turn `json:"turns"`
}

// Turn is one scripted reply.
type Turn struct {
	Reasoning    string           `json:"reasoning,omitempty"`
	Text         string           `json:"text,omitempty"`
	ToolCalls    []Call           `json:"tool_calls,omitempty"`
	Usage        *providers.Usage `json:"usage,omitempty"`
	Stop         string           `json:"stop,omitempty"`
	DelayMS      int              `json:"delay_ms,omitempty"`
	ChunkDelayMS int              `json:"chunk_delay_ms,omitempty"`
	Error        *TurnError       `json:"error,omitempty"`

	index int // position in the script, for generated call ids
}

// Call is a scripted tool call. Arguments may be any JSON value (sent as
// its JSON text) or a string (sent verbatim, so invalid JSON can be
// scripted).
type Call struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// TurnError makes a turn fail like a provider would.
type TurnError struct {
	Status       int    `json:"status,omitempty"`
	Message      string `json:"message"`
	RetryAfterMS int    `json:"retry_after_ms,omitempty"`
	// AfterOutput streams the turn's reasoning and text, then fails: a
	// stream that broke off after output.
	AfterOutput bool `json:"after_output,omitempty"`
	// AfterCallHeader streams the turn's reasoning and text, then the start
	// of its first tool call (id and name) with the first ArgumentBytes
	// bytes of its arguments, then fails: a stream cut inside a tool call.
	// Wire protocols that send a call whole (Gemini, Ollama) send the whole
	// first call instead.
	AfterCallHeader bool `json:"after_call_header,omitempty"`
	// ArgumentBytes is how much of the first call's arguments streams
	// before an AfterCallHeader failure.
	ArgumentBytes int `json:"argument_bytes,omitempty"`
}

// Partial reports whether the turn streams some output before its error.
func (e *TurnError) Partial() bool {
	return e != nil && (e.AfterOutput || e.AfterCallHeader)
}

// Load reads and checks a script file.
func Load(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scripted: read script: %w (the model name is the script's path)", err)
	}
	return Parse(data, path)
}

// Parse parses script text; name labels errors.
func Parse(data []byte, name string) (*Script, error) {
	var s Script
	trimmed := bytes.TrimSpace(data)
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	var err error
	if len(trimmed) > 0 && trimmed[0] == '[' {
		err = dec.Decode(&s.Turns)
	} else {
		err = dec.Decode(&s)
	}
	if err != nil {
		return nil, fmt.Errorf("scripted: %s: %w", name, err)
	}
	for i, t := range s.Turns {
		for j, c := range t.ToolCalls {
			if c.Name == "" {
				return nil, fmt.Errorf("scripted: %s: turn %d, tool call %d has no name", name, i+1, j+1)
			}
		}
	}
	return &s, nil
}

// ArgumentText returns the call's arguments as the text a model would
// send: a JSON value as written, a string verbatim (possibly invalid JSON).
func (c Call) ArgumentText() string {
	raw := bytes.TrimSpace(c.Arguments)
	if len(raw) == 0 {
		return "{}"
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
