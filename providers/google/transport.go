package google

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/llmrt/llmrt/providers/internal/adapter"
)

// maxErrorBody bounds the error body kept for the message.
const maxErrorBody = 1 << 20

// exchange records what the SDK hides about one call's HTTP exchange: the
// URL, the status and headers (Retry-After), an error body, and how reading
// the body failed. One exchange belongs to one Stream call and travels in
// the request context; the SDK runs the request and reads the body on the
// calling goroutine, so no locking is needed.
type exchange struct {
	url       string // without the query
	status    int    // 0 until a response arrived
	header    http.Header
	body      []byte // error responses only
	readErr   error  // the body broke off or stalled
	malformed error  // a non-SSE body was not valid JSON
}

type exchangeKey struct{}

func withExchange(ctx context.Context, ex *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, ex)
}

// recorder is the transport under the genai client. It fills the call's
// exchange and shapes the body so that the SDK can read it and never has
// reason to log: a read failure is recorded and shown to the SDK as a clean
// end, and a JSON array or single JSON object (what the API sends without
// alt=sse, and what generateContent returns) is re-framed as SSE.
type recorder struct{ base http.RoundTripper }

func (r recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	ex, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if ex == nil {
		ex = &exchange{} // a request not made by Stream; record nowhere
	}
	ex.url = adapter.StripQuery(req.URL.String())
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	ex.status, ex.header = resp.StatusCode, resp.Header
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Keep the body for our own error message, and hand the SDK a copy
		// so it still builds its APIError.
		ex.body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(ex.body))
		return resp, nil
	}
	body := &trackedBody{rc: resp.Body, ex: ex}
	resp.Body = body
	if strings.Contains(resp.Header.Get("Content-Type"), "event-stream") {
		return resp, nil
	}
	// Anything else is sniffed: JSON is re-framed, and a server that sends
	// SSE under another content type is read as SSE.
	br := bufio.NewReaderSize(body, 64<<10)
	switch firstByte(br) {
	case '[', '{':
		resp.Body = &jsonToSSE{br: br, closer: body, ex: ex}
	default:
		resp.Body = readCloser{br, body}
	}
	return resp, nil
}

// firstByte peeks at the first byte that is not white space, or 0.
func firstByte(br *bufio.Reader) byte {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0
		}
		if !strings.ContainsRune(" \t\r\n", rune(b)) {
			_ = br.UnreadByte()
			return b
		}
	}
}

// trackedBody records the first read failure and ends the body there. The
// SDK logs read errors to the standard logger, which a provider must never
// write to, so it sees io.EOF; Stream reports the recorded failure.
type trackedBody struct {
	rc io.ReadCloser
	ex *exchange
}

func (b *trackedBody) Read(p []byte) (int, error) {
	if b.ex.readErr != nil {
		return 0, io.EOF
	}
	n, err := b.rc.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		b.ex.readErr = err
		return n, io.EOF
	}
	return n, err
}

// Close never fails: the SDK would log the error, and a close error after a
// complete reply changes nothing.
func (b *trackedBody) Close() error {
	_ = b.rc.Close()
	return nil
}

type readCloser struct {
	io.Reader
	io.Closer
}
