package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStoreFiles: a record is written 0600 in a 0700 directory, with no
// temporary file left; servers with the same name and another URL, or
// the same URL and another name, do not share a file; Delete removes it.
func TestStoreFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "mcp-auth")
	s := &Store{Dir: dir}
	rec := &Record{Server: "docs", URL: "https://docs.example/mcp", Issuer: "https://as.example",
		Token: &Token{AccessToken: "at-1", RefreshToken: "rt-1", Expiry: time.Unix(2000000000, 0).UTC()}}
	if err := s.Save(rec); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(rec); err != nil { // replaced whole
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("want one file in %s, got %v", dir, entries)
	}
	fi, _ := os.Stat(filepath.Join(dir, entries[0].Name()))
	di, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v, directory %v; want 0600 and 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
	got, err := s.Load("docs", "https://docs.example/mcp")
	if err != nil || got.Token == nil || got.Token.AccessToken != "at-1" || !got.Token.Expiry.Equal(rec.Token.Expiry) {
		t.Fatalf("Load: got %+v %v, want the saved record", got, err)
	}
	for _, other := range [][2]string{{"docs", "https://other.example/mcp"}, {"docs2", "https://docs.example/mcp"}} {
		if r, _ := s.Load(other[0], other[1]); r.Token != nil {
			t.Errorf("server %v sees docs' token", other)
		}
	}
	if had, err := s.Delete("docs", "https://docs.example/mcp"); !had || err != nil {
		t.Errorf("Delete: %v %v, want true", had, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Delete left %v", entries)
	}
}

// TestClientAssertion: a private_key_jwt assertion is an ES256 JWS the
// public key verifies, with the client as issuer and subject and the
// authorization server as audience.
func TestClientAssertion(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	signer, err := parseKey(string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})))
	if err != nil {
		t.Fatal(err)
	}
	a := clientAuth{client: Client{ID: "machine"}, key: signer, alg: "ES256", audience: "https://as.example"}
	jwt, err := a.assertion()
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("not a compact JWS: %q", jwt)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if len(sig) != 64 || !ecdsa.Verify(&key.PublicKey, digest[:], r, s) {
		t.Fatalf("the signature does not verify")
	}
	var claims map[string]any
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	_ = json.Unmarshal(payload, &claims)
	if claims["iss"] != "machine" || claims["sub"] != "machine" || claims["aud"] != "https://as.example" || claims["jti"] == "" {
		t.Errorf("claims: %v", claims)
	}
}

// TestConfig: Claude Code's camelCase names are read too, and bad values
// are named.
func TestConfig(t *testing.T) {
	var c Config
	if err := json.Unmarshal([]byte(`{"clientId":"cid","clientSecret":"sec","callbackPort":8976,"scopes":["a"]}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.ClientID != "cid" || c.ClientSecret != "sec" || c.CallbackPort != 8976 || len(c.Scopes) != 1 {
		t.Errorf("camelCase config: got %+v", c)
	}
	bad := []struct {
		c    Config
		want string
	}{
		{Config{GrantType: "password"}, "unknown grant_type"},
		{Config{GrantType: GrantClientCredentials}, "needs a client_id"},
		{Config{GrantType: GrantClientCredentials, ClientID: "m"}, "client_secret or a private_key"},
		{Config{CallbackPort: 70000}, "callback_port"},
	}
	for _, b := range bad {
		if err := b.c.Validate(); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("Validate(%+v) = %v, want an error with %q", b.c, err, b.want)
		}
	}
}
