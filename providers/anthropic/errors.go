package anthropic

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
	sseread "github.com/llmrt/llmrt/providers/internal/sse"
)

// maxErrorBody bounds the error body kept for the message.
const maxErrorBody = 1 << 20

// notSent reports a request that could not be built or sent (a bad base
// URL, a tool schema that is not JSON): sending it again would fail the
// same way.
func (p *Provider) notSent(err error) error {
	return &providers.Error{Provider: Name, URL: p.endpoint, Message: "request not sent: " + err.Error(), Err: err}
}

// statusError reads and closes a non-2xx response and builds its error.
// Anthropic's 529 (overloaded) is a 5xx and so retryable, like 408, 409,
// 429 and the rest of 5xx; so are the transient error types.
func statusError(ctx context.Context, endpoint string, resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	e := adapter.StatusError(Name, endpoint, resp, body)
	// The Messages API names the kind of error in error.type.
	var envelope struct {
		Error struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &envelope) == nil && envelope.Error.Type != "" {
		e.Code = envelope.Error.Type
	}
	e.Retryable = e.Retryable || retryableType(e.Code)
	return e
}

// eventError maps an error event inside a 200 stream, such as
// {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}.
// It carries no HTTP status; its type says whether a retry may help.
func (s *streamer) eventError(data []byte) error {
	code, msg := adapter.ServerMessage(data)
	if msg == "" {
		msg = "the server reported an error in the stream"
	}
	return &providers.Error{Provider: Name, URL: s.endpoint, Code: code, Message: msg, Retryable: retryableType(code)}
}

// retryableType reports error types that name a transient condition.
func retryableType(t string) bool {
	switch t {
	case "overloaded_error", "rate_limit_error", "api_error", "timeout_error":
		return true
	}
	return false
}

// readError maps a failure while reading the stream.
func (s *streamer) readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// A server sending broken JSON would send it again: not retried.
		return &providers.Error{Provider: Name, URL: s.endpoint, Err: err,
			Message: fmt.Sprintf("invalid JSON in the event stream from %s: %v", s.endpoint, err)}
	}
	if errors.Is(err, bufio.ErrTooLong) {
		return &providers.Error{Provider: Name, URL: s.endpoint, Err: err,
			Message: "an event from " + s.endpoint + " is too large to read"}
	}
	if errors.Is(err, sseread.ErrUnexpectedEOF) {
		// The body ended cleanly inside a line: the event it began is
		// lost, and finish says whether the reply was complete without
		// it (a body that is no event stream at all ends here too).
		return s.finish()
	}
	if s.stop != "" {
		// The reply was complete; only message_stop was lost. Failing it
		// would throw away a whole answer.
		return s.finish()
	}
	return adapter.ReadError(ctx, Name, s.endpoint, err)
}
