package oauth

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
)

// fakeServer is an MCP server (POST /mcp) with its authorization server
// on one httptest server; its fields say how it behaves and record what
// the client asked.
type fakeServer struct {
	*httptest.Server
	// prmPath serves the protected resource metadata there ("" serves
	// none); hint names it in the challenge.
	prmPath string
	hint    bool
	// prmResource overrides the resource the metadata names.
	prmResource string
	prmScopes   []string
	// asPrefix is the authorization server's issuer path; metaPath where
	// its metadata is ("" serves none: the 2025-03-26 fallback).
	asPrefix, metaPath string
	asScopes           []string
	// iss is what the redirect's iss parameter says: "" none, "good",
	// or a value.
	iss       string
	issPromis bool
	// need returns the scope a request needs ("" any token).
	need func(r *http.Request) string
	// expiresIn is the tokens' lifetime in seconds.
	expiresIn int

	mu         sync.Mutex
	wellKnown  []string
	authorized []url.Values
	authPaths  []string
	tokenForms []url.Values
	tokenAuth  []string          // the token requests' Authorization headers
	granted    map[string]string // access token -> scope
	n          int
}

func newFake(t *testing.T, f *fakeServer) *fakeServer {
	f.granted = map[string]string{}
	if f.expiresIn == 0 {
		f.expiresIn = 3600
	}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) issuer() string { return f.URL + f.asPrefix }

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/.well-known/") || strings.Contains(p, "/.well-known/") || p == f.prmPath:
		f.mu.Lock()
		f.wellKnown = append(f.wellKnown, p)
		f.mu.Unlock()
		switch {
		case f.prmPath != "" && p == f.prmPath:
			res := f.URL + "/mcp"
			if f.prmResource != "" {
				res = f.prmResource
			}
			writeJSON(w, map[string]any{"resource": res, "authorization_servers": []string{f.issuer()}, "scopes_supported": f.prmScopes})
		case f.metaPath != "" && p == f.metaPath:
			writeJSON(w, map[string]any{"issuer": f.issuer(), "authorization_endpoint": f.issuer() + "/authorize",
				"token_endpoint": f.issuer() + "/token", "registration_endpoint": f.issuer() + "/register",
				"scopes_supported": f.asScopes, "authorization_response_iss_parameter_supported": f.issPromis})
		default:
			http.NotFound(w, r)
		}
	case strings.HasSuffix(p, "/register"):
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, map[string]any{"client_id": "registered", "token_endpoint_auth_method": "none"})
	case strings.HasSuffix(p, "/authorize"):
		q := r.URL.Query()
		f.mu.Lock()
		f.authorized = append(f.authorized, q)
		f.authPaths = append(f.authPaths, p)
		f.mu.Unlock()
		back := q.Get("redirect_uri") + "?code=c1&state=" + url.QueryEscape(q.Get("state"))
		switch f.iss {
		case "":
		case "good":
			back += "&iss=" + url.QueryEscape(f.issuer())
		default:
			back += "&iss=" + url.QueryEscape(f.iss)
		}
		http.Redirect(w, r, back, http.StatusFound)
	case strings.HasSuffix(p, "/token"):
		_ = r.ParseForm()
		f.mu.Lock()
		f.tokenForms = append(f.tokenForms, r.PostForm)
		f.tokenAuth = append(f.tokenAuth, r.Header.Get("Authorization"))
		f.n++
		scope := r.PostForm.Get("scope")
		if r.PostForm.Get("grant_type") == "authorization_code" && len(f.authorized) > 0 {
			scope = f.authorized[len(f.authorized)-1].Get("scope")
		}
		if r.PostForm.Get("grant_type") == "refresh_token" {
			if r.PostForm.Get("refresh_token") == "revoked" {
				f.mu.Unlock()
				w.WriteHeader(http.StatusBadRequest)
				writeJSON(w, map[string]string{"error": "invalid_grant"})
				return
			}
			scope = "read refreshed"
		}
		// A scope with "never" in its name is never granted.
		var kept []string
		for _, sc := range strings.Fields(scope) {
			if !strings.Contains(sc, "never") {
				kept = append(kept, sc)
			}
		}
		scope = strings.Join(kept, " ")
		at := fmt.Sprintf("at-%d", f.n)
		f.granted[at] = scope
		f.mu.Unlock()
		writeJSON(w, map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": f.expiresIn, "refresh_token": fmt.Sprintf("rt-%d", f.n), "scope": scope})
	case p == "/mcp":
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		f.mu.Lock()
		scope, ok := f.granted[tok]
		f.mu.Unlock()
		need := ""
		if f.need != nil {
			need = f.need(r)
		}
		var hint string
		if f.hint {
			hint = fmt.Sprintf(`, resource_metadata="%s%s"`, f.URL, f.prmPath)
		}
		switch {
		case !ok:
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`+hint)
			w.WriteHeader(http.StatusUnauthorized)
		case need != "" && !hasAll(scope, need):
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q%s`, need, hint))
			w.WriteHeader(http.StatusForbidden)
		default:
			_, _ = io.WriteString(w, "ok "+tok)
		}
	default:
		http.NotFound(w, r)
	}
}

func hasAll(granted, need string) bool {
	for _, s := range strings.Fields(need) {
		if !contains(strings.Fields(granted), s) {
			return false
		}
	}
	return true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// browser follows the authorization URL as a person approving at once.
func browser(ctx context.Context, u string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// call posts to the fake's /mcp through tr, with op as a query.
func call(t *testing.T, tr *Transport, f *fakeServer, op string) (int, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.URL+"/mcp?op="+op, strings.NewReader(`{"jsonrpc":"2.0"}`))
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}
