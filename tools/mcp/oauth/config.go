package oauth

import (
	"encoding/json"
	"fmt"
)

// Grant types a server's config may name.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
	// GrantCrossAppAccess is enterprise-managed authorization (SEP-990):
	// the enterprise identity provider trades the user's ID token for an
	// identity assertion grant, which the authorization server trades
	// for an access token (RFC 8693, then RFC 7523). No browser.
	GrantCrossAppAccess = "cross_app_access"
)

// Config is a server's "oauth" block. Every field is optional: with none,
// the client is registered dynamically (or identified by its metadata
// document) and a person authorizes it in a browser.
type Config struct {
	// ClientID and ClientSecret are a client registered with the
	// authorization server beforehand (Claude Code's clientId).
	ClientID     string `json:"client_id,omitempty"`
	ClientSecret string `json:"client_secret,omitempty"`
	// Scopes, when set, are asked for instead of the ones the server
	// advertises.
	Scopes []string `json:"scopes,omitempty"`
	// CallbackPort fixes the loopback redirect's port (Claude Code's
	// callbackPort), for a client registered with one redirect URI;
	// 0 picks a free port.
	CallbackPort int `json:"callback_port,omitempty"`
	// ClientMetadataURL is an https URL where this client's metadata
	// document is published; an authorization server that accepts such
	// documents is given it as the client_id instead of registering.
	ClientMetadataURL string `json:"client_metadata_url,omitempty"`
	// GrantType is "authorization_code" (the default: a person logs in)
	// or "client_credentials" (a machine identity, no person).
	GrantType string `json:"grant_type,omitempty"`
	// PrivateKey (PEM, PKCS#8 or SEC 1) or PrivateKeyFile authenticates
	// the client with a signed JWT (private_key_jwt) instead of a secret.
	PrivateKey     string `json:"private_key,omitempty"`
	PrivateKeyFile string `json:"private_key_file,omitempty"`
	// SigningAlg is the JWT algorithm for PrivateKey: ES256 (default),
	// ES384 or RS256.
	SigningAlg string `json:"signing_alg,omitempty"`
	// IDPTokenEndpoint, IDPClientID, IDPClientSecret and IDToken are the
	// enterprise identity provider's token endpoint, llmrt's client there
	// and the user's ID token from it, for grant_type cross_app_access.
	IDPTokenEndpoint string `json:"idp_token_endpoint,omitempty"`
	IDPClientID      string `json:"idp_client_id,omitempty"`
	IDPClientSecret  string `json:"idp_client_secret,omitempty"`
	IDToken          string `json:"id_token,omitempty"`
}

// UnmarshalJSON also accepts Claude Code's camelCase names (clientId,
// clientSecret, callbackPort).
func (c *Config) UnmarshalJSON(data []byte) error {
	type plain Config
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	var alias struct {
		ClientID     string `json:"clientId"`
		ClientSecret string `json:"clientSecret"`
		CallbackPort int    `json:"callbackPort"`
	}
	_ = json.Unmarshal(data, &alias)
	if p.ClientID == "" {
		p.ClientID = alias.ClientID
	}
	if p.ClientSecret == "" {
		p.ClientSecret = alias.ClientSecret
	}
	if p.CallbackPort == 0 {
		p.CallbackPort = alias.CallbackPort
	}
	*c = Config(p)
	return nil
}

// Validate checks the block's values.
func (c Config) Validate() error {
	switch c.GrantType {
	case "", GrantAuthorizationCode:
	case GrantClientCredentials:
		if c.ClientID == "" {
			return fmt.Errorf("oauth: grant_type client_credentials needs a client_id (and a client_secret or private_key)")
		}
		if c.ClientSecret == "" && c.PrivateKey == "" && c.PrivateKeyFile == "" {
			return fmt.Errorf("oauth: grant_type client_credentials needs a client_secret or a private_key")
		}
	case GrantCrossAppAccess:
		if c.ClientID == "" || c.IDPTokenEndpoint == "" || c.IDToken == "" {
			return fmt.Errorf("oauth: grant_type cross_app_access needs client_id, idp_token_endpoint and id_token")
		}
	default:
		return fmt.Errorf("oauth: unknown grant_type %q (use authorization_code, client_credentials or cross_app_access)", c.GrantType)
	}
	if c.CallbackPort < 0 || c.CallbackPort > 65535 {
		return fmt.Errorf("oauth: callback_port %d is not a port (use 1-65535, or leave it out)", c.CallbackPort)
	}
	return nil
}

// Map returns a copy of the block with f applied to its string values
// (the config loader expands ${VAR} with it).
func (c *Config) Map(f func(string) string) *Config {
	if c == nil {
		return nil
	}
	out := *c
	for _, p := range []*string{&out.ClientID, &out.ClientSecret, &out.ClientMetadataURL, &out.GrantType,
		&out.PrivateKey, &out.PrivateKeyFile, &out.SigningAlg, &out.IDPTokenEndpoint, &out.IDPClientID,
		&out.IDPClientSecret, &out.IDToken} {
		*p = f(*p)
	}
	out.Scopes = append([]string(nil), c.Scopes...)
	for i := range out.Scopes {
		out.Scopes[i] = f(out.Scopes[i])
	}
	return &out
}

// Secrets returns the block's secret values, for redaction.
func (c *Config) Secrets() []string {
	if c == nil {
		return nil
	}
	return []string{c.ClientSecret, c.PrivateKey, c.IDPClientSecret, c.IDToken}
}
