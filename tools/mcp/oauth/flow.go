package oauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// loginTimeout bounds the wait for a person to finish authorizing when
// the caller's context has no deadline.
const loginTimeout = 5 * time.Minute

// randomString returns n random bytes, base64url-encoded.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// pkceChallenge is the S256 challenge of a code verifier (RFC 7636).
func pkceChallenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// callbackResult is what the loopback redirect brought.
type callbackResult struct {
	code string
	err  error
}

// loopback is the local listener the authorization server redirects the
// browser to.
type loopback struct {
	ln       net.Listener
	srv      *http.Server
	redirect string
	results  chan callbackResult
}

// listenLoopback listens on 127.0.0.1 (RFC 8252 section 7.3), on port
// when it is not 0, else on prefer when that is free, else anywhere.
func listenLoopback(port, prefer int) (*loopback, error) {
	var ln net.Listener
	var err error
	switch {
	case port != 0:
		ln, err = net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return nil, fmt.Errorf("listen for the authorization redirect on port %d (callback_port): %w", port, err)
		}
	default:
		if prefer != 0 {
			ln, err = net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(prefer))
		}
		if ln == nil {
			ln, err = net.Listen("tcp", "127.0.0.1:0")
		}
		if err != nil {
			return nil, fmt.Errorf("listen for the authorization redirect: %w", err)
		}
	}
	lb := &loopback{ln: ln, results: make(chan callbackResult, 1),
		redirect: fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)}
	return lb, nil
}

// serve answers the redirect: a request with the right state ends the
// wait; others (a stray favicon, a forged state) are refused and ignored.
func (lb *loopback) serve(state, issuer string, issRequired bool) {
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("state") != state {
			http.Error(w, "unexpected state: this is not the authorization llmrt is waiting for", http.StatusBadRequest)
			return
		}
		var res callbackResult
		iss := q.Get("iss")
		switch {
		case iss != "" && strings.TrimSuffix(iss, "/") != strings.TrimSuffix(issuer, "/"):
			res.err = fmt.Errorf("the authorization response comes from issuer %q, not %q (RFC 9207): refused", iss, issuer)
		case iss == "" && issRequired:
			res.err = fmt.Errorf("the authorization response lacks the iss parameter its server promises (RFC 9207): refused")
		case q.Get("error") != "":
			res.err = fmt.Errorf("the authorization server refused: %s %s", q.Get("error"), q.Get("error_description"))
		case q.Get("code") == "":
			res.err = errors.New("the authorization response holds no code")
		default:
			res.code = q.Get("code")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		msg := "llmrt is authorized. You can close this tab."
		if res.err != nil {
			msg = "Authorization failed: " + res.err.Error()
		}
		fmt.Fprintf(w, "<!doctype html><title>llmrt</title><p>%s</p>\n", html.EscapeString(msg))
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush() // the page reaches the browser before the listener goes
		}
		select {
		case lb.results <- res:
		default:
		}
	})
	lb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = lb.srv.Serve(lb.ln) }() // ends with close
}

func (lb *loopback) close() {
	if lb.srv != nil {
		// Gracefully: the handler that brought the code may still be
		// finishing its page.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if lb.srv.Shutdown(ctx) != nil {
			_ = lb.srv.Close()
		}
	} else {
		_ = lb.ln.Close()
	}
}

// authorizationCode runs the authorization code grant with PKCE: the
// person opens the URL, the browser comes back to the loopback listener,
// the code becomes a token.
func (t *Transport) authorizationCode(ctx context.Context, rec *Record, d discovery, scope string, open func(context.Context, string) error) (*Token, clientAuth, error) {
	prefer := 0
	if rec.Client != nil && rec.Client.Registered && rec.Issuer == d.meta.Issuer {
		if u, err := url.Parse(rec.Client.RedirectURI); err == nil {
			prefer, _ = strconv.Atoi(u.Port())
		}
	}
	lb, err := listenLoopback(t.Config.CallbackPort, prefer)
	if err != nil {
		return nil, clientAuth{}, err
	}
	defer lb.close()
	client, err := t.client(ctx, rec, d, lb.redirect)
	if err != nil {
		return nil, clientAuth{}, err
	}
	auth, err := t.clientAuth(client, d.meta)
	if err != nil {
		return nil, clientAuth{}, err
	}
	if d.meta.AuthorizationEndpoint == "" {
		return nil, auth, fmt.Errorf("authorization server %s names no authorization endpoint", d.meta.Issuer)
	}
	state, verifier := randomString(32), randomString(48)
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {client.ID},
		"redirect_uri":          {lb.redirect},
		"state":                 {state},
		"code_challenge":        {pkceChallenge(verifier)},
		"code_challenge_method": {"S256"},
	}
	if scope != "" {
		q.Set("scope", scope)
	}
	if d.resource != "" {
		q.Set("resource", d.resource)
	}
	authURL := d.meta.AuthorizationEndpoint
	if strings.Contains(authURL, "?") {
		authURL += "&" + q.Encode()
	} else {
		authURL += "?" + q.Encode()
	}
	lb.serve(state, d.meta.Issuer, d.meta.IssParameterSupported)
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, loginTimeout)
		defer cancel()
	}
	if err := open(ctx, authURL); err != nil {
		return nil, auth, fmt.Errorf("open the authorization page: %w", err)
	}
	var res callbackResult
	select {
	case res = <-lb.results:
	case <-ctx.Done():
		return nil, auth, fmt.Errorf("no authorization came back to %s: %w", lb.redirect, ctx.Err())
	}
	if res.err != nil {
		return nil, auth, res.err
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {res.code},
		"redirect_uri": {lb.redirect}, "code_verifier": {verifier}}
	if d.resource != "" {
		form.Set("resource", d.resource)
	}
	tok, err := requestToken(ctx, t.httpClient(), d.meta.TokenEndpoint, form, auth, t.now())
	return tok, auth, err
}

// client returns the identity to authorize as: a pre-registered one, the
// one registered before, the metadata document's URL, or a new
// registration.
func (t *Transport) client(ctx context.Context, rec *Record, d discovery, redirect string) (Client, error) {
	if t.Config.ClientID != "" {
		return Client{ID: t.Config.ClientID, Secret: t.Config.ClientSecret}, nil
	}
	if c := rec.Client; c != nil && c.Registered && rec.Issuer == d.meta.Issuer && c.RedirectURI == redirect {
		return *c, nil
	}
	if d.meta.ClientIDMetadataDocumentSupported && t.Config.ClientMetadataURL != "" {
		return Client{ID: t.Config.ClientMetadataURL, AuthMethod: "none"}, nil
	}
	if d.meta.RegistrationEndpoint == "" {
		return Client{}, fmt.Errorf("authorization server %s does not register clients: register llmrt there (redirect URI %s) and set \"oauth\": {\"client_id\": ...} for server %q",
			d.meta.Issuer, redirect, t.Server)
	}
	return t.register(ctx, d.meta, redirect)
}

// register registers llmrt as a client (RFC 7591).
func (t *Transport) register(ctx context.Context, meta serverMetadata, redirect string) (Client, error) {
	method := "none"
	if s := meta.TokenEndpointAuthMethodsSupported; len(s) > 0 && !contains(s, "none") {
		method = "client_secret_basic"
		if !contains(s, method) && contains(s, "client_secret_post") {
			method = "client_secret_post"
		}
	}
	body, _ := json.Marshal(map[string]any{
		"client_name":                "llmrt",
		"redirect_uris":              []string{redirect},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, meta.RegistrationEndpoint, strings.NewReader(string(body)))
	if err != nil {
		return Client{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := t.httpClient().Do(req)
	if err != nil {
		return Client{}, fmt.Errorf("register with %s: %w", meta.Issuer, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return Client{}, fmt.Errorf("register with %s: HTTP %d: %s (set \"oauth\": {\"client_id\": ...} to use a client registered by hand)",
			meta.Issuer, resp.StatusCode, excerpt(data))
	}
	var got struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		AuthMethod   string `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(data, &got); err != nil || got.ClientID == "" {
		return Client{}, fmt.Errorf("register with %s: the answer holds no client_id", meta.Issuer)
	}
	c := Client{ID: got.ClientID, Secret: got.ClientSecret, AuthMethod: got.AuthMethod, RedirectURI: redirect, Registered: true}
	if c.AuthMethod == "" {
		c.AuthMethod = method
		if c.Secret == "" {
			c.AuthMethod = "none"
		}
	}
	return c, nil
}

// clientAuth says how client authenticates at meta's token endpoint.
func (t *Transport) clientAuth(c Client, meta serverMetadata) (clientAuth, error) {
	a := clientAuth{audience: meta.Issuer, alg: t.Config.SigningAlg}
	if a.alg == "" {
		a.alg = "ES256"
	}
	keyPEM := t.Config.PrivateKey
	if keyPEM == "" && t.Config.PrivateKeyFile != "" {
		data, err := readKeyFile(t.Config.PrivateKeyFile)
		if err != nil {
			return a, err
		}
		keyPEM = data
	}
	if keyPEM != "" && c.ID == t.Config.ClientID {
		k, err := parseKey(keyPEM)
		if err != nil {
			return a, err
		}
		a.key = k
	}
	c.AuthMethod = chooseAuthMethod(c, a.key != nil, meta.TokenEndpointAuthMethodsSupported)
	a.client = c
	return a, nil
}

// excerpt is the start of a server's answer, for an error message.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
