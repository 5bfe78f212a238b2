package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

const (
	defaultFetchBytes     = 5 << 20
	defaultFetchRedirects = 5
	defaultFetchTimeout   = 30 * time.Second
	maxFetchTimeout       = 120 * time.Second
	defaultFetchChars     = 20_000
	errorBodyChars        = 2_000
	// fetchBudget bounds the bytes of page text in one result, under the
	// engine's default 32 KiB result cap with room for the header lines.
	fetchBudget = 28 * 1024
)

const webFetchSchema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "minLength": 1, "description": "The http:// or https:// URL to fetch"},
    "max_chars": {"type": "integer", "minimum": 1, "maximum": 100000, "description": "Maximum characters of converted text to return (default 20000)"},
    "offset": {"type": "integer", "minimum": 0, "description": "Characters of converted text to skip, to read on after a truncated fetch (default 0)"},
    "timeout_ms": {"type": "integer", "minimum": 1, "maximum": 120000, "description": "Give up after this many milliseconds (default 30000, max 120000)"}
  },
  "required": ["url"],
  "additionalProperties": false
}`

type fetchArgs struct {
	URL       string `json:"url"`
	MaxChars  int    `json:"max_chars"`
	Offset    int    `json:"offset"`
	TimeoutMS int    `json:"timeout_ms"`
}

// fetcher holds the HTTP client of one run's web_fetch. The client is built
// on first use, so listing tools never allocates a transport.
type fetcher struct {
	opts   WebFetchOptions
	policy addrPolicy
	client func() *http.Client
}

func webFetchTool(opts WebFetchOptions) Tool {
	f := &fetcher{opts: opts, policy: addrPolicy{allowPrivate: opts.AllowPrivate, allowNets: opts.AllowNets}}
	f.client = sync.OnceValue(f.newClient)
	return Tool{
		Name: "web_fetch",
		Description: "Fetch a public http(s) URL and return its content as text: HTML converted to Markdown, JSON pretty-printed, other text as is; binary content is refused. " +
			"Long pages are cut at max_chars; call again with offset to read on. Private and local network addresses are refused.",
		Schema: json.RawMessage(webFetchSchema),
		Kind:   KindRead,
		Source: SourceBuiltin,
		Execute: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			var args fetchArgs
			if r := decodeArgs(raw, &args); r != nil {
				return *r, nil
			}
			return f.fetch(ctx, args)
		},
	}
}

// redirectError is returned by CheckRedirect; its text is meant for the
// model as it stands.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

func (f *fetcher) newClient() *http.Client {
	// The policy runs on the resolved address of every connection,
	// redirects included; no proxy, so the address dialled is the server.
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: f.policy.control}
	tr := &http.Transport{
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		DisableKeepAlives:      true, // nothing idles after a run ends
		MaxResponseHeaderBytes: 1 << 20,
	}
	maxRedirects := f.opts.MaxRedirects
	switch {
	case maxRedirects == 0:
		maxRedirects = defaultFetchRedirects
	case maxRedirects < 0:
		maxRedirects = 0
	}
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return &redirectError{fmt.Sprintf("refused: too many redirects (more than %d) starting at %s; the last pointed to %s", maxRedirects, via[0].URL, req.URL)}
			}
			if err := f.policy.checkURL(req.URL); err != nil {
				return &redirectError{fmt.Sprintf("redirect from %s to %s refused: %v", via[len(via)-1].URL, req.URL, err)}
			}
			return nil
		},
	}
}

func (f *fetcher) fetch(ctx context.Context, a fetchArgs) (Result, error) {
	u, err := url.Parse(strings.TrimSpace(a.URL))
	if err != nil {
		return Errorf("invalid URL %q: %v", a.URL, err), nil
	}
	if err := f.policy.checkURL(u); err != nil {
		return Errorf("%v", err), nil
	}
	timeout := durationOr(f.opts.DefaultTimeout, defaultFetchTimeout)
	if a.TimeoutMS > 0 {
		timeout = min(time.Duration(a.TimeoutMS)*time.Millisecond, maxFetchTimeout)
	}
	fctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(fctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Errorf("invalid URL %q: %v", a.URL, err), nil
	}
	ua := f.opts.UserAgent
	if ua == "" {
		ua = "llmrt-web-fetch/1"
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "text/markdown, text/html;q=0.9, application/json;q=0.9, text/plain;q=0.8, */*;q=0.5")
	resp, err := f.client().Do(req)
	if err != nil {
		return f.requestFailed(ctx, fctx, u, timeout, err)
	}
	defer resp.Body.Close()
	maxBytes := f.opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = defaultFetchBytes
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return f.requestFailed(ctx, fctx, u, timeout, err)
	}
	cut := int64(len(body)) > maxBytes
	if cut {
		body = body[:maxBytes]
	}
	final := resp.Request.URL.String()
	pg, err := convertBody(fctx, body, resp.Header.Get("Content-Type"), final)
	var bin errBinary
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		text, _ := window(pg.text, 0, errorBodyChars) // empty when not text
		return Errorf("HTTP %s from %s; the response said:\n%s", resp.Status, final, text), nil
	case errors.As(err, &bin):
		return Errorf("refused: %s returned binary content (%s, %d bytes read); web_fetch only returns text", final, bin.mediaType, len(body)), nil
	case err != nil:
		return Errorf("%s: %v", final, err), nil
	}
	summary := plural(utf8.RuneCountInString(pg.text), "character") + " of " + pg.kind
	return Summed(formatPage(a, u, final, resp, pg, cut, maxBytes), summary), nil
}

// requestFailed turns a failed request into a result: refusals and
// timeouts in words the model can act on; cancellation of the run as an
// error, since nobody is waiting for the result.
func (f *fetcher) requestFailed(ctx, fctx context.Context, u *url.URL, timeout time.Duration, err error) (Result, error) {
	if ctx.Err() != nil {
		return Errorf("fetch %s cancelled", u), ctx.Err()
	}
	var re *redirectError
	if errors.As(err, &re) {
		return Errorf("%s", re.msg), nil
	}
	var ue *url.Error
	target := u
	if errors.As(err, &ue) {
		if t, perr := url.Parse(ue.URL); perr == nil {
			target = t
		}
	}
	if refused := refusedAddr(target, err); refused != nil {
		if target.String() != u.String() {
			return Errorf("redirect from %s to %s refused: %v", u, target, refused), nil
		}
		return Errorf("%v", refused), nil
	}
	if fctx.Err() != nil {
		return Errorf("fetch %s timed out after %d ms; retry with a larger timeout_ms (max 120000)", u, timeout.Milliseconds()), nil
	}
	return Errorf("fetch %s failed: %v", u, err), nil
}

func formatPage(a fetchArgs, u *url.URL, final string, resp *http.Response, pg page, cut bool, maxBytes int64) string {
	maxChars := a.MaxChars
	if maxChars <= 0 {
		maxChars = defaultFetchChars
	}
	text, total := window(pg.text, a.Offset, maxChars)
	if len(text) > fetchBudget {
		// Many multi-byte characters: keep the result under the engine's
		// result cap so the continuation offset below stays exact.
		text = text[:runeBoundary(text, fetchBudget)]
	}
	shown := utf8.RuneCountInString(text)
	var b strings.Builder
	fmt.Fprintf(&b, "URL: %s\n", final)
	if final != u.String() {
		fmt.Fprintf(&b, "Redirected from: %s\n", u)
	}
	fmt.Fprintf(&b, "Content-Type: %s (shown as %s)\n", resp.Header.Get("Content-Type"), pg.kind)
	if pg.title != "" {
		fmt.Fprintf(&b, "Title: %s\n", pg.title)
	}
	b.WriteString("\n")
	b.WriteString(text)
	end := a.Offset + shown
	switch {
	case a.Offset >= total && total > 0:
		fmt.Fprintf(&b, "[offset %d is past the end of the text (%d characters)]", a.Offset, total)
	case end < total:
		fmt.Fprintf(&b, "\n[characters %d-%d of %d; truncated: call web_fetch with offset=%d to read on]", a.Offset, end, total, end)
	}
	if cut {
		fmt.Fprintf(&b, "\n[the body was larger than %d bytes; only that much was read]", maxBytes)
	}
	return b.String()
}

// window returns up to n characters of s starting at character off, and the
// number of characters in s.
func window(s string, off, n int) (string, int) {
	total := utf8.RuneCountInString(s)
	if off >= total {
		return "", total
	}
	start, i := len(s), 0
	for pos := range s {
		if i == off {
			start = pos
			break
		}
		i++
	}
	rest := s[start:]
	end, j := len(rest), 0
	for pos := range rest {
		if j == n {
			end = pos
			break
		}
		j++
	}
	return rest[:end], total
}
