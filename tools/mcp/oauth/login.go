package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Login runs the flow now, whatever token there is, showing the URL
// through open (nil: t.Open): it asks the server for its challenge with
// an unauthorized initialize request. Requests under way use the new
// token from their next attempt.
func (t *Transport) Login(ctx context.Context, open func(ctx context.Context, authURL string) error) error {
	if open == nil {
		open = t.Open
	}
	ch, err := t.probe(ctx)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.flow(ctx, t.record(), ch, open)
}

// probe sends an unauthorized initialize request and returns the
// challenge; a server that answers it is checked for resource metadata.
func (t *Transport) probe(ctx context.Context) (Challenge, error) {
	body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + protocolVersion +
		`","capabilities":{},"clientInfo":{"name":"llmrt","version":"dev"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, strings.NewReader(body))
	if err != nil {
		return Challenge{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := t.base().RoundTrip(req)
	if err != nil {
		return Challenge{}, fmt.Errorf("mcp server %q: %w", t.Server, err)
	}
	if resp.StatusCode == http.StatusUnauthorized {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		return parseChallenge(resp.StatusCode, resp.Header.Values("WWW-Authenticate")), nil
	}
	// A server that lets the request in may answer with an event stream
	// it keeps open: nothing in the answer is needed, so it is not read.
	resp.Body.Close()
	if t.Config.GrantType == "" || t.Config.GrantType == GrantAuthorizationCode {
		prm, err := fetchResourceMetadata(ctx, t.httpClient(), t.URL, "")
		if err != nil || prm == nil {
			return Challenge{}, fmt.Errorf("mcp server %q answered without asking for authorization (HTTP %d) and publishes no OAuth metadata: there is nothing to log in to", t.Server, resp.StatusCode)
		}
	}
	return Challenge{Status: http.StatusUnauthorized}, nil
}

// Logout forgets the server's token and client registration.
func (t *Transport) Logout() (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.Store == nil {
		return false, nil
	}
	t.rec = nil
	return t.Store.Delete(t.Server, t.URL)
}
