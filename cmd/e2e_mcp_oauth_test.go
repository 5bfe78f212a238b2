package cmd_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/llmrt/llmrt/cmd/internal/fakellm"
)

// oauthServer is an OAuth-protected streamable HTTP MCP server on
// 127.0.0.1 with its own authorization server: dynamic registration,
// PKCE, refresh tokens. Its authorize endpoint approves at once, as a
// person clicking "Allow" would.
type oauthServer struct {
	*httptest.Server
	t *testing.T

	mu        sync.Mutex
	challenge map[string]string // code -> PKCE challenge
	valid     map[string]bool   // access tokens accepted
	issued    []string          // every token and refresh token issued
	refreshes int
	next      int
}

func newOAuthServer(t *testing.T) *oauthServer {
	o := &oauthServer{t: t, challenge: map[string]string{}, valid: map[string]bool{}}
	s := server.NewMCPServer("docs", "1.0.0")
	s.AddTool(mcp.NewTool("whoami", mcp.WithDescription("Says who the token belongs to")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("you are alice (via oauth)"), nil
		})
	mcpHandler := server.NewStreamableHTTPServer(s)
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": o.URL + "/mcp", "authorization_servers": []string{o.URL}, "scopes_supported": []string{"docs:read"}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"issuer": o.URL, "authorization_endpoint": o.URL + "/authorize", "token_endpoint": o.URL + "/token",
			"registration_endpoint": o.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
			"scopes_supported": []string{"docs:read", "offline_access"}, "token_endpoint_auth_methods_supported": []string{"none"},
			"authorization_response_iss_parameter_supported": true})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, map[string]any{"client_id": "llmrt-client-1", "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("resource") != o.URL+"/mcp" || !strings.Contains(q.Get("scope"), "docs:read") {
			http.Error(w, "bad authorization request: "+r.URL.RawQuery, http.StatusBadRequest)
			return
		}
		o.mu.Lock()
		o.next++
		code := fmt.Sprintf("code-%d", o.next)
		o.challenge[code] = q.Get("code_challenge")
		o.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?code="+code+"&state="+q.Get("state")+"&iss="+o.URL, http.StatusFound)
	})
	mux.HandleFunc("/token", o.token)
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		o.mu.Lock()
		ok := o.valid[tok]
		o.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", resource_metadata="`+o.URL+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	o.Server = httptest.NewServer(mux)
	t.Cleanup(o.Close)
	return o
}

func (o *oauthServer) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	o.mu.Lock()
	defer o.mu.Unlock()
	switch r.Form.Get("grant_type") {
	case "authorization_code":
		want, ok := o.challenge[r.Form.Get("code")]
		delete(o.challenge, r.Form.Get("code"))
		if !ok || pkceS256(r.Form.Get("code_verifier")) != want || r.Form.Get("resource") != o.URL+"/mcp" {
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]string{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		if !slicesContains(o.issued, r.Form.Get("refresh_token")) || !strings.HasPrefix(r.Form.Get("refresh_token"), "rt-") {
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]string{"error": "invalid_grant"})
			return
		}
		o.refreshes++
	default:
		w.WriteHeader(http.StatusBadRequest)
		writeJSON(w, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	o.next++
	at, rt := fmt.Sprintf("at-secret-%d-xyzzy", o.next), fmt.Sprintf("rt-secret-%d-plugh", o.next)
	o.valid[at] = true
	o.issued = append(o.issued, at, rt)
	writeJSON(w, map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": 3600, "refresh_token": rt, "scope": "docs:read offline_access"})
}

// expireAll makes every access token issued so far invalid, as time would.
func (o *oauthServer) expireAll() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.valid = map[string]bool{}
}

func (o *oauthServer) secrets() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.issued...)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func slicesContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestMCPOAuthLoginThroughTheBinary: a run against an OAuth server that
// no one logged in to fails the server with a message naming `llmrt mcp
// login`; `llmrt mcp login` headlessly prints the URL, which the test
// follows as a browser would; the token file is 0600 in a 0700
// directory; a run then calls the server's tool after refreshing the
// expired token; no token reaches the session; logout removes the file.
func TestMCPOAuthLoginThroughTheBinary(t *testing.T) {
	t.Parallel()
	as := newOAuthServer(t)
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"docs":{"url":%q,"headers":{"Authorization":"Bearer ${DOCS_TOKEN}"}}`, as.URL+"/mcp"))

	// Before login: the server fails with the way on; the run goes on.
	srv := fake(t, fakellm.OpenAI, finalAnswer("nothing"))
	o := openaiRun(sb, srv, "-p", "who am i")
	o.want(t, 0)
	if !strings.Contains(o.stderr, "llmrt mcp login docs") {
		t.Errorf("a server that needs authorization should name `llmrt mcp login docs`; stderr: %s", o.stderr)
	}

	// Login, headless: the URL is printed and the test plays the browser.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := sb.command(ctx, cli{args: []string{"mcp", "login", "docs"}})
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urlRE := regexp.MustCompile(`https?://\S+/authorize\?\S+`)
	var printed strings.Builder
	sc := bufio.NewScanner(stderr)
	authURL := ""
	for authURL == "" && sc.Scan() {
		printed.WriteString(sc.Text() + "\n")
		authURL = urlRE.FindString(sc.Text())
	}
	if authURL == "" {
		_ = cmd.Wait()
		t.Fatalf("llmrt mcp login printed no authorization URL:\n%s", printed.String())
	}
	go io.Copy(io.Discard, stderr)
	resp, err := http.Get(authURL) // follows the redirect to llmrt's loopback listener
	if err != nil {
		t.Fatalf("follow the authorization URL: %v", err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "authorized") {
		t.Errorf("the loopback page: got %d %q, want 200 saying llmrt is authorized", resp.StatusCode, page)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("llmrt mcp login: %v\nstdout: %s\nstderr: %s", err, stdout.String(), printed.String())
	}
	if !strings.Contains(stdout.String(), "docs") {
		t.Errorf("login should say it logged in to docs; stdout: %q", stdout.String())
	}

	authDir := filepath.Join(sb.home, "state", "llmrt", "mcp-auth")
	files, _ := filepath.Glob(filepath.Join(authDir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("want one token file in %s, got %v", authDir, files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file %s: mode %v (%v), want 0600", files[0], fi.Mode().Perm(), err)
	}
	if fi, err := os.Stat(authDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("token directory: mode %v (%v), want 0700", fi.Mode().Perm(), err)
	}
	if data, _ := os.ReadFile(files[0]); !strings.Contains(string(data), "at-secret-") {
		t.Errorf("the token file holds no access token: %s", data)
	}

	// The token has expired by the time of the run: it is refreshed, and
	// the tool answers.
	as.expireAll()
	srv = fake(t, fakellm.OpenAI, toolCall("mcp__docs__whoami", `{}`), finalAnswer("alice"))
	o = openaiRun(sb, srv, "--permission", "auto", "-p", "who am i")
	o.want(t, 0)
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "you are alice (via oauth)") {
		t.Fatalf("the tool's answer should reach the model; %d requests; stderr: %s", len(reqs), o.stderr)
	}
	as.mu.Lock()
	refreshes := as.refreshes
	as.mu.Unlock()
	if refreshes != 1 {
		t.Errorf("refreshes: got %d, want 1", refreshes)
	}

	// No token anywhere in llmrt's state but the token file.
	_ = filepath.WalkDir(filepath.Join(sb.home, "state"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Dir(p) == authDir {
			return err
		}
		data, _ := os.ReadFile(p)
		for _, s := range as.secrets() {
			if strings.Contains(string(data), s) {
				t.Errorf("%s holds token %s", p, s)
			}
		}
		return nil
	})
	for _, s := range as.secrets() {
		if strings.Contains(o.stderr, s) || strings.Contains(o.stdout, s) {
			t.Errorf("the run's output shows token %s", s)
		}
	}

	o = sb.run(cli{args: []string{"mcp", "logout", "docs"}})
	o.want(t, 0)
	if files, _ := filepath.Glob(filepath.Join(authDir, "*.json")); len(files) != 0 {
		t.Errorf("logout left %v", files)
	}
}

// pkceS256 is the S256 challenge of a verifier.
func pkceS256(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// TestMCPLoginRefusals: login names what is wrong: an unknown server
// (exit 2, pointing at mcp list), a stdio server (no OAuth), and a
// server that does not ask for authorization at all.
func TestMCPLoginRefusals(t *testing.T) {
	t.Parallel()
	open := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(open.Close)
	sb := newSandbox(t)
	sb.mcpConfig(fmt.Sprintf(`"local":{"command":"true"},"open":{"url":%q}`, open.URL+"/mcp"))
	cases := []struct {
		name string
		code int
		want string
	}{
		{"nosuch", 2, "llmrt mcp list"},
		{"local", 1, "stdio"},
		{"open", 1, "nothing to log in to"},
	}
	for _, c := range cases {
		o := sb.run(cli{args: []string{"mcp", "login", c.name}})
		if o.code != c.code || !strings.Contains(o.stderr, c.want) {
			t.Errorf("mcp login %s: exit %d, stderr %q; want exit %d naming %q", c.name, o.code, o.stderr, c.code, c.want)
		}
	}
}
