package oauth

import (
	"context"
	"fmt"
	"net/url"
)

// Token types and grants of enterprise-managed authorization.
const (
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	grantJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	tokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
)

// crossAppAccess trades the user's ID token for an identity assertion
// grant at the enterprise identity provider (RFC 8693), then the grant
// for an access token at the MCP server's authorization server (RFC 7523).
func (t *Transport) crossAppAccess(ctx context.Context, d discovery, scope string) (*Token, clientAuth, error) {
	idp := clientAuth{client: Client{ID: t.Config.IDPClientID, Secret: t.Config.IDPClientSecret}}
	idp.client.AuthMethod = chooseAuthMethod(idp.client, false, nil)
	if idp.client.ID == "" {
		idp.client.AuthMethod = "unauthenticated"
	}
	form := url.Values{
		"grant_type":           {grantTokenExchange},
		"subject_token":        {t.Config.IDToken},
		"subject_token_type":   {tokenTypeIDToken},
		"requested_token_type": {tokenTypeIDJAG},
		"audience":             {d.meta.Issuer},
	}
	if d.resource != "" {
		form.Set("resource", d.resource)
	}
	if scope != "" {
		form.Set("scope", scope)
	}
	// The answer is an assertion, not a bearer token ("N_A").
	jag, err := requestAssertion(ctx, t, form, idp)
	if err != nil {
		return nil, clientAuth{}, fmt.Errorf("identity provider: %w", err)
	}
	auth, err := t.clientAuth(Client{ID: t.Config.ClientID, Secret: t.Config.ClientSecret}, d.meta)
	if err != nil {
		return nil, auth, err
	}
	grant := url.Values{"grant_type": {grantJWTBearer}, "assertion": {jag}}
	if scope != "" {
		grant.Set("scope", scope)
	}
	tok, err := requestToken(ctx, t.httpClient(), d.meta.TokenEndpoint, grant, auth, t.now())
	return tok, auth, err
}

// requestAssertion posts the token exchange and returns the issued token
// whatever its type.
func requestAssertion(ctx context.Context, t *Transport, form url.Values, auth clientAuth) (string, error) {
	tok, err := requestTokenOfType(ctx, t.httpClient(), t.Config.IDPTokenEndpoint, form, auth, t.now(), false)
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}
