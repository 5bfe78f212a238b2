package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/tools"
)

// redacted replaces a secret's value wherever llmrt writes it.
const redacted = "[REDACTED]"

// minSecret is the shortest value that is redacted. A secret is redacted
// whatever its length from here up (a .env's DB_PASSWORD=hunter2, even
// PASSWORD=test, which then shows as [REDACTED] wherever the word occurs);
// one to three characters are left alone, since replacing them would
// garble every line they occur in and they protect nothing anyway.
const minSecret = 4

// plainValue reports whether v is a value so common that it cannot be a
// secret, only a setting (FEATURE_TOKEN=true): redacting it would wreck
// every output it occurs in.
func plainValue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "none", "null":
		return true
	}
	return false
}

// redactor removes the values of known secrets (provider keys, and later
// MCP header values) from everything llmrt writes besides the answer:
// sessions, traces, progress and error messages. The host fills it as it
// learns the values; it is safe for concurrent use.
type redactor struct {
	mu     sync.RWMutex
	values [][]byte // raw and JSON-escaped forms, longest first
	texts  []string // values as strings, in the same order
}

// add registers secret values; short, empty and plain ones (plainValue)
// are ignored.
func (r *redactor) add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range values {
		if len(v) < minSecret || plainValue(v) {
			continue
		}
		forms := [][]byte{[]byte(v)}
		if b, err := json.Marshal(v); err == nil && string(b[1:len(b)-1]) != v {
			forms = append(forms, b[1:len(b)-1]) // as it appears inside JSON
		}
		for _, f := range forms {
			if !r.known(f) {
				r.values = append(r.values, f)
			}
		}
	}
	// Longest first, so a secret that contains another is replaced whole.
	sort.Slice(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
	r.texts = r.texts[:0]
	for _, v := range r.values {
		r.texts = append(r.texts, string(v))
	}
}

func (r *redactor) known(v []byte) bool {
	for _, have := range r.values {
		if bytes.Equal(have, v) {
			return true
		}
	}
	return false
}

// bytes returns b with every secret replaced; b itself is returned when it
// holds none. A nil redactor redacts nothing.
func (r *redactor) bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, v := range r.values {
		if bytes.Contains(b, v) {
			b = bytes.ReplaceAll(b, v, []byte(redacted))
		}
	}
	return b
}

// string is bytes for text; s itself is returned when it holds no secret.
func (r *redactor) string(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	found := false
	for _, v := range r.texts {
		if found = strings.Contains(s, v); found {
			break
		}
	}
	r.mu.RUnlock()
	if !found {
		return s
	}
	return string(r.bytes([]byte(s)))
}

// writer returns w behind the redactor. Each Write is redacted on its own,
// which suits line-at-a-time writers (progress, warnings, JSON lines).
func (r *redactor) writer(w io.Writer) io.Writer { return &redactWriter{w: w, r: r} }

type redactWriter struct {
	w io.Writer
	r *redactor
}

func (rw *redactWriter) Write(p []byte) (int, error) {
	if _, err := rw.w.Write(rw.r.bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// secretValues returns, for redaction, the values of the variables of env
// (KEY=VALUE) that hold secrets (tools.SecretVar: by name, or a URL with
// credentials): the ones a command never sees, so that one that comes
// back some other way (a file, a server's reply) is not written either.
// A URL's credential is returned besides the whole URL, since an error
// message may quote it alone. Absolute paths are left out: SSH_KEY_PATH
// names a file, not a secret, and redacting a directory would garble
// every path under it.
func secretValues(env []string) []string {
	var out []string
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !tools.SecretVar(name, value) || strings.HasPrefix(value, "/") {
			continue
		}
		out = append(out, value)
		if cred, ok := tools.URLCredential(value); ok {
			out = append(out, cred)
		}
	}
	return out
}

// headerSecrets returns the values of HTTP headers for redaction: each
// whole value and, for an authorization scheme ("Bearer TOKEN"), the
// credential alone, which is what a server is likely to echo.
func headerSecrets(headers map[string]string) []string {
	var out []string
	for _, v := range headers {
		out = append(out, v)
		if scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok && !strings.Contains(scheme, "=") {
			out = append(out, strings.TrimSpace(cred))
		}
	}
	return out
}
