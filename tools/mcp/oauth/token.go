package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// tokenResponse is a token endpoint's answer (RFC 6749 section 5).
type tokenResponse struct {
	AccessToken      string `json:"access_token"`
	TokenType        string `json:"token_type"`
	ExpiresIn        int64  `json:"expires_in"`
	RefreshToken     string `json:"refresh_token"`
	Scope            string `json:"scope"`
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}

// TokenError is an authorization server's refusal at its token endpoint.
type TokenError struct {
	Status      int
	Code        string
	Description string
}

func (e *TokenError) Error() string {
	msg := fmt.Sprintf("token endpoint: HTTP %d", e.Status)
	if e.Code != "" {
		msg += ": " + e.Code
	}
	if e.Description != "" {
		msg += ": " + e.Description
	}
	return msg
}

// clientAuth says how the client authenticates at the token endpoint.
type clientAuth struct {
	client   Client
	key      crypto.Signer // private_key_jwt
	alg      string
	audience string // the issuer, for a client assertion
}

// apply authenticates a token request as the method says: HTTP Basic,
// the secret in the body, a signed assertion, or the client_id alone.
func (a clientAuth) apply(req *http.Request, form url.Values) error {
	switch a.client.AuthMethod {
	case "client_secret_basic":
		req.SetBasicAuth(url.QueryEscape(a.client.ID), url.QueryEscape(a.client.Secret))
	case "client_secret_post":
		form.Set("client_id", a.client.ID)
		form.Set("client_secret", a.client.Secret)
	case "private_key_jwt":
		jwt, err := a.assertion()
		if err != nil {
			return err
		}
		form.Set("client_id", a.client.ID)
		form.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		form.Set("client_assertion", jwt)
	case "unauthenticated":
	default:
		form.Set("client_id", a.client.ID)
	}
	return nil
}

// chooseAuthMethod picks the token endpoint authentication for a client:
// the one it was registered with, else one the server supports that the
// client can do (RFC 8414's default is client_secret_basic).
func chooseAuthMethod(c Client, hasKey bool, supported []string) string {
	if c.AuthMethod != "" {
		return c.AuthMethod
	}
	if hasKey {
		return "private_key_jwt"
	}
	if c.Secret == "" {
		return "none"
	}
	if len(supported) == 0 || contains(supported, "client_secret_basic") {
		return "client_secret_basic"
	}
	if contains(supported, "client_secret_post") {
		return "client_secret_post"
	}
	return "client_secret_basic"
}

// requestToken posts a token request and reads the token.
func requestToken(ctx context.Context, hc *http.Client, endpoint string, form url.Values, auth clientAuth, now time.Time) (*Token, error) {
	return requestTokenOfType(ctx, hc, endpoint, form, auth, now, true)
}

// requestTokenOfType is requestToken; bearer says the token must be a
// bearer token (a token exchange issues other types).
func requestTokenOfType(ctx context.Context, hc *http.Client, endpoint string, form url.Values, auth clientAuth, now time.Time, bearer bool) (*Token, error) {
	if endpoint == "" {
		return nil, errors.New("the authorization server's metadata names no token endpoint")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
	if err != nil {
		return nil, err
	}
	if err := auth.apply(req, form); err != nil {
		return nil, err
	}
	body := form.Encode()
	req.Body = io.NopCloser(strings.NewReader(body))
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("token endpoint: %w", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	var tr tokenResponse
	jsonErr := json.Unmarshal(data, &tr)
	if resp.StatusCode != http.StatusOK || tr.Error != "" {
		return nil, &TokenError{Status: resp.StatusCode, Code: tr.Error, Description: tr.ErrorDescription}
	}
	if jsonErr != nil || tr.AccessToken == "" {
		return nil, fmt.Errorf("token endpoint: the answer holds no access token")
	}
	if bearer && tr.TokenType != "" && !strings.EqualFold(tr.TokenType, "bearer") {
		return nil, fmt.Errorf("token endpoint: token type %q, want Bearer", tr.TokenType)
	}
	t := &Token{AccessToken: tr.AccessToken, TokenType: "Bearer", RefreshToken: tr.RefreshToken, Scope: tr.Scope}
	if tr.ExpiresIn > 0 {
		t.Expiry = now.Add(time.Duration(tr.ExpiresIn) * time.Second)
	}
	if t.Scope == "" {
		t.Scope = form.Get("scope")
	}
	return t, nil
}

// assertion signs a client assertion (RFC 7523 section 2.2): the client
// is issuer and subject, the authorization server the audience.
func (a clientAuth) assertion() (string, error) {
	now := time.Now()
	var jti [16]byte
	_, _ = rand.Read(jti[:])
	claims := map[string]any{
		"iss": a.client.ID, "sub": a.client.ID, "aud": a.audience,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"jti": base64.RawURLEncoding.EncodeToString(jti[:]),
	}
	return signJWT(a.key, a.alg, map[string]any{"typ": "JWT"}, claims)
}

// signJWT makes a compact JWS of claims.
func signJWT(key crypto.Signer, alg string, header, claims map[string]any) (string, error) {
	h := map[string]any{"alg": alg}
	for k, v := range header {
		h[k] = v
	}
	hb, _ := json.Marshal(h)
	cb, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := base64.RawURLEncoding.EncodeToString(hb) + "." + base64.RawURLEncoding.EncodeToString(cb)
	var sig []byte
	switch alg {
	case "ES256", "ES384":
		k, ok := key.(*ecdsa.PrivateKey)
		if !ok {
			return "", fmt.Errorf("oauth: signing_alg %s needs an EC key", alg)
		}
		var digest []byte
		size := 32
		if alg == "ES256" {
			d := sha256.Sum256([]byte(input))
			digest = d[:]
		} else {
			d := sha512.Sum384([]byte(input))
			digest, size = d[:], 48
		}
		r, s, err := ecdsa.Sign(rand.Reader, k, digest)
		if err != nil {
			return "", err
		}
		sig = make([]byte, 2*size)
		r.FillBytes(sig[:size])
		s.FillBytes(sig[size:])
	case "RS256":
		k, ok := key.(*rsa.PrivateKey)
		if !ok {
			return "", errors.New("oauth: signing_alg RS256 needs an RSA key")
		}
		d := sha256.Sum256([]byte(input))
		sig, err = rsa.SignPKCS1v15(rand.Reader, k, crypto.SHA256, d[:])
		if err != nil {
			return "", err
		}
	default:
		return "", fmt.Errorf("oauth: signing_alg %q is not supported (use ES256, ES384 or RS256)", alg)
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

// parseKey reads a PEM private key (PKCS#8, SEC 1 or PKCS#1).
func parseKey(pemText string) (crypto.Signer, error) {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return nil, errors.New("oauth: private_key is not PEM")
	}
	if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		if s, ok := k.(crypto.Signer); ok {
			return s, nil
		}
	}
	if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	return nil, errors.New("oauth: private_key is not a PKCS#8, SEC 1 or PKCS#1 private key")
}
