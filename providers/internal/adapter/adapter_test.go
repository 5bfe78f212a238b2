package adapter

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/providers"
)

func TestNameCodec(t *testing.T) {
	names := []string{"read_file", "mcp.github/create issue", "mcp_github_create_issue", "ünïcode", strings.Repeat("x", 80), strings.Repeat("x", 70)}
	c := NewNameCodec(names, FunctionNames)
	seen := map[string]bool{}
	for _, n := range names {
		w := c.Wire(n)
		if len(w) > 64 || seen[w] {
			t.Errorf("%q → %q: too long or not unique", n, w)
		}
		seen[w] = true
		for i := 0; i < len(w); i++ {
			if !FunctionNameByte(w[i]) {
				t.Errorf("%q → %q holds %q", n, w, w[i])
			}
		}
		if back := c.Name(w); back != n {
			t.Errorf("round trip of %q: got %q", n, back)
		}
	}
	if c.Wire("read_file") != "read_file" || c.Wire("mcp_github_create_issue") != "mcp_github_create_issue" {
		t.Errorf("valid names must pass through unchanged")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"9"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(3 * time.Second).Format(http.TimeFormat)}}, 3 * time.Second},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{}, 0},
	}
	for _, tc := range cases {
		if got := ParseRetryAfter(tc.h, now); got != tc.want {
			t.Errorf("%v: got %s, want %s", tc.h, got, tc.want)
		}
	}
}

func TestServerMessage(t *testing.T) {
	cases := []struct{ body, code, msg string }{
		{`{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}`, "invalid_api_key", "bad key"},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "overloaded_error", "Overloaded"},
		{`[{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}]`, "RESOURCE_EXHAUSTED", "quota"},
		{`{"error":"model not found"}`, "", "model not found"},
		{`{"message":"Unauthorized"}`, "", "Unauthorized"},
		{`{"detail":"nope"}`, "", "nope"},
		{"<html>\nBad Gateway</html>", "", "<html>"},
	}
	for _, tc := range cases {
		code, msg := ServerMessage([]byte(tc.body))
		if code != tc.code || msg != tc.msg {
			t.Errorf("%s: got (%q, %q), want (%q, %q)", tc.body, code, msg, tc.code, tc.msg)
		}
	}
}

// TestTimeouts: a server that never sends headers and one that stalls
// mid-body both fail with errors naming the providers.URL; cancellation is not
// reported as a timeout.
func TestTimeouts(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall" {
			w.Write([]byte("data: one\n\n"))
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/hang", nil)
	_, err := Send(ctx, srv.Client(), "p", req, Timeouts{Response: 100 * time.Millisecond})
	var pe *providers.Error
	if !errors.As(err, &pe) || !pe.Retryable || !strings.Contains(err.Error(), "no response from "+srv.URL+"/hang within 100ms") {
		t.Errorf("hang: got %v", err)
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/stall", nil)
	resp, err := Send(ctx, srv.Client(), "p", req, Timeouts{Idle: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	var readErr error
	for readErr == nil {
		_, readErr = resp.Body.Read(buf)
	}
	resp.Body.Close()
	err = ReadError(ctx, "p", srv.URL+"/stall", readErr)
	if !strings.Contains(err.Error(), "stalled") {
		t.Errorf("stall: got %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancel)
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/hang", nil)
	if _, err := Send(cctx, srv.Client(), "p", req, Timeouts{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: got %v", err)
	}
	hc := &http.Client{Transport: TimeoutTransport(nil, Timeouts{Response: 100 * time.Millisecond})}
	_, err = hc.Get(srv.URL + "/hang")
	if !errors.Is(err, errNoResponse) {
		t.Errorf("transport: got %v", err)
	}
	if ne := NetworkError(ctx, "p", srv.URL+"/hang", err); !strings.Contains(ne.Error(), "no response from") {
		t.Errorf("network error: %v", ne)
	}
}

// TestNameRuleFirst: a rule on the first byte (Gemini: a letter or '_')
// prefixes names that would start badly, keeping the mapping one-to-one.
func TestNameRuleFirst(t *testing.T) {
	rule := NameRule{Byte: FunctionNameByte, First: func(b byte) bool { return b == '_' || (b >= 'a' && b <= 'z') }, MaxLen: 12}
	names := []string{"1st_tool", "_1st_tool", "ok", "-dash", "123456789012"}
	c := NewNameCodec(names, rule)
	seen := map[string]bool{}
	for _, n := range names {
		w := c.Wire(n)
		if !rule.valid(w) || seen[w] || c.Name(w) != n {
			t.Errorf("%q → %q: invalid, duplicate or not reversible", n, w)
		}
		seen[w] = true
	}
	if c.Wire("ok") != "ok" {
		t.Errorf("valid names pass through")
	}
	r := &providers.Request{Tools: []providers.ToolSpec{{Name: "a.b"}}, Messages: []providers.Message{
		{Role: providers.RoleAssistant, ToolCalls: []providers.ToolCall{{Name: "old.tool"}}},
		{Role: providers.RoleTool, ToolName: "gone.tool"},
	}}
	rc := ToolNameCodec(r, FunctionNames)
	for _, n := range []string{"a.b", "old.tool", "gone.tool"} {
		if w := rc.Wire(n); w == n || rc.Name(w) != n {
			t.Errorf("ToolNameCodec should cover %q, got %q", n, w)
		}
	}
}
