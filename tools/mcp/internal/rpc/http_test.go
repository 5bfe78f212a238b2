package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHTTPExchanges drives the streamable HTTP transport through a
// scripted server: the session id it is given is sent back, notifications
// are accepted with 202, answers come as JSON or SSE (with a notification
// ahead of the answer), an error answer may come with an HTTP error
// status, and a lost session (404) fails this call and every later one.
func TestHTTPExchanges(t *testing.T) {
	var mu sync.Mutex
	var sessions []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		mu.Lock()
		sessions = append(sessions, m.Method+"="+r.Header.Get("Mcp-Session-Id"))
		mu.Unlock()
		switch m.Method {
		case "initialize":
			w.Header().Set("Mcp-Session-Id", "s1")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"v":"json"}}`, m.ID)
		case "notifications/initialized":
			w.WriteHeader(http.StatusAccepted)
		case "sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n")
			fmt.Fprintf(w, ": keep-alive\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\n", m.ID)
			fmt.Fprintf(w, "data: \"result\":{\"v\":\"sse\"}}\n\n")
		case "bad":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"bad params"}}`, m.ID)
		case "silent":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":12345,\"result\":{}}\n\n")
		case "html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html>")
		default:
			http.Error(w, "Session not found", http.StatusNotFound)
		}
	}))
	defer ts.Close()
	var notes []string
	c := NewClient(NewHTTP(HTTPOptions{URL: ts.URL}), Options{Notify: func(m string, _ json.RawMessage) { notes = append(notes, m) }})
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	call := func(method string) (string, error) {
		var out struct{ V string }
		err := c.Call(ctx, method, nil, &out)
		return out.V, err
	}
	for _, tc := range []struct {
		method, want string
		wantErr      func(error) bool
	}{
		{"initialize", "json", nil},
		{"sse", "sse", nil},
		{"bad", "", func(err error) bool { var e *Error; return errors.As(err, &e) && e.Code == -32602 }},
		{"silent", "", func(err error) bool { return errors.Is(err, ErrNoAnswer) }},
		{"html", "", func(err error) bool { return err != nil && strings.Contains(err.Error(), "text/html") }},
		{"gone", "", func(err error) bool { return errors.Is(err, ErrSessionLost) }},
		{"sse", "", func(err error) bool { return errors.Is(err, ErrSessionLost) }},
	} {
		got, err := call(tc.method)
		if tc.wantErr == nil && (err != nil || got != tc.want) {
			t.Errorf("%s: got %q, %v; want %q", tc.method, got, err, tc.want)
		}
		if tc.wantErr != nil && !tc.wantErr(err) {
			t.Errorf("%s: got error %v, not the one wanted", tc.method, err)
		}
		if tc.method == "initialize" {
			if err := c.Notify(ctx, "notifications/initialized", nil); err != nil {
				t.Errorf("notification: %v", err)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := "initialize= notifications/initialized=s1 sse=s1 bad=s1 silent=s1 html=s1 gone=s1"
	if got := strings.Join(sessions, " "); got != want {
		t.Errorf("requests and their session ids: got %q, want %q (none sent once the session is lost)", got, want)
	}
	if len(notes) != 1 || notes[0] != "notifications/progress" {
		t.Errorf("notifications: got %v, want the one sent ahead of the SSE answer", notes)
	}
}

// TestSSEEndpointTimeout: a legacy SSE server that never names its
// endpoint fails Start after the timeout with an error that says so.
func TestSSEEndpointTimeout(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer ts.Close()
	c := NewClient(NewSSE(HTTPOptions{URL: ts.URL}, 100*time.Millisecond), Options{})
	err := c.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no endpoint event") {
		t.Fatalf("got %v, want an error naming the missing endpoint event", err)
	}
	if cerr := c.Call(context.Background(), "x", nil, nil); !errors.Is(cerr, ErrClosed) {
		t.Fatalf("a call after a failed start: got %v, want ErrClosed", cerr)
	}
}

// TestHTTPRedirectElsewhereKeepsHeaders: a server that redirects a call
// to another address (here another port of the same host, which net/http
// treats as the same domain) does not get the configured headers, which
// hold credentials, sent there: the call fails naming both addresses.
func TestHTTPRedirectElsewhereKeepsHeaders(t *testing.T) {
	const secret = "Bearer mcp-5ecret"
	var elsewhere sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Lock()
		leaked = append(leaked, r.Header.Get("Authorization")+r.Header.Get("X-Api-Key"))
		elsewhere.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer other.Close()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer ts.Close()
	c := NewClient(NewHTTP(HTTPOptions{URL: ts.URL + "/mcp", Headers: map[string]string{"Authorization": secret, "X-Api-Key": secret}}), Options{})
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := c.Call(ctx, "initialize", nil, nil)
	if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(other.URL, "http://")) {
		t.Errorf("the call should fail naming where it was sent: %v", err)
	}
	elsewhere.Lock()
	defer elsewhere.Unlock()
	if len(leaked) > 0 {
		t.Errorf("the other address got %d requests (headers %q)", len(leaked), leaked)
	}
}
