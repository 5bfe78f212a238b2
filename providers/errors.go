package providers

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Error is a failed provider call: an HTTP error status, an error event in
// the stream, a malformed or cut stream, or a network failure.
type Error struct {
	Provider string
	// URL is the endpoint called, without query parameters.
	URL string
	// StatusCode is the HTTP status, 0 for network and stream failures.
	StatusCode int
	// Code is the server's error type or code, when it sent one.
	Code string
	// Message is the server's own message, or a description of the failure.
	Message string
	// Retryable says whether the same request may succeed if sent again.
	Retryable bool
	// RetryAfter is the server's requested wait, when it sent one.
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(": ")
	if e.StatusCode > 0 {
		fmt.Fprintf(&b, "%d from %s", e.StatusCode, hostOf(e.URL))
		if e.Message != "" {
			b.WriteString(": ")
		}
	}
	b.WriteString(e.Message)
	// Failures without a status name the endpoint, unless the message
	// already does.
	if e.StatusCode == 0 && e.URL != "" && !strings.Contains(e.Message, e.URL) {
		fmt.Fprintf(&b, " (%s)", e.URL)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// SetupError is a provider that cannot be used as configured: a missing API
// key or base URL. Vars names the environment variables that would fix it.
type SetupError struct {
	Provider string
	Vars     []string
	Message  string
}

func (e *SetupError) Error() string {
	if e.Message != "" {
		return e.Provider + ": " + e.Message
	}
	return fmt.Sprintf("%s: %s is not set", e.Provider, strings.Join(e.Vars, " or "))
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Host
}
