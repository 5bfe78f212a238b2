package tools

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

const testHTML = `<!doctype html><html><head><title>Test  Page</title><script>var secret = 1;</script></head>
<body><h1>Main Heading</h1><p>Some <strong>bold</strong> text and a <a href="/docs/intro">relative link</a>.</p>
<h2>Section</h2><ul><li>one</li><li>two</li></ul><style>.x{}</style></body></html>`

func newWebServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, testHTML)
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"name":"llmrt","tags":["a","b"],"n":1}`)
	})
	mux.HandleFunc("/plain.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "just text\n")
	})
	mux.HandleFunc("/latin1.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9\n"))
	})
	mux.HandleFunc("/cjk.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, strings.Repeat("漢字", 15_000))
	})
	mux.HandleFunc("/image.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	})
	mux.HandleFunc("/blob", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte("\x00\x01\x02\x03 binary"))
	})
	mux.HandleFunc("/big.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		line := strings.Repeat("b", 99) + "\n"
		for range 30_000 { // 3 MB
			fmt.Fprint(w, line)
		}
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page here", http.StatusNotFound)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/page.html", http.StatusFound)
	})
	mux.HandleFunc("/loop/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		http.Redirect(w, r, fmt.Sprintf("/loop/%d", n+1), http.StatusFound)
	})
	mux.HandleFunc("/to/{where}", func(w http.ResponseWriter, r *http.Request) {
		targets := map[string]string{
			"metadata": "http://169.254.169.254/latest/meta-data/",
			"private":  "http://10.1.2.3/",
			"v6":       "http://[::1]:" + r.URL.Port() + "/page.html",
			"file":     "file:///etc/passwd",
			"named":    "http://localhost:" + strings.Split(r.Host, ":")[1] + "/page.html",
		}
		http.Redirect(w, r, targets[r.PathValue("where")], http.StatusFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestWebFetch(t *testing.T) {
	srv := newWebServer(t)
	allowAll := Options{WebFetch: WebFetchOptions{AllowPrivate: true}}
	// Only the test server's own address is allowed, so redirects to other
	// non-public addresses are refused as they would be in production.
	onlyServer := Options{WebFetch: WebFetchOptions{AllowNets: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}}
	small := Options{WebFetch: WebFetchOptions{AllowPrivate: true, MaxBytes: 1 << 20}}
	cases := []struct {
		name    string
		opts    Options
		args    map[string]any
		isError bool
		want    []string
		notWant []string
	}{
		{"html to markdown", allowAll, map[string]any{"url": srv.URL + "/page.html"}, false,
			[]string{"Title: Test Page", "# Main Heading", "## Section", "**bold**", "[relative link](" + srv.URL + "/docs/intro)", "- one", "shown as markdown"},
			[]string{"secret", "<h1>", ".x{}"}},
		{"json pretty", allowAll, map[string]any{"url": srv.URL + "/data.json"}, false,
			[]string{"{\n  \"name\": \"llmrt\",\n  \"tags\": [\n    \"a\",", "shown as json"}, nil},
		{"plain text", allowAll, map[string]any{"url": srv.URL + "/plain.txt"}, false, []string{"\n\njust text\n"}, nil},
		{"charset", allowAll, map[string]any{"url": srv.URL + "/latin1.txt"}, false, []string{"café"}, nil},
		{"image refused", allowAll, map[string]any{"url": srv.URL + "/image.png"}, true, []string{"binary content (image/png"}, nil},
		{"octet refused", allowAll, map[string]any{"url": srv.URL + "/blob"}, true, []string{"binary content"}, nil},
		{"max_chars and offset", allowAll, map[string]any{"url": srv.URL + "/plain.txt", "max_chars": 4}, false,
			[]string{"\n\njust\n[characters 0-4 of 10; truncated: call web_fetch with offset=4"}, nil},
		{"offset reads on", allowAll, map[string]any{"url": srv.URL + "/plain.txt", "offset": 5}, false, []string{"\n\ntext\n"}, []string{"truncated"}},
		{"multi-byte text within the result cap", allowAll, map[string]any{"url": srv.URL + "/cjk.txt"}, false,
			[]string{"[characters 0-9557 of 30000; truncated: call web_fetch with offset=9557"}, nil},
		{"body cap", small, map[string]any{"url": srv.URL + "/big.txt"}, false, []string{"larger than 1048576 bytes"}, nil},
		{"http error", allowAll, map[string]any{"url": srv.URL + "/missing"}, true, []string{"HTTP 404 Not Found", "no such page here"}, nil},
		{"redirect followed", allowAll, map[string]any{"url": srv.URL + "/redirect"}, false,
			[]string{"URL: " + srv.URL + "/page.html", "Redirected from: " + srv.URL + "/redirect", "# Main Heading"}, nil},
		{"too many redirects", allowAll, map[string]any{"url": srv.URL + "/loop/0"}, true, []string{"too many redirects (more than 5)"}, nil},
		{"timeout", allowAll, map[string]any{"url": srv.URL + "/slow", "timeout_ms": 200}, true, []string{"timed out after 200 ms"}, nil},
		{"allowed net", onlyServer, map[string]any{"url": srv.URL + "/page.html"}, false, []string{"# Main Heading"}, nil},
		{"redirect to metadata", onlyServer, map[string]any{"url": srv.URL + "/to/metadata"}, true, []string{"refused", "169.254.169.254", "link-local"}, nil},
		{"redirect to private", onlyServer, map[string]any{"url": srv.URL + "/to/private"}, true, []string{"refused", "10.1.2.3", "private"}, nil},
		{"redirect to v6 loopback", onlyServer, map[string]any{"url": srv.URL + "/to/v6"}, true, []string{"refused", "::1", "loopback"}, nil},
		{"redirect to a name for loopback", Options{WebFetch: WebFetchOptions{AllowNets: onlyServer.WebFetch.AllowNets}}, map[string]any{"url": srv.URL + "/to/named"}, false, []string{"# Main Heading"}, nil},
		{"redirect to file", allowAll, map[string]any{"url": srv.URL + "/to/file"}, true, []string{"scheme \"file\" is not supported"}, nil},
		{"loopback refused by default", Options{}, map[string]any{"url": srv.URL + "/page.html"}, true, []string{"refused", "127.0.0.1", "loopback"}, []string{"Heading"}},
		{"localhost name refused at dial", Options{}, map[string]any{"url": strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/page.html"}, true, []string{"refused", "loopback"}, []string{"Heading"}},
		{"mapped v4 refused", Options{}, map[string]any{"url": "http://[::ffff:127.0.0.1]:1/"}, true, []string{"refused", "loopback"}, nil},
		{"file scheme", allowAll, map[string]any{"url": "file:///etc/passwd"}, true, []string{"only fetches http and https"}, nil},
		{"ftp scheme", allowAll, map[string]any{"url": "ftp://example.com/x"}, true, []string{"only fetches http and https"}, nil},
		{"no host", allowAll, map[string]any{"url": "http:///x"}, true, []string{"has no host"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, builtin(t, nil, c.opts, "web_fetch"), c.args)
			if res.IsError != c.isError {
				t.Fatalf("web_fetch(%v): IsError = %v, want %v; content:\n%.600s", c.args, res.IsError, c.isError, res.Content)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Content, w) {
					t.Errorf("web_fetch(%v) lacks %q; got:\n%.1000s", c.args, w, res.Content)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(res.Content, w) {
					t.Errorf("web_fetch(%v) contains %q; got:\n%.1000s", c.args, w, res.Content)
				}
			}
			if len(res.Content) > 32*1024 {
				t.Errorf("web_fetch(%v): %d bytes, want at most 32 KiB", c.args, len(res.Content))
			}
		})
	}
}

func TestClassifyAddresses(t *testing.T) {
	cases := map[string]bool{ // address → public
		"8.8.8.8": true, "1.1.1.1": true, "2606:4700:4700::1111": true,
		"127.0.0.1": false, "10.0.0.1": false, "172.16.5.4": false, "192.168.1.1": false,
		"169.254.169.254": false, "0.0.0.0": false, "100.64.0.1": false, "::1": false, "::": false,
		"fe80::1": false, "fc00::1": false, "224.0.0.1": false, "255.255.255.255": false,
		"::ffff:10.0.0.1": false, "64:ff9b::a00:1": false, "2002:7f00:1::": false, "64:ff9b::808:808": true,
	}
	p := addrPolicy{}
	for s, public := range cases {
		err := p.check(netip.MustParseAddr(s))
		if (err == nil) != public {
			t.Errorf("check(%s) = %v, want public=%v", s, err, public)
		}
	}
}
