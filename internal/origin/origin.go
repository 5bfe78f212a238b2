// Package origin keeps requests that carry credentials from following a
// redirect to another origin.
package origin

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Only returns a copy of hc (nil: http.DefaultClient) that follows a
// redirect only within the origin of the request (scheme, host and port).
// A model call carries the user's key in a header, and net/http forwards
// every header but Authorization and cookies to another host, and even
// those to another port of the same one: a server (or a base URL from a
// hostile config) redirecting elsewhere would hand the key over. Such a
// redirect fails with an error naming both addresses instead.
func Only(hc *http.Client) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	c := *hc
	inner := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if from := via[0].URL; origin(req.URL) != origin(from) {
			return &RedirectError{From: bare(from), To: bare(req.URL)}
		}
		if inner != nil {
			return inner(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// origin is u's scheme, host and port, the port spelled out when it is
// the scheme's default.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// bare is u without its query, which may hold a key.
func bare(u *url.URL) string {
	c := *u
	c.RawQuery, c.Fragment, c.User = "", "", nil
	return c.String()
}

// RedirectError is a redirect Only refused.
type RedirectError struct{ From, To string }

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s redirected the request to %s, another address; llmrt does not follow it, as the request carries your credentials (if that is the server's address, configure it instead)", e.From, e.To)
}
