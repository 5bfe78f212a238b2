package origin

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// TestOnlyFollowsWithinTheOrigin: a redirect to another path of the same
// server is followed, headers and all; one to another port is refused
// with a RedirectError naming both addresses, queries left out.
func TestOnlyFollowsWithinTheOrigin(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other server got a request with key %q", r.Header.Get("X-Api-Key"))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/here", http.StatusTemporaryRedirect)
		case "/here":
			io.WriteString(w, r.Header.Get("X-Api-Key"))
		default:
			http.Redirect(w, r, other.URL+"/x?key=k", http.StatusFound)
		}
	}))
	defer srv.Close()
	hc := Only(nil)
	get := func(path string) (string, error) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path+"?key=k", nil)
		req.Header.Set("X-Api-Key", "k")
		resp, err := hc.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b), nil
	}
	if got, err := get("/moved"); err != nil || got != "k" {
		t.Errorf("a redirect within the server: got %q, %v; want the key followed there", got, err)
	}
	_, err := get("/away")
	var re *RedirectError
	if !errors.As(err, &re) || re.From != srv.URL+"/away" || re.To != other.URL+"/x" {
		t.Errorf("a redirect to another port: got %v (%+v), want a RedirectError from %s/away to %s/x", err, re, srv.URL, other.URL)
	}
}

func TestOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://api.example.com/v1", "https://API.example.com:443/v2", true},
		{"http://h/a", "http://h:80/b", true},
		{"https://h/a", "http://h/a", false},
		{"https://h/a", "https://h:8443/a", false},
		{"https://h/a", "https://evil.example/a", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := origin(a) == origin(b); got != tc.same {
			t.Errorf("%s and %s: same origin %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
