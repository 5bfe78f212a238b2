package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// sendError adds what a user needs to know to the errors of adapter.Send
// that have a well-known cause with Ollama. The server's own message is
// kept; a hint follows it.
func (p *Provider) sendError(err error, model string) error {
	var pe *providers.Error
	if !errors.As(err, &pe) {
		return err
	}
	lower := strings.ToLower(pe.Message)
	switch {
	case pe.StatusCode == 0 && errors.Is(pe.Err, syscall.ECONNREFUSED):
		// Still retryable: a server being restarted comes back. The URL is
		// the server root, which the message names.
		pe.URL = p.base
		pe.Message = fmt.Sprintf("ollama is not running at %s (start it with `ollama serve`, or set OLLAMA_HOST)", p.base)
	case pe.StatusCode == 404 && strings.Contains(lower, "model"):
		if !strings.Contains(pe.Message, model) {
			pe.Message = fmt.Sprintf("model %q: %s", model, pe.Message)
		}
		pe.Message += fmt.Sprintf(" (pull it with `ollama pull %s`)", model)
	case pe.StatusCode == 404:
		pe.Message += fmt.Sprintf(" (is %s an Ollama server? set OLLAMA_HOST to its root URL)", p.base)
	case pe.StatusCode == 400 && strings.Contains(lower, "does not support thinking"):
		pe.Message += " (leave the reasoning effort unset or set it to none for this model)"
	case pe.StatusCode == 400 && strings.Contains(lower, "think value"):
		pe.Message += " (this model takes thinking on or off only)"
	case pe.StatusCode == 400 && strings.Contains(lower, "does not support tools"):
		pe.Message += " (choose a model with tool support, such as qwen3 or llama3.1)"
	}
	return pe
}

// serverError is an {"error": ...} line inside a 200 stream. It is retried
// (when nothing was emitted yet) only when it reads as a transient failure
// of the model runner.
func (s *streamer) serverError(raw json.RawMessage) error {
	var msg string
	if json.Unmarshal(raw, &msg) != nil {
		_, msg = adapter.ServerMessage(append([]byte(`{"error":`), append(raw, '}')...))
	}
	if msg == "" {
		msg = "the server reported an error in the stream"
	}
	lower := strings.ToLower(msg)
	retryable := false
	for _, k := range []string{"unexpectedly stopped", "unexpected eof", "timed out", "timeout", "busy", "overloaded", "try again", "rate limit"} {
		retryable = retryable || strings.Contains(lower, k)
	}
	return &providers.Error{Provider: Name, URL: s.endpoint, Message: msg, Retryable: retryable}
}

// decodeError converts a failed Decode: the context's error, a stream that
// broke off (retryable), or a body that is not JSON (not retryable: sending
// the same request again does not fix the server).
func (s *streamer) decodeError(ctx context.Context, err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &se):
		return s.invalidJSON(dec)
	case errors.As(err, &te):
		// A whole line of the wrong type: a JSON string, number or list.
		return &providers.Error{Provider: Name, URL: s.endpoint,
			Message: fmt.Sprintf("invalid reply from %s: a line holds a JSON %s, not an object", s.endpoint, te.Value)}
	case errors.Is(err, io.ErrUnexpectedEOF) && midLine(dec):
		return adapter.StreamError(Name, s.endpoint,
			"stream from "+s.endpoint+" broke off in the middle of a line")
	}
	return adapter.ReadError(ctx, Name, s.endpoint, err)
}

// midLine reports whether the decoder holds the start of a value.
func midLine(dec *json.Decoder) bool {
	rest, _ := io.ReadAll(dec.Buffered())
	return len(bytes.TrimSpace(rest)) > 0
}

// invalidJSON names the endpoint and quotes the start of what came instead
// of JSON: what the decoder had buffered.
func (s *streamer) invalidJSON(dec *json.Decoder) error {
	const limit = 200
	rest, _ := io.ReadAll(io.LimitReader(dec.Buffered(), 4*limit))
	excerpt := string(bytes.TrimLeft(rest, " \t\r\n"))
	if len(excerpt) > limit {
		excerpt = excerpt[:limit] + "…"
	}
	return &providers.Error{Provider: Name, URL: s.endpoint,
		Message: fmt.Sprintf("invalid JSON from %s: %q", s.endpoint, excerpt)}
}
