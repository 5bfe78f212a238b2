package oauth

import (
	"net/http"
	"strings"
)

// Challenge is what a server's Bearer WWW-Authenticate header asks for.
type Challenge struct {
	// Status is the response's HTTP status: 401 (no or a bad token) or
	// 403 (a token without the scope the request needs).
	Status           int
	Error            string
	ErrorDescription string
	Scope            string
	ResourceMetadata string
}

// InsufficientScope reports whether the challenge asks for more scope.
func (c Challenge) InsufficientScope() bool {
	return c.Status == http.StatusForbidden && c.Error == "insufficient_scope"
}

// parseChallenge reads the Bearer challenge of a response's
// WWW-Authenticate headers; params of other schemes are ignored.
func parseChallenge(status int, headers []string) Challenge {
	c := Challenge{Status: status}
	for _, h := range headers {
		params, ok := bearerParams(h)
		if !ok {
			continue
		}
		c.Error = params["error"]
		c.ErrorDescription = params["error_description"]
		c.Scope = params["scope"]
		c.ResourceMetadata = params["resource_metadata"]
		break
	}
	return c
}

// bearerParams parses `Bearer k="v", k2=v2` (RFC 9110 auth-params) from
// a header that may hold several challenges.
func bearerParams(h string) (map[string]string, bool) {
	i := strings.Index(strings.ToLower(h), "bearer")
	if i < 0 || (i > 0 && h[i-1] != ' ' && h[i-1] != ',') {
		return nil, false
	}
	s := h[i+len("bearer"):]
	out := map[string]string{}
	for {
		s = strings.TrimLeft(s, " ,\t")
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return out, true
		}
		key := strings.ToLower(strings.TrimSpace(s[:eq]))
		if strings.ContainsAny(key, " \t") {
			// The next scheme's name: this challenge ended.
			return out, true
		}
		s = strings.TrimLeft(s[eq+1:], " \t")
		var val string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			j := 1
			for ; j < len(s); j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
					b.WriteByte(s[j])
					continue
				}
				if s[j] == '"' {
					break
				}
				b.WriteByte(s[j])
			}
			val = b.String()
			if j < len(s) {
				j++
			}
			s = s[j:]
		} else {
			end := strings.IndexAny(s, ", \t")
			if end < 0 {
				end = len(s)
			}
			val, s = s[:end], s[end:]
		}
		if _, seen := out[key]; !seen {
			out[key] = val
		}
	}
}
