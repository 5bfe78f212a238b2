package oauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// maxAuthAttempts bounds how often one request may send the person (or
// the machine) to authorize again, so that a server that keeps asking
// for a scope it never accepts cannot loop.
const maxAuthAttempts = 3

// LoginRequiredError says a server needs a person to authorize llmrt and
// no one can be asked now.
type LoginRequiredError struct {
	Server string
}

func (e *LoginRequiredError) Error() string {
	return fmt.Sprintf("the server needs authorization (OAuth): run `llmrt mcp login %s`, or /mcp in the chat", e.Server)
}

// Transport authorizes the requests of one MCP server: it adds the
// server's bearer token, refreshes it when it runs out, and when the
// server answers 401 (or 403 for more scope) runs the flow and sends the
// request again.
type Transport struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Server is the server's name and URL its endpoint.
	Server, URL string
	Config      Config
	Store       *Store
	// Open shows a person the authorization URL (opens a browser, prints
	// it). Nil means no one can be asked: a server that needs a person
	// fails with a LoginRequiredError. The client credentials grant
	// needs no one.
	Open func(ctx context.Context, authURL string) error
	// OnSecret, when set, is told of every token and client secret
	// loaded or obtained, so that its user can redact them.
	OnSecret func(values ...string)
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu  sync.Mutex // one flow at a time; guards rec and needLogin
	rec *Record
	// needLogin says the last request ended needing a person's login.
	needLogin bool
}

// NeedsLogin reports whether the server asked for an authorization that
// needs a person and has not had it since.
func (t *Transport) NeedsLogin() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.needLogin
}

func (t *Transport) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

// httpClient sends the flow's own requests (metadata, registration,
// tokens): without this transport's authorization, and without following
// redirects off to other hosts silently.
func (t *Transport) httpClient() *http.Client {
	return &http.Client{Transport: t.base(), Timeout: 30 * time.Second}
}

// record returns the server's record, loading it once; t.mu is held.
func (t *Transport) record() *Record {
	if t.rec == nil {
		store := t.Store
		if store == nil {
			store = &Store{}
			t.Store = store
		}
		rec, err := store.Load(t.Server, t.URL)
		if err != nil {
			rec = &Record{Server: t.Server, URL: t.URL}
		}
		t.rec = rec
		t.tell(rec)
	}
	return t.rec
}

func (t *Transport) tell(rec *Record) {
	if t.OnSecret != nil {
		t.OnSecret(rec.Secrets()...)
	}
}

// save keeps the record; t.mu is held.
func (t *Transport) save() error {
	t.tell(t.rec)
	return t.Store.Save(t.rec)
}

// current returns the access token to send, refreshing an expired one;
// empty when there is none.
func (t *Transport) current(ctx context.Context) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	rec := t.record()
	if rec.Token == nil {
		return ""
	}
	if rec.Token.expired(t.now()) {
		if err := t.refresh(ctx, rec); err != nil {
			return ""
		}
	}
	return rec.Token.AccessToken
}

// refresh trades the refresh token for a new access token; t.mu is held.
// A refused refresh forgets the token, so that the next challenge starts
// the flow again.
func (t *Transport) refresh(ctx context.Context, rec *Record) error {
	if rec.Token == nil || rec.Token.RefreshToken == "" || rec.TokenEndpoint == "" || rec.Client == nil {
		return errors.New("no refresh token")
	}
	c := *rec.Client
	if c.ID == t.Config.ClientID && !c.Registered {
		c.Secret = t.Config.ClientSecret
	}
	auth, err := t.clientAuth(c, serverMetadata{Issuer: rec.Issuer})
	if err != nil {
		return err
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rec.Token.RefreshToken}}
	if rec.Resource != "" {
		form.Set("resource", rec.Resource)
	}
	tok, err := requestToken(ctx, t.httpClient(), rec.TokenEndpoint, form, auth, t.now())
	if err != nil {
		var te *TokenError
		if errors.As(err, &te) {
			rec.Token = nil
			_ = t.save()
		}
		return err
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = rec.Token.RefreshToken // not rotated
	}
	if tok.Scope == "" {
		tok.Scope = rec.Token.Scope
	}
	rec.Token = tok
	return t.save()
}

// RoundTrip sends req with the server's token, authorizing when the
// server challenges.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	ctx := req.Context()
	tok := t.current(ctx)
	for attempt := 0; ; attempt++ {
		r := req.Clone(ctx)
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
			r.ContentLength = int64(len(body))
		}
		if tok != "" {
			r.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := t.base().RoundTrip(r)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			return resp, nil
		}
		ch := parseChallenge(resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
		if (resp.StatusCode == http.StatusForbidden && !ch.InsufficientScope()) || attempt >= maxAuthAttempts {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		next, err := t.authorize(ctx, ch, tok)
		if err != nil {
			return nil, err
		}
		tok = next
	}
}

// authorize gets a token that answers the challenge: one another request
// got meanwhile, a refreshed one, or a new one from the flow.
func (t *Transport) authorize(ctx context.Context, ch Challenge, sent string) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rec := t.record()
	if ch.Status == http.StatusUnauthorized {
		// Another llmrt (`llmrt mcp login` in another terminal) may have
		// kept a newer token.
		if fresh, err := t.Store.Load(t.Server, t.URL); err == nil && fresh.Token != nil && fresh.Token.AccessToken != sent {
			t.rec, rec = fresh, fresh
			t.tell(fresh)
		}
	}
	if ch.Status == http.StatusUnauthorized && rec.Token != nil {
		if rec.Token.AccessToken != sent {
			return rec.Token.AccessToken, nil
		}
		if t.refresh(ctx, rec) == nil {
			return rec.Token.AccessToken, nil
		}
	}
	if err := t.flow(ctx, rec, ch, t.Open); err != nil {
		return "", err
	}
	return rec.Token.AccessToken, nil
}

// flow discovers the server's authorization server and gets a token by
// the configured grant, showing a person the URL through open; t.mu is
// held.
func (t *Transport) flow(ctx context.Context, rec *Record, ch Challenge, open func(context.Context, string) error) error {
	if err := t.Config.Validate(); err != nil {
		return fmt.Errorf("mcp server %q: %w", t.Server, err)
	}
	cc := t.Config.GrantType == GrantClientCredentials
	xaa := t.Config.GrantType == GrantCrossAppAccess
	if !cc && !xaa && open == nil {
		t.needLogin = true
		return &LoginRequiredError{Server: t.Server}
	}
	d, err := discover(ctx, t.httpClient(), t.URL, ch)
	if err != nil {
		return fmt.Errorf("mcp server %q: authorization: %w", t.Server, err)
	}
	scope := t.scope(rec, ch, d)
	var tok *Token
	var auth clientAuth
	switch {
	case xaa:
		tok, auth, err = t.crossAppAccess(ctx, d, scope)
	case cc:
		auth, err = t.clientAuth(Client{ID: t.Config.ClientID, Secret: t.Config.ClientSecret}, d.meta)
		if err == nil {
			form := url.Values{"grant_type": {GrantClientCredentials}}
			if scope != "" {
				form.Set("scope", scope)
			}
			if d.resource != "" {
				form.Set("resource", d.resource)
			}
			tok, err = requestToken(ctx, t.httpClient(), d.meta.TokenEndpoint, form, auth, t.now())
		}
	default:
		tok, auth, err = t.authorizationCode(ctx, rec, d, scope, open)
	}
	if err != nil {
		return fmt.Errorf("mcp server %q: authorization: %w", t.Server, err)
	}
	client := auth.client
	if client.ID == t.Config.ClientID && !client.Registered {
		// The config's own secret stays in the config: the record names
		// the client only.
		client.Secret = ""
	}
	rec.Issuer, rec.Resource, rec.TokenEndpoint = d.meta.Issuer, d.resource, d.meta.TokenEndpoint
	rec.Client, rec.Token = &client, tok
	t.needLogin = false
	if err := t.save(); err != nil {
		return fmt.Errorf("mcp server %q: %w", t.Server, err)
	}
	return nil
}

// scope chooses the scope to ask for: the config's; else the challenge's
// (with what was granted before, on a step-up); else what the resource
// advertises; else none. offline_access is added when the authorization
// server offers it, for a refresh token.
func (t *Transport) scope(rec *Record, ch Challenge, d discovery) string {
	var list []string
	switch {
	case len(t.Config.Scopes) > 0:
		list = t.Config.Scopes
	case ch.Scope != "":
		if ch.InsufficientScope() && rec.Token != nil {
			list = strings.Fields(rec.Token.Scope)
		}
		list = append(list, strings.Fields(ch.Scope)...)
	default:
		list = d.prmScopes
	}
	var out []string
	for _, s := range list {
		if !contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) > 0 && (t.Config.GrantType == "" || t.Config.GrantType == GrantAuthorizationCode) && contains(d.meta.ScopesSupported, "offline_access") && !contains(out, "offline_access") {
		out = append(out, "offline_access")
	}
	return strings.Join(out, " ")
}

func readKeyFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("oauth: private_key_file: %w", err)
	}
	return string(data), nil
}
