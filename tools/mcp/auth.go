package mcp

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/llmrt/llmrt/tools/mcp/oauth"
)

// Auth is how a Source's remote servers get OAuth tokens.
type Auth struct {
	// Store keeps the tokens; nil keeps them in memory for the Source's
	// life.
	Store *oauth.Store
	// Open, when set, lets a server that needs a person's authorization
	// run the flow in the middle of a call (it shows the URL). The CLI
	// leaves it nil, so that a run fails such a server with a message
	// naming `llmrt mcp login`, and logs in through Source.Login.
	Open func(ctx context.Context, authURL string) error
	// OnSecret is told of every token and client secret loaded or
	// obtained, for redaction.
	OnSecret func(values ...string)
}

// SetAuth sets how remote servers are authorized; call it before Start.
func (s *Source) SetAuth(a Auth) {
	if a.Store == nil {
		a.Store = &oauth.Store{}
	}
	s.auth = a
	for _, c := range s.servers {
		c.oauth = nil
	}
}

// authTransport returns the OAuth transport of an HTTP or SSE server, or
// nil for a server whose headers carry its own Authorization.
func (c *conn) authTransport() *oauth.Transport {
	if hasAuthorization(c.cfg.Headers) && c.cfg.OAuth == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.oauth == nil {
		var a Auth
		if c.src != nil {
			a = c.src.auth
		}
		if a.Store == nil {
			a.Store = &oauth.Store{} // in memory, this server's alone
		}
		var cfg oauth.Config
		if c.cfg.OAuth != nil {
			cfg = *c.cfg.OAuth
		}
		c.oauth = &oauth.Transport{Server: c.cfg.Name, URL: c.cfg.URL, Config: cfg, Store: a.Store, Open: a.Open, OnSecret: a.OnSecret}
	}
	return c.oauth
}

// httpClient is the client an HTTP or SSE server is reached with.
func (c *conn) httpClient() *http.Client {
	if t := c.authTransport(); t != nil {
		return &http.Client{Transport: t}
	}
	return &http.Client{}
}

// headers are the server's configured headers, less an Authorization
// left empty by an unset variable (`Bearer ${TOKEN}` with no TOKEN):
// sending "Bearer " would only be refused, while without it the server's
// OAuth challenge can be answered.
func (c *conn) headers() map[string]string {
	out := make(map[string]string, len(c.cfg.Headers))
	for k, v := range c.cfg.Headers {
		if strings.EqualFold(k, "Authorization") && emptyCredentials(v) {
			continue
		}
		out[k] = v
	}
	return out
}

func hasAuthorization(h map[string]string) bool {
	for k, v := range h {
		if strings.EqualFold(k, "Authorization") && !emptyCredentials(v) {
			return true
		}
	}
	return false
}

// emptyCredentials reports an Authorization value with a scheme and no
// credentials ("Bearer ", "Basic").
func emptyCredentials(v string) bool {
	f := strings.Fields(v)
	return len(f) < 2
}

// Login authorizes llmrt with the named remote server now, showing the
// person the authorization URL through open, and keeps the token. A
// server that was not ready (it needed this login) is started again.
// The chat's /mcp and `llmrt mcp login` call it.
func (s *Source) Login(ctx context.Context, name string, open func(ctx context.Context, authURL string) error) error {
	c, err := s.server(name)
	if err != nil {
		return err
	}
	if kind, _ := c.cfg.Transport(); kind == TransportStdio {
		return fmt.Errorf("mcp server %q runs locally (stdio): it has no OAuth login", name)
	}
	base := c.authTransport() // the one its client uses, so the new token is used at once
	if base == nil {
		return fmt.Errorf("mcp server %q sends its own Authorization header: remove it from \"headers\" to log in with OAuth", name)
	}
	if err := base.Login(ctx, open); err != nil {
		return err
	}
	c.mu.Lock()
	ready := c.state == "ready"
	c.mu.Unlock()
	if !ready {
		c.reviveMu.Lock()
		err := c.reconnect(ctx)
		c.reviveMu.Unlock()
		c.gen.Add(1)
		if err != nil {
			return fmt.Errorf("logged in, but mcp server %q still fails: %w", name, err)
		}
	}
	return nil
}

// Logout forgets the named server's token and client registration; it
// reports whether there was one.
func (s *Source) Logout(name string) (bool, error) {
	c, err := s.server(name)
	if err != nil {
		return false, err
	}
	t := c.authTransport()
	if t == nil {
		return false, nil
	}
	return t.Logout()
}

// NeedsLogin reports whether the named server asked for an OAuth
// authorization that needs a person (Login) and has not had it: the
// chat's /mcp offers a login for it.
func (s *Source) NeedsLogin(name string) bool {
	c, err := s.server(name)
	if err != nil {
		return false
	}
	c.mu.Lock()
	t := c.oauth
	c.mu.Unlock()
	return t != nil && t.NeedsLogin()
}
