package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"
)

// Token is an access token with what came with it.
type Token struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	// Scope is the scope granted, or asked for when the server did not
	// say.
	Scope string `json:"scope,omitempty"`
}

// expired reports whether the token is past its expiry (with a minute's
// margin, so that it does not run out on the way).
func (t *Token) expired(now time.Time) bool {
	return !t.Expiry.IsZero() && now.Add(time.Minute).After(t.Expiry)
}

// Client is a client identity an authorization server knows.
type Client struct {
	ID         string `json:"client_id"`
	Secret     string `json:"client_secret,omitempty"`
	AuthMethod string `json:"token_endpoint_auth_method,omitempty"`
	// RedirectURI is the redirect a registered client was registered
	// with; another port needs another registration.
	RedirectURI string `json:"redirect_uri,omitempty"`
	// Registered marks a client obtained by dynamic registration.
	Registered bool `json:"registered,omitempty"`
}

// Record is what is kept for one server: the issuer its token is from,
// the client registered there and the token.
type Record struct {
	Server   string `json:"server"`
	URL      string `json:"url"`
	Issuer   string `json:"issuer,omitempty"`
	Resource string `json:"resource,omitempty"`
	// TokenEndpoint is where the token is refreshed.
	TokenEndpoint string  `json:"token_endpoint,omitempty"`
	Client        *Client `json:"client,omitempty"`
	Token         *Token  `json:"token,omitempty"`
}

// Secrets returns the record's secret values, for redaction.
func (r *Record) Secrets() []string {
	var out []string
	if r.Token != nil {
		out = append(out, r.Token.AccessToken, r.Token.RefreshToken)
	}
	if r.Client != nil {
		out = append(out, r.Client.Secret)
	}
	return out
}

// Store keeps records, one file per server (name and URL) under Dir,
// each 0600 in a 0700 directory and replaced whole on every write. An
// empty Dir keeps them in memory only.
type Store struct {
	Dir string

	mu  sync.Mutex
	mem map[string]*Record
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// Path returns the file of a server's record.
func (s *Store) Path(server, serverURL string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + serverURL))
	name := unsafeName.ReplaceAllString(server, "_")
	if len(name) > 40 {
		name = name[:40]
	}
	return filepath.Join(s.Dir, name+"-"+hex.EncodeToString(sum[:6])+".json")
}

// Load returns a server's record; a missing one is empty.
func (s *Store) Load(server, serverURL string) (*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	empty := &Record{Server: server, URL: serverURL}
	if s.Dir == "" {
		if r := s.mem[server+"\x00"+serverURL]; r != nil {
			cp := *r
			return &cp, nil
		}
		return empty, nil
	}
	data, err := os.ReadFile(s.Path(server, serverURL))
	if errors.Is(err, fs.ErrNotExist) {
		return empty, nil
	}
	if err != nil {
		return empty, err
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil || r.URL != serverURL {
		// A damaged record is as good as none: the next login replaces it.
		return empty, nil
	}
	return &r, nil
}

// Save writes a server's record atomically.
func (s *Store) Save(r *Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Dir == "" {
		if s.mem == nil {
			s.mem = map[string]*Record{}
		}
		cp := *r
		s.mem[r.Server+"\x00"+r.URL] = &cp
		return nil
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("keep the token: %w", err)
	}
	_ = os.Chmod(s.Dir, 0o700)
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(s.Dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("keep the token: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("keep the token: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("keep the token: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("keep the token: %w", err)
	}
	if err := os.Rename(tmp, s.Path(r.Server, r.URL)); err != nil {
		return fmt.Errorf("keep the token: %w", err)
	}
	return nil
}

// Delete removes a server's record; it reports whether there was one.
func (s *Store) Delete(server, serverURL string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Dir == "" {
		k := server + "\x00" + serverURL
		_, ok := s.mem[k]
		delete(s.mem, k)
		return ok, nil
	}
	err := os.Remove(s.Path(server, serverURL))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
