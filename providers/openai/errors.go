package openai

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// site names one call in the errors it reports: the provider and the
// endpoint. Both stream parsers embed it.
type site struct {
	provider, endpoint string
}

// serverError is an error the server reported inside a 200 response: an
// "event: error" or a payload {"error":{...}}. It is retried only when the
// server says it was overloaded, rate limited or failed internally.
func (s site) serverError(data []byte) error {
	var typ, code, msg string
	var er goopenai.ErrorResponse
	if json.Unmarshal(data, &er) == nil && er.Error != nil && er.Error.Message != "" {
		typ, msg = er.Error.Type, er.Error.Message
		if er.Error.Code != nil {
			code = fmt.Sprint(er.Error.Code)
		}
	} else {
		code, msg = adapter.ServerMessage(data)
	}
	var status struct {
		Error struct {
			StatusCode int `json:"status_code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &status)
	if msg == "" {
		msg = "the server reported an error in the stream"
	}
	if code == "" {
		code = typ
	}
	return &providers.Error{
		Provider:  s.provider,
		URL:       adapter.StripQuery(s.endpoint),
		Code:      code,
		Message:   msg,
		Retryable: retryableCode(typ, code) || adapter.RetryableStatus(status.Error.StatusCode),
	}
}

// retryableCode reports whether an error type or code names a transient
// condition.
func retryableCode(codes ...string) bool {
	for _, c := range codes {
		c = strings.ToLower(c)
		for _, k := range []string{"rate_limit", "ratelimit", "overloaded", "server_error", "internal", "unavailable", "timeout"} {
			if strings.Contains(c, k) {
				return true
			}
		}
	}
	return false
}

// invalidJSON reports a payload that is not a JSON object. Sending the same
// request again would not fix the server, so it is not retried.
func (s site) invalidJSON(data []byte) error {
	const limit = 200
	excerpt := string(data)
	if len(excerpt) > limit {
		excerpt = excerpt[:limit] + "…"
	}
	return &providers.Error{
		Provider: s.provider,
		URL:      adapter.StripQuery(s.endpoint),
		Message:  fmt.Sprintf("invalid JSON from %s: %q", adapter.StripQuery(s.endpoint), excerpt),
	}
}

// readError converts a failure while reading the body.
func (s site) readError(ctx context.Context, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return &providers.Error{
			Provider: s.provider,
			URL:      adapter.StripQuery(s.endpoint),
			Message:  fmt.Sprintf("an event from %s exceeds %d MB", adapter.StripQuery(s.endpoint), maxEventSize>>20),
			Err:      err,
		}
	}
	return adapter.ReadError(ctx, s.provider, s.endpoint, err)
}
