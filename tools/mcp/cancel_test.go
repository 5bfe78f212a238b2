package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// TestCallTimeoutSendsCancelled: a tool call that runs past the server's
// tool_timeout comes back to the model as an error naming the setting, and
// the server is sent notifications/cancelled, over streamable HTTP (seen
// on the wire: closing the request would cancel the handler anyway) and
// over stdio (seen by the tool, whose context only that notice cancels).
func TestCallTimeoutSendsCancelled(t *testing.T) {
	exe, _ := os.Executable()
	var noticed atomic.Bool
	h := server.NewStreamableHTTPServer(testServer(50))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"notifications/cancelled"`)) {
			noticed.Store(true)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	cases := []struct {
		name      string
		server    Server
		cancelled func(mark string) bool
	}{
		{"streamable-http", Server{Name: "t", URL: ts.URL + "/mcp", ToolTimeout: 0.3},
			func(string) bool { return noticed.Load() }},
		{"stdio", Server{Name: "t", Command: exe, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1"}, ToolTimeout: 0.3},
			func(mark string) bool { _, err := os.Stat(mark); return err == nil }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := New([]Server{tc.server}, t.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_ = src.Start(ctx)
			defer src.Close()
			if d := src.Diagnostics(); len(d) > 0 {
				t.Fatalf("diagnostics: %+v", d)
			}
			list, _ := src.Tools(ctx)
			mark := filepath.Join(t.TempDir(), "cancelled")
			args, _ := json.Marshal(map[string]string{"mark": mark})
			start := time.Now()
			res, err := byName(t, list, "mcp__t__hang").Execute(ctx, args)
			if err != nil || !res.IsError || !strings.Contains(res.Content, "tool_timeout") {
				t.Fatalf("got %+v, %v; want an error result naming tool_timeout", res, err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("the call took %s, want about the 0.3 s timeout", d)
			}
			deadline := time.Now().Add(10 * time.Second)
			for !tc.cancelled(mark) {
				if time.Now().After(deadline) {
					t.Fatal("the server was not sent notifications/cancelled")
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// TestCloseDeletesHTTPSession: closing a streamable HTTP server's client
// ends its session on the server with a DELETE.
func TestCloseDeletesHTTPSession(t *testing.T) {
	var deleted atomic.Bool
	h := server.NewStreamableHTTPServer(testServer(50))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete && r.Header.Get("Mcp-Session-Id") != "" {
			deleted.Store(true)
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	src := New([]Server{{Name: "t", URL: ts.URL + "/mcp"}}, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = src.Start(ctx)
	if d := src.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	if deleted.Load() {
		t.Fatal("the session was deleted before Close")
	}
	src.Close()
	if !deleted.Load() {
		t.Error("Close sent no DELETE for the session")
	}
}
