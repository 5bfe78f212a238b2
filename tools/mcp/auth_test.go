package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/mcp/oauth"
)

// TestAuthorizationHeader: an Authorization header left empty by an unset
// variable is not sent, and leaves the server to OAuth; a real one is
// sent and OAuth stays out of its way.
func TestAuthorizationHeader(t *testing.T) {
	cases := []struct {
		value     string
		sent      bool
		withOAuth bool
	}{
		{"Bearer ", false, true},
		{"Bearer", false, true},
		{"", false, true},
		{"Bearer tok-123", true, false},
		{"Basic dXNlcjpwYXNz", true, false},
	}
	for _, c := range cases {
		cn := &conn{cfg: Server{Name: "docs", URL: "https://docs.example/mcp", Headers: map[string]string{"Authorization": c.value, "X-Team": "a"}}}
		h := cn.headers()
		if _, ok := h["Authorization"]; ok != c.sent || h["X-Team"] != "a" {
			t.Errorf("Authorization %q: headers %v, want it sent %v (and X-Team kept)", c.value, h, c.sent)
		}
		if got := cn.authTransport() != nil; got != c.withOAuth {
			t.Errorf("Authorization %q: OAuth transport %v, want %v", c.value, got, c.withOAuth)
		}
	}
}

// oauthFront guards h with bearer tokens it issues itself, as an MCP
// server and its authorization server on one host: metadata, dynamic
// registration, an authorize endpoint that approves at once, tokens.
func oauthFront(t *testing.T, h http.Handler) (*httptest.Server, func()) {
	var mu sync.Mutex
	valid := map[string]bool{}
	n := 0
	var ts *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": ts.URL, "authorization_servers": []string{ts.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": ts.URL, "authorization_endpoint": ts.URL + "/authorize",
			"token_endpoint": ts.URL + "/token", "registration_endpoint": ts.URL + "/register"})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"client_id":"c1"}`)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		http.Redirect(w, r, q.Get("redirect_uri")+"?code=x&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		tok := fmt.Sprintf("tok-%d", n)
		valid[tok] = true
		mu.Unlock()
		_, _ = fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer"}`, tok)
	})
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ok := valid[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	ts = httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	revoke := func() { mu.Lock(); valid = map[string]bool{}; mu.Unlock() }
	return ts, revoke
}

// follow plays a person who approves at once.
func follow(ctx context.Context, u string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// TestOAuthServers: a streamable HTTP and an SSE server behind OAuth
// fail to start with no one to authorize (naming `llmrt mcp login`),
// work after Source.Login, and Logout forgets their token.
func TestOAuthServers(t *testing.T) {
	for _, kind := range []string{"http", "sse"} {
		t.Run(kind, func(t *testing.T) {
			var ts *httptest.Server
			var revoke func()
			switch kind {
			case "http":
				ts, revoke = oauthFront(t, server.NewStreamableHTTPServer(testServer(50)))
			case "sse":
				ts, revoke = oauthFront(t, server.NewSSEServer(testServer(50)))
			}
			path := map[string]string{"http": "/mcp", "sse": "/sse"}[kind]
			store := &oauth.Store{Dir: t.TempDir()}
			src := New([]Server{{Name: "t", Type: kind, URL: ts.URL + path}}, t.TempDir())
			var secrets []string
			var smu sync.Mutex
			src.SetAuth(Auth{Store: store, OnSecret: func(v ...string) { smu.Lock(); secrets = append(secrets, v...); smu.Unlock() }})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_ = src.Start(ctx)
			defer src.Close()
			d := src.Diagnostics()
			if len(d) != 1 || !strings.Contains(d[0].Message, "llmrt mcp login t") {
				t.Fatalf("before login: diagnostics %+v, want one naming `llmrt mcp login t`", d)
			}
			if !src.NeedsLogin("t") {
				t.Errorf("before login: NeedsLogin = false, want true")
			}
			if err := src.Login(ctx, "t", follow); err != nil {
				t.Fatalf("Login: %v", err)
			}
			if src.NeedsLogin("t") {
				t.Errorf("after login: NeedsLogin = true, want false")
			}
			if st := src.Statuses()[0]; st.State != "ready" {
				t.Fatalf("after login: %+v, want ready", st)
			}
			ts2, _ := src.Tools(ctx)
			var sum *tools.Tool
			for i := range ts2 {
				if strings.HasSuffix(ts2[i].Name, "get-sum") {
					sum = &ts2[i]
				}
			}
			if sum == nil {
				t.Fatalf("no get-sum among %d tools", len(ts2))
			}
			res, err := sum.Execute(ctx, json.RawMessage(`{"a":2,"b":3}`))
			if err != nil || !strings.Contains(res.Content, "5") {
				t.Fatalf("get-sum: %+v %v", res, err)
			}
			// The tokens are revoked: a login again serves the running
			// client, without a restart.
			revoke()
			if err := src.Login(ctx, "t", follow); err != nil {
				t.Fatalf("Login again: %v", err)
			}
			res, err = sum.Execute(ctx, json.RawMessage(`{"a":2,"b":3}`))
			if err != nil || res.IsError || !strings.Contains(res.Content, "5") {
				t.Fatalf("get-sum after a new login: %+v %v", res, err)
			}
			smu.Lock()
			told := strings.Join(secrets, " ")
			smu.Unlock()
			if !strings.Contains(told, "tok-") {
				t.Errorf("the token was not told for redaction: %q", told)
			}
			if had, err := src.Logout("t"); !had || err != nil {
				t.Errorf("Logout: %v %v, want true", had, err)
			}
		})
	}
}

// TestOAuthConfigExpands: ${VAR} expands in the oauth block as in
// headers, and Claude Code's names are read.
func TestOAuthConfigExpands(t *testing.T) {
	t.Setenv("MCP_TEST_OAUTH_SECRET", "from-env")
	list, err := Parse([]byte(`{"mcpServers":{"d":{"url":"https://d.example/mcp","oauth":{"clientId":"cid","client_secret":"${MCP_TEST_OAUTH_SECRET}","scopes":["${MCP_TEST_UNSET:-read}"]}}}}`), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	o := list[0].OAuth
	if o == nil || o.ClientID != "cid" || o.ClientSecret != "from-env" || len(o.Scopes) != 1 || o.Scopes[0] != "read" {
		t.Fatalf("oauth block: got %+v", o)
	}
	bad := Server{Name: "d", URL: "https://d.example/mcp", OAuth: &oauth.Config{GrantType: "implicit"}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "grant_type") {
		t.Errorf("Validate: got %v, want an error naming grant_type", err)
	}
}
