package anthropic

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// callError maps a call that failed before any event arrived: an error
// status (the SDK's *sdk.Error), a transport failure, or a request the SDK
// could not build.
func (p *Provider) callError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ae *sdk.Error
	if errors.As(err, &ae) {
		return statusError(p.endpoint, ae)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return adapter.NetworkError(ctx, Name, p.endpoint, err)
	}
	// Nothing was sent (a bad base URL, a body that would not encode):
	// sending it again would fail the same way.
	return &providers.Error{Provider: Name, URL: p.endpoint, Message: "request not sent: " + err.Error(), Err: err}
}

// statusError maps an HTTP error status. Anthropic's 529 (overloaded) is a
// 5xx and so retryable, like 408, 409, 429 and the rest of 5xx.
func statusError(endpoint string, ae *sdk.Error) *providers.Error {
	code, msg := adapter.ServerMessage([]byte(ae.RawJSON()))
	if t := string(ae.Type()); t != "" {
		code = t
	}
	if msg == "" {
		msg = http.StatusText(ae.StatusCode)
	}
	var header http.Header
	if ae.Response != nil {
		header = ae.Response.Header
	}
	return &providers.Error{
		Provider:   Name,
		URL:        endpoint,
		StatusCode: ae.StatusCode,
		Code:       code,
		Message:    msg,
		Retryable:  adapter.RetryableStatus(ae.StatusCode) || retryableType(code),
		RetryAfter: adapter.ParseRetryAfter(header, time.Now()),
		Err:        ae,
	}
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
	var ae *sdk.Error
	if errors.As(err, &ae) {
		return s.eventError([]byte(ae.RawJSON()))
	}
	// The SDK reports error events this way when it has no response at
	// hand to build an *sdk.Error from.
	if data, ok := strings.CutPrefix(err.Error(), "received error while streaming: "); ok {
		return s.eventError([]byte(data))
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
	if s.stop != "" {
		// The reply was complete; only message_stop was lost. Failing it
		// would throw away a whole answer.
		return s.finish()
	}
	return adapter.ReadError(ctx, Name, s.endpoint, err)
}
