package mcp

import (
	"testing"
)

// TestAuthorizationHeader: an Authorization header left empty by an unset
// variable is not sent, and leaves the server to OAuth; a real one is
// sent and OAuth stays out of its way.
func TestAuthorizationHeader(t *testing.T) {
	cases := []struct {
		value     string
		sent      bool
		withOAuth bool
	}{
		{"Bearer ", false, true},
		{"Bearer", false, true},
		{"", false, true},
		{"Bearer tok-123", true, false},
		{"Basic dXNlcjpwYXNz", true, false},
	}
	for _, c := range cases {
		cn := &conn{cfg: Server{Name: "docs", URL: "https://docs.example/mcp", Headers: map[string]string{"Authorization": c.value, "X-Team": "a"}}}
		h := cn.headers()
		if _, ok := h["Authorization"]; ok != c.sent || h["X-Team"] != "a" {
			t.Errorf("Authorization %q: headers %v, want it sent %v (and X-Team kept)", c.value, h, c.sent)
		}
		if got := cn.authTransport() != nil; got != c.withOAuth {
			t.Errorf("Authorization %q: OAuth transport %v, want %v", c.value, got, c.withOAuth)
		}
	}
}
