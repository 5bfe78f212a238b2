package oauth

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// BenchmarkRoundTrip is what the transport adds to every MCP request of a
// logged-in server (a kept token, the body buffered for a retry), against
// the same request sent without it.
func BenchmarkRoundTrip(b *testing.B) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "{}")
	}))
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"` + strings.Repeat("a", 2000) + `"}}}`
	store := &Store{}
	_ = store.Save(&Record{Server: "s", URL: ts.URL, Token: &Token{AccessToken: "tok", Expiry: time.Now().Add(time.Hour)}})
	for _, c := range []struct {
		name string
		rt   http.RoundTripper
	}{
		{"plain", http.DefaultTransport},
		{"oauth", &Transport{Server: "s", URL: ts.URL, Store: store}},
	} {
		b.Run(c.name, func(b *testing.B) {
			hc := &http.Client{Transport: c.rt}
			b.ReportAllocs()
			for b.Loop() {
				resp, err := hc.Post(ts.URL, "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}
