package oauth

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func newTransport(f *fakeServer) *Transport {
	return &Transport{Server: "docs", URL: f.URL + "/mcp", Store: &Store{}, Open: browser}
}

// TestDiscoveryOrder: the metadata documents are looked for where RFC
// 9728, RFC 8414 and OpenID discovery say, in the MCP spec's order, and
// the flow ends with a token the server takes.
func TestDiscoveryOrder(t *testing.T) {
	const (
		prmPathBased = "/.well-known/oauth-protected-resource/mcp"
		prmRoot      = "/.well-known/oauth-protected-resource"
		asRoot       = "/.well-known/oauth-authorization-server"
		oidcRoot     = "/.well-known/openid-configuration"
	)
	cases := []struct {
		name   string
		fake   *fakeServer
		want   []string
		authAt string
	}{
		{"hinted metadata at a custom path", &fakeServer{prmPath: "/custom/prm.json", hint: true, metaPath: asRoot},
			[]string{"/custom/prm.json", asRoot}, "/authorize"},
		{"path-based metadata", &fakeServer{prmPath: prmPathBased, metaPath: asRoot},
			[]string{prmPathBased, asRoot}, "/authorize"},
		{"root metadata after path-based", &fakeServer{prmPath: prmRoot, metaPath: oidcRoot},
			[]string{prmPathBased, prmRoot, asRoot, oidcRoot}, "/authorize"},
		{"issuer with a path: never the root", &fakeServer{prmPath: prmPathBased, asPrefix: "/tenant", metaPath: "/tenant" + oidcRoot},
			[]string{prmPathBased, asRoot + "/tenant", oidcRoot + "/tenant", "/tenant" + oidcRoot}, "/tenant/authorize"},
		{"2025-03-26 server: no metadata, default endpoints", &fakeServer{},
			[]string{prmPathBased, prmRoot, asRoot, oidcRoot}, "/authorize"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, c.fake)
			status, body, err := call(t, newTransport(f), f, "read")
			if err != nil || status != http.StatusOK {
				t.Fatalf("call: %d %q %v, want 200", status, body, err)
			}
			if !slices.Equal(f.wellKnown, c.want) {
				t.Errorf("metadata requests: got %v, want %v", f.wellKnown, c.want)
			}
			if len(f.authorized) != 1 || f.authPaths[0] != c.authAt {
				t.Fatalf("authorization requests: got %d at %v, want 1 at %s", len(f.authorized), f.authPaths, c.authAt)
			}
			q := f.authorized[0]
			if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" {
				t.Errorf("authorization request without PKCE S256 and state: %v", q)
			}
			form := f.tokenForms[0]
			if pkceChallenge(form.Get("code_verifier")) != q.Get("code_challenge") {
				t.Errorf("the token request's code_verifier does not match the challenge")
			}
			wantResource := f.URL + "/mcp"
			if c.fake.prmPath == "" {
				wantResource = "" // no protected resource metadata, no indicator
			}
			if q.Get("resource") != wantResource || form.Get("resource") != wantResource {
				t.Errorf("resource: authorization %q, token %q, want %q", q.Get("resource"), form.Get("resource"), wantResource)
			}
		})
	}
}

// TestHeadlessNeedsLogin: with no one to show the URL to, a server that
// needs a person fails with the command that logs in, and no
// authorization is started.
func TestHeadlessNeedsLogin(t *testing.T) {
	f := newFake(t, &fakeServer{prmPath: "/.well-known/oauth-protected-resource/mcp", metaPath: "/.well-known/oauth-authorization-server"})
	tr := newTransport(f)
	tr.Open = nil
	_, _, err := call(t, tr, f, "read")
	var login *LoginRequiredError
	if !errors.As(err, &login) || !strings.Contains(err.Error(), "llmrt mcp login docs") {
		t.Fatalf("got %v, want a LoginRequiredError naming `llmrt mcp login docs`", err)
	}
	if len(f.authorized)+len(f.wellKnown) != 0 {
		t.Errorf("a headless transport should not start the flow: %v %v", f.wellKnown, f.authorized)
	}
}

// TestRefresh: an expired token is refreshed before it is sent; a
// refused refresh forgets the token, so the next call asks for a login.
func TestRefresh(t *testing.T) {
	f := newFake(t, &fakeServer{prmPath: "/.well-known/oauth-protected-resource/mcp", metaPath: "/.well-known/oauth-authorization-server", expiresIn: 600})
	now := time.Now()
	tr := newTransport(f)
	tr.Now = func() time.Time { return now }
	if status, _, err := call(t, tr, f, "read"); err != nil || status != 200 {
		t.Fatalf("first call: %d %v", status, err)
	}
	now = now.Add(time.Hour)
	status, body, err := call(t, tr, f, "read")
	if err != nil || status != 200 {
		t.Fatalf("call after expiry: %d %v", status, err)
	}
	last := f.tokenForms[len(f.tokenForms)-1]
	if len(f.authorized) != 1 || last.Get("grant_type") != "refresh_token" || last.Get("refresh_token") != "rt-1" {
		t.Errorf("want a refresh with rt-1 and no new authorization; authorizations %d, last token request %v", len(f.authorized), last)
	}
	if body != "ok at-2" {
		t.Errorf("the refreshed token was not sent: %q", body)
	}

	tr.rec.Token.RefreshToken = "revoked"
	now = now.Add(time.Hour)
	tr.Open = nil
	_, _, err = call(t, tr, f, "read")
	var login *LoginRequiredError
	if !errors.As(err, &login) {
		t.Fatalf("after a refused refresh: got %v, want a LoginRequiredError", err)
	}
	if tr.rec.Token != nil {
		t.Errorf("a refused refresh should forget the token")
	}
}

// TestStepUp: a 403 insufficient_scope asks for the scope it names along
// with what was granted; a server that never accepts is given up on
// after a bounded number of attempts.
func TestStepUp(t *testing.T) {
	f := newFake(t, &fakeServer{prmPath: "/.well-known/oauth-protected-resource/mcp", hint: true, metaPath: "/.well-known/oauth-authorization-server",
		prmScopes: []string{"read"}, need: func(r *http.Request) string {
			if r.URL.Query().Get("op") == "write" {
				return "write"
			}
			if r.URL.Query().Get("op") == "never" {
				return "admin-never-granted"
			}
			return ""
		}})
	tr := newTransport(f)
	if status, _, err := call(t, tr, f, "read"); err != nil || status != 200 {
		t.Fatalf("read: %d %v", status, err)
	}
	if status, _, err := call(t, tr, f, "write"); err != nil || status != 200 {
		t.Fatalf("write: %d %v", status, err)
	}
	if len(f.authorized) != 2 || f.authorized[0].Get("scope") != "read" || f.authorized[1].Get("scope") != "read write" {
		t.Errorf("scopes asked: got %v, want read, then read write", scopes(f))
	}
	before := len(f.authorized)
	status, _, err := call(t, tr, f, "never")
	if err != nil {
		t.Fatalf("never: %v", err)
	}
	if n := len(f.authorized) - before; status != http.StatusForbidden || n > maxAuthAttempts || n == 0 {
		t.Errorf("a scope never granted: status %d after %d authorizations, want 403 after 1 to %d", status, n, maxAuthAttempts)
	}
}

func scopes(f *fakeServer) []string {
	var out []string
	for _, q := range f.authorized {
		out = append(out, q.Get("scope"))
	}
	return out
}

// TestIssChecked: an authorization response from another issuer, or
// without the iss its server promised, is refused (RFC 9207).
func TestIssChecked(t *testing.T) {
	cases := []struct {
		name, iss string
		promised  bool
		ok        bool
	}{
		{"matching iss", "good", true, true},
		{"no iss, none promised", "", false, true},
		{"another issuer", "https://evil.example", false, false},
		{"missing but promised", "", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, &fakeServer{prmPath: "/.well-known/oauth-protected-resource/mcp", metaPath: "/.well-known/oauth-authorization-server", iss: c.iss, issPromis: c.promised})
			status, _, err := call(t, newTransport(f), f, "read")
			if c.ok && (err != nil || status != 200) {
				t.Fatalf("got %d %v, want 200", status, err)
			}
			if !c.ok && (err == nil || !strings.Contains(err.Error(), "RFC 9207")) {
				t.Fatalf("got %d %v, want a refusal naming RFC 9207", status, err)
			}
		})
	}
}

// TestResourceMismatchRefused: metadata naming another resource stops
// the flow before any authorization request.
func TestResourceMismatchRefused(t *testing.T) {
	f := newFake(t, &fakeServer{prmPath: "/.well-known/oauth-protected-resource/mcp", metaPath: "/.well-known/oauth-authorization-server", prmResource: "https://evil.example/mcp"})
	_, _, err := call(t, newTransport(f), f, "read")
	if err == nil || !strings.Contains(err.Error(), "evil.example") {
		t.Fatalf("got %v, want a refusal naming the resource", err)
	}
	if len(f.authorized) != 0 {
		t.Errorf("an authorization request was made for a mismatched resource")
	}
}

// TestOfflineAccess: offline_access is asked for only where the
// authorization server lists it.
func TestOfflineAccess(t *testing.T) {
	for _, offered := range []bool{true, false} {
		as := []string{"read"}
		if offered {
			as = append(as, "offline_access")
		}
		f := newFake(t, &fakeServer{prmPath: "/.well-known/oauth-protected-resource/mcp", metaPath: "/.well-known/oauth-authorization-server", prmScopes: []string{"read"}, asScopes: as})
		if _, _, err := call(t, newTransport(f), f, "read"); err != nil {
			t.Fatal(err)
		}
		want := "read"
		if offered {
			want = "read offline_access"
		}
		if got := f.authorized[0].Get("scope"); got != want {
			t.Errorf("offline_access offered %v: scope %q, want %q", offered, got, want)
		}
	}
}

// TestPreRegisteredClient: a configured client authenticates with HTTP
// Basic, on refresh too, and its secret stays in the config: the store
// has the token, not the secret.
func TestPreRegisteredClient(t *testing.T) {
	f := newFake(t, &fakeServer{prmPath: "/.well-known/oauth-protected-resource/mcp", metaPath: "/.well-known/oauth-authorization-server", expiresIn: 600})
	now := time.Now()
	dir := t.TempDir()
	tr := newTransport(f)
	tr.Store = &Store{Dir: dir}
	tr.Config = Config{ClientID: "pre", ClientSecret: "s3cret-value"}
	tr.Now = func() time.Time { return now }
	if status, _, err := call(t, tr, f, "read"); err != nil || status != 200 {
		t.Fatalf("call: %d %v", status, err)
	}
	now = now.Add(time.Hour)
	if status, _, err := call(t, tr, f, "read"); err != nil || status != 200 {
		t.Fatalf("call after expiry: %d %v", status, err)
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("pre:s3cret-value"))
	if len(f.tokenAuth) != 2 || f.tokenAuth[0] != basic || f.tokenAuth[1] != basic {
		t.Errorf("token requests' Authorization: got %q, want %q twice (code, then refresh)", f.tokenAuth, basic)
	}
	if f.authorized[0].Get("client_id") != "pre" {
		t.Errorf("client_id: got %q, want pre", f.authorized[0].Get("client_id"))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	data, _ := os.ReadFile(files[0])
	if strings.Contains(string(data), "s3cret-value") || !strings.Contains(string(data), "at-2") {
		t.Errorf("the record should hold the token and not the config's secret: %s", data)
	}
}

// TestLoginElsewhere: a token another process kept (`llmrt mcp login`
// in another terminal) is taken up when the server refuses the old one.
func TestLoginElsewhere(t *testing.T) {
	f := newFake(t, &fakeServer{prmPath: "/.well-known/oauth-protected-resource/mcp", metaPath: "/.well-known/oauth-authorization-server"})
	store := &Store{Dir: t.TempDir()}
	running := newTransport(f)
	running.Store, running.Open = store, nil
	other := newTransport(f)
	other.Store = &Store{Dir: store.Dir}
	if _, _, err := call(t, running, f, "read"); err == nil {
		t.Fatal("before any login: want an error")
	}
	if err := other.Login(context.Background(), nil); err != nil {
		t.Fatalf("login elsewhere: %v", err)
	}
	status, body, err := call(t, running, f, "read")
	if err != nil || status != 200 || body != "ok at-1" {
		t.Fatalf("after the login elsewhere: %d %q %v, want the new token taken up", status, body, err)
	}
}
