package google

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// callError converts an error from the SDK's stream. What the exchange
// recorded comes first: it knows the HTTP status, headers and body, and
// whether the connection failed, all of which the SDK's errors hide.
func (p *Provider) callError(ctx context.Context, ex *exchange, endpoint string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if ex.url != "" {
		endpoint = ex.url
	}
	if e := bodyError(ctx, ex, endpoint); e != nil {
		return e
	}
	var apiErr genai.APIError
	switch {
	case errors.As(err, &apiErr):
		return streamedError(endpoint, apiErr)
	case ex.url == "":
		// The SDK refused the request before sending it; sending it again
		// would fail the same way.
		return &providers.Error{Provider: Name, URL: endpoint, Err: err,
			Message: "the request could not be built: " + err.Error()}
	case ex.status == 0:
		return adapter.NetworkError(ctx, Name, endpoint, err)
	}
	// A 200 response the SDK could not decode: sending the same request
	// again would not fix the server.
	detail := strings.TrimPrefix(err.Error(), "iterateResponseStream: error unmarshalling data ")
	return &providers.Error{Provider: Name, URL: endpoint, Err: err,
		Message: fmt.Sprintf("invalid response from %s: %s", endpoint, excerpt(detail))}
}

// bodyError reports an error status, a body that broke off or stalled, or a
// JSON body that did not parse.
func bodyError(ctx context.Context, ex *exchange, endpoint string) error {
	switch {
	case ex.status != 0 && (ex.status < 200 || ex.status > 299):
		e := adapter.StatusError(Name, endpoint, &http.Response{StatusCode: ex.status, Header: ex.header}, ex.body)
		if e.RetryAfter == 0 {
			e.RetryAfter = retryDelay(ex.body)
		}
		return e
	case ex.readErr != nil:
		return adapter.ReadError(ctx, Name, endpoint, ex.readErr)
	case ex.malformed != nil:
		return &providers.Error{Provider: Name, URL: endpoint, Err: ex.malformed,
			Message: fmt.Sprintf("invalid JSON from %s: %v", endpoint, ex.malformed)}
	}
	return nil
}

// streamedError is an error the server sent inside a 200 stream. It is
// retried when its code or status says the condition is transient.
func streamedError(endpoint string, e genai.APIError) *providers.Error {
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
		Err:        e,
	}
}

// retryDelay reads the google.rpc.RetryInfo detail Gemini sends with 429s
// ({"@type": ".../google.rpc.RetryInfo", "retryDelay": "48s"}), used when
// no Retry-After header came.
func retryDelay(body []byte) time.Duration {
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

func excerpt(s string) string {
	const limit = 300
	if len(s) > limit {
		return s[:limit] + "…"
	}
	return s
}
