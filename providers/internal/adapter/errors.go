package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmrt/llmrt/internal/origin"
	"github.com/llmrt/llmrt/providers"
)

// RetryableStatus reports whether an HTTP status is worth retrying: 408,
// 409, 429, 5xx and Anthropic's 529.
func RetryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict ||
		code == http.StatusTooManyRequests || code >= 500
}

// ParseRetryAfter reads retry-after-ms, then Retry-After (seconds or an HTTP
// date). It returns 0 when neither is usable.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// StatusError builds the error for a non-2xx response whose body has been
// read. It extracts the server's message from the common JSON error shapes
// and falls back to the start of the body.
func StatusError(provider, endpoint string, resp *http.Response, body []byte) *providers.Error {
	code, msg := ServerMessage(body)
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	return &providers.Error{
		Provider:   provider,
		URL:        StripQuery(endpoint),
		StatusCode: resp.StatusCode,
		Code:       code,
		Message:    msg,
		Retryable:  RetryableStatus(resp.StatusCode),
		RetryAfter: ParseRetryAfter(resp.Header, time.Now()),
	}
}

// ServerMessage extracts an error code and message from an error body in any
// of the shapes providers use: {"error":{"message","type","code"}},
// {"error":"text"}, {"message":...}, {"detail":...}, or a JSON array holding
// one of those (Gemini). Non-JSON bodies yield their first line, trimmed.
func ServerMessage(body []byte) (code, message string) {
	body = []byte(strings.TrimSpace(string(body)))
	var arr []json.RawMessage
	if json.Unmarshal(body, &arr) == nil && len(arr) > 0 {
		body = arr[0]
	}
	var shape struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
		Type    string          `json:"type"`
	}
	if json.Unmarshal(body, &shape) != nil {
		line, _, _ := strings.Cut(string(body), "\n")
		return "", truncate(strings.TrimSpace(line), 300)
	}
	if len(shape.Error) > 0 {
		var s string
		if json.Unmarshal(shape.Error, &s) == nil {
			return shape.Type, s
		}
		var obj struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
			Status  string `json:"status"`
		}
		if json.Unmarshal(shape.Error, &obj) == nil {
			code = obj.Type
			if c, ok := obj.Code.(string); ok && c != "" {
				code = c
			}
			if obj.Status != "" {
				code = obj.Status
			}
			return code, obj.Message
		}
	}
	if shape.Message != "" {
		return shape.Type, shape.Message
	}
	if shape.Detail != nil {
		return shape.Type, fmt.Sprint(shape.Detail)
	}
	return "", truncate(string(body), 300)
}

// NetworkError wraps a transport failure. Cancellation is returned as the
// context's error, untouched, so callers can tell it from a failure.
func NetworkError(ctx context.Context, provider, endpoint string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	endpoint = StripQuery(endpoint)
	e := &providers.Error{Provider: provider, URL: endpoint, Retryable: true, Err: err}
	var netErr net.Error
	var redirect *origin.RedirectError
	switch {
	case errors.As(err, &redirect):
		e.Retryable = false
		e.Message = redirect.Error()
	case errors.Is(err, syscall.ECONNREFUSED):
		e.Message = fmt.Sprintf("cannot connect to %s: connection refused (is the server running?)", endpoint)
	case errors.Is(err, errNoResponse):
		var nr noResponseError
		if errors.As(err, &nr) {
			e.Message = fmt.Sprintf("no response from %s within %s", endpoint, nr.d)
		} else {
			e.Message = fmt.Sprintf("no response from %s", endpoint)
		}
	case errors.Is(err, errIdle):
		e.Message = fmt.Sprintf("no data from %s for %s; the stream stalled", endpoint, idleOf(err))
	case errors.As(err, &netErr) && netErr.Timeout():
		e.Message = fmt.Sprintf("no response from %s: %v", endpoint, unwrapURLError(err))
	default:
		e.Message = fmt.Sprintf("request to %s failed: %v", endpoint, unwrapURLError(err))
	}
	return e
}

// StreamError reports a stream that broke the protocol or ended early.
func StreamError(provider, endpoint, message string) *providers.Error {
	return &providers.Error{Provider: provider, URL: StripQuery(endpoint), Message: message, Retryable: true}
}

// StripQuery drops the query string (which may hold a key) from a URL.
func StripQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.RawQuery = ""
	u.User = nil
	return u.String()
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
