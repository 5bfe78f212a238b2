package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// resourceMetadata is a protected resource's metadata (RFC 9728).
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMetadata is an authorization server's metadata (RFC 8414, or an
// OpenID provider's configuration).
type serverMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	GrantTypesSupported               []string `json:"grant_types_supported,omitempty"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported,omitempty"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported,omitempty"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported,omitempty"`
}

// discovery is what the flow learnt about a server before authorizing.
type discovery struct {
	// resource is the RFC 8707 resource indicator: the protected
	// resource's identifier, empty for a server without metadata (a
	// 2025-03-26 server), which is sent none.
	resource string
	// prmScopes are the scopes the resource advertises.
	prmScopes []string
	meta      serverMetadata
}

// maxMetadata bounds a metadata document read from a server.
const maxMetadata = 1 << 20

// getJSON fetches a JSON document; found is false on a 4xx answer.
func getJSON(ctx context.Context, hc *http.Client, u string, v any) (found bool, err error) {
	// A metadata document is small and served at once; a server that
	// holds the request open is not serving one.
	ctx, cancel := context.WithTimeout(ctx, metadataWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	resp, err := hc.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("GET %s: HTTP %d", u, resp.StatusCode)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// The MCP endpoint itself answering a GET with its event stream.
		return false, nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetadata)).Decode(v); err != nil {
		return false, fmt.Errorf("GET %s: not a JSON document: %v", u, err)
	}
	return true, nil
}

// metadataWait bounds one metadata request.
const metadataWait = 10 * time.Second

// protocolVersion is sent on discovery requests, as the spec asks.
const protocolVersion = "2025-06-18"

// discover finds the protected resource's and its authorization server's
// metadata for serverURL, starting from a challenge's resource_metadata
// URL when it has one.
func discover(ctx context.Context, hc *http.Client, serverURL string, ch Challenge) (discovery, error) {
	var d discovery
	prm, err := fetchResourceMetadata(ctx, hc, serverURL, ch.ResourceMetadata)
	if err != nil {
		return d, err
	}
	issuer := ""
	if prm != nil {
		if !resourceMatches(prm.Resource, serverURL) {
			return d, fmt.Errorf("the server's protected resource metadata names resource %q, not %s: refusing to authorize for it", prm.Resource, serverURL)
		}
		if len(prm.AuthorizationServers) == 0 {
			return d, fmt.Errorf("the server's protected resource metadata names no authorization server")
		}
		d.resource, d.prmScopes = prm.Resource, prm.ScopesSupported
		issuer = prm.AuthorizationServers[0]
	} else {
		// A 2025-03-26 server: its origin is the authorization server.
		u, err := url.Parse(serverURL)
		if err != nil {
			return d, err
		}
		issuer = u.Scheme + "://" + u.Host
	}
	meta, found, err := fetchServerMetadata(ctx, hc, issuer)
	if err != nil {
		return d, err
	}
	if !found {
		if prm != nil {
			return d, fmt.Errorf("authorization server %s publishes no metadata (tried RFC 8414 and OpenID discovery)", issuer)
		}
		// The 2025-03-26 fallback: the default endpoints at the root.
		meta = serverMetadata{Issuer: issuer, AuthorizationEndpoint: issuer + "/authorize",
			TokenEndpoint: issuer + "/token", RegistrationEndpoint: issuer + "/register"}
	}
	if prm != nil && meta.Issuer != "" && strings.TrimSuffix(meta.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
		return d, fmt.Errorf("authorization server %s gave metadata for issuer %q", issuer, meta.Issuer)
	}
	if meta.Issuer == "" {
		meta.Issuer = issuer
	}
	if meta.AuthorizationEndpoint == "" && meta.TokenEndpoint == "" {
		return d, fmt.Errorf("authorization server %s: its metadata names no endpoints", issuer)
	}
	if len(meta.CodeChallengeMethodsSupported) > 0 && !contains(meta.CodeChallengeMethodsSupported, "S256") {
		return d, fmt.Errorf("authorization server %s does not support PKCE with S256, which MCP requires", issuer)
	}
	d.meta = meta
	return d, nil
}

// fetchResourceMetadata tries the challenge's URL, then the path-based
// and root well-known URLs of serverURL; nil when none answers.
func fetchResourceMetadata(ctx context.Context, hc *http.Client, serverURL, hinted string) (*resourceMetadata, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	var candidates []string
	if hinted != "" {
		h, err := url.Parse(hinted)
		if err != nil || (h.Scheme != "https" && h.Scheme != "http") {
			return nil, fmt.Errorf("the server's challenge names resource metadata at %q, not an http(s) URL", hinted)
		}
		candidates = append(candidates, hinted)
	}
	base := u.Scheme + "://" + u.Host
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		candidates = append(candidates, base+"/.well-known/oauth-protected-resource"+p)
	}
	candidates = append(candidates, base+"/.well-known/oauth-protected-resource")
	for _, c := range candidates {
		var m resourceMetadata
		found, err := getJSON(ctx, hc, c, &m)
		if err != nil {
			return nil, fmt.Errorf("protected resource metadata: %w", err)
		}
		if found {
			return &m, nil
		}
	}
	return nil, nil
}

// fetchServerMetadata tries the RFC 8414 and OpenID discovery URLs of an
// issuer, in the order the MCP spec gives.
func fetchServerMetadata(ctx context.Context, hc *http.Client, issuer string) (serverMetadata, bool, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return serverMetadata{}, false, fmt.Errorf("authorization server %q is not a URL", issuer)
	}
	base := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	var candidates []string
	if p == "" {
		candidates = []string{base + "/.well-known/oauth-authorization-server", base + "/.well-known/openid-configuration"}
	} else {
		candidates = []string{base + "/.well-known/oauth-authorization-server" + p,
			base + "/.well-known/openid-configuration" + p, base + p + "/.well-known/openid-configuration"}
	}
	for _, c := range candidates {
		var m serverMetadata
		found, err := getJSON(ctx, hc, c, &m)
		if err != nil {
			return m, false, fmt.Errorf("authorization server metadata: %w", err)
		}
		if found {
			return m, true, nil
		}
	}
	return serverMetadata{}, false, nil
}

// resourceMatches reports whether a protected resource identifier covers
// the server URL: same scheme and host, and a path that is the URL's or a
// parent of it.
func resourceMatches(resource, serverURL string) bool {
	r, err1 := url.Parse(resource)
	s, err2 := url.Parse(serverURL)
	if err1 != nil || err2 != nil || r.Fragment != "" {
		return false
	}
	if !strings.EqualFold(r.Scheme, s.Scheme) || !strings.EqualFold(r.Host, s.Host) {
		return false
	}
	rp := strings.TrimSuffix(r.Path, "/")
	sp := strings.TrimSuffix(s.Path, "/")
	return rp == "" || rp == sp || strings.HasPrefix(sp, rp+"/")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
