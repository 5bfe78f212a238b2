package oauth

import (
	"net/http"
	"testing"
)

func TestParseChallenge(t *testing.T) {
	cases := []struct {
		name    string
		headers []string
		want    Challenge
	}{
		{"step-up", []string{`Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"`},
			Challenge{Status: 403, Error: "insufficient_scope", Scope: "a b", ResourceMetadata: "https://x/.well-known/oauth-protected-resource/mcp"}},
		{"escaped quote and unquoted token", []string{`Bearer realm="a \"b\"", error=invalid_token`},
			Challenge{Status: 403, Error: "invalid_token"}},
		{"bearer after another scheme", []string{`Basic realm="r"`, `Bearer scope="s"`},
			Challenge{Status: 403, Scope: "s"}},
		{"two schemes in one header", []string{`DPoP algs="ES256", Bearer scope="s", error_description="no"`},
			Challenge{Status: 403, Scope: "s", ErrorDescription: "no"}},
		{"no bearer", []string{`Basic realm="r"`}, Challenge{Status: 403}},
		{"empty", nil, Challenge{Status: 403}},
	}
	for _, c := range cases {
		got := parseChallenge(http.StatusForbidden, c.headers)
		if got != c.want {
			t.Errorf("%s: parseChallenge(%q) = %+v, want %+v", c.name, c.headers, got, c.want)
		}
	}
}

func TestResourceMatches(t *testing.T) {
	cases := []struct {
		resource, server string
		want             bool
	}{
		{"https://x.example/mcp", "https://x.example/mcp", true},
		{"https://x.example/mcp/", "https://x.example/mcp", true},
		{"https://x.example", "https://x.example/mcp", true},
		{"https://X.example/mcp", "https://x.example/mcp", true},
		{"https://x.example/mcp", "https://x.example/mcp/v2", true},
		{"https://x.example/mc", "https://x.example/mcp", false},
		{"https://evil.example/mcp", "https://x.example/mcp", false},
		{"http://x.example/mcp", "https://x.example/mcp", false},
		{"https://x.example:8443/mcp", "https://x.example/mcp", false},
		{"https://x.example/mcp#f", "https://x.example/mcp", false},
		{"https://x.example/other", "https://x.example/mcp", false},
	}
	for _, c := range cases {
		if got := resourceMatches(c.resource, c.server); got != c.want {
			t.Errorf("resourceMatches(%q, %q) = %v, want %v", c.resource, c.server, got, c.want)
		}
	}
}
