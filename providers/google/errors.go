package google

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// maxErrorBody bounds the error body kept for the message.
const maxErrorBody = 1 << 20

// statusError reads and closes a non-2xx response and builds its error:
// the server's message and status code, retryable for 408, 409, 429 and
// 5xx, with the wait from Retry-After or from the body's RetryInfo.
func statusError(ctx context.Context, endpoint string, resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	e := adapter.StatusError(Name, endpoint, resp, body)
	if e.RetryAfter == 0 {
		e.RetryAfter = retryDelay(body)
	}
	return e
}

// streamedError is an error the server sent inside a 200 response. It is
// retried when its code or status says the condition is transient.
func streamedError(endpoint string, e *apiError) *providers.Error {
	msg := e.Message
	if msg == "" {
		msg = "the server reported an error in the stream"
	}
	transient := false
	switch e.Status {
	case "RESOURCE_EXHAUSTED", "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED", "ABORTED":
		transient = true
	}
	return &providers.Error{
		Provider:   Name,
		URL:        endpoint,
		StatusCode: e.Code,
		Code:       e.Status,
		Message:    msg,
		Retryable:  transient || adapter.RetryableStatus(e.Code),
	}
}

// invalidEvent reports an event that is not a response. Sending the same
// request again would not fix the server, so it is not retried.
func (s *streamer) invalidEvent(data []byte, err error) error {
	return &providers.Error{Provider: Name, URL: s.endpoint, Err: err,
		Message: fmt.Sprintf("invalid response from %s: %v: %s", s.endpoint, err, excerpt(string(data)))}
}

// invalidJSON reports a JSON body that does not parse as responses; like
// invalidEvent, it is not retried.
func (s *streamer) invalidJSON(err error) error {
	return &providers.Error{Provider: Name, URL: s.endpoint, Err: err,
		Message: fmt.Sprintf("invalid JSON from %s: %v", s.endpoint, err)}
}

// readError converts a failure while reading the body: an event too large
// to hold, or a body that broke off or stalled (retryable).
func (s *streamer) readError(ctx context.Context, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return &providers.Error{Provider: Name, URL: s.endpoint, Err: err,
			Message: fmt.Sprintf("an event from %s exceeds %d MB", s.endpoint, maxEventSize>>20)}
	}
	return adapter.ReadError(ctx, Name, s.endpoint, err)
}

// retryDelay reads the google.rpc.RetryInfo detail Gemini sends with 429s
// ({"@type": ".../google.rpc.RetryInfo", "retryDelay": "48s"}), used when
// no Retry-After header came. The body may be wrapped in an array, as
// errors are without alt=sse.
func retryDelay(body []byte) time.Duration {
	var arr []json.RawMessage
	if json.Unmarshal(body, &arr) == nil && len(arr) > 0 {
		body = arr[0]
	}
	var shape struct {
		Error struct {
			Details []struct {
				Type  string `json:"@type"`
				Delay string `json:"retryDelay"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &shape) != nil {
		return 0
	}
	for _, d := range shape.Error.Details {
		if d.Delay == "" {
			continue
		}
		if v, err := time.ParseDuration(d.Delay); err == nil && v > 0 {
			return v
		}
	}
	return 0
}

// excerpt shortens s for a message, on a rune boundary.
func excerpt(s string) string {
	const limit = 300
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
