package replay

import "net/http"

// Status answers with code and body. header holds name/value pairs
// ("Retry-After", "1"); Content-Type defaults to application/json.
func Status(code int, body string, header ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte(body))
	})
}

// RateLimit answers 429 with the given Retry-After value and an error body
// in the common {"error":{message,type,code}} shape.
func RateLimit(retryAfter string) http.Handler {
	return Status(http.StatusTooManyRequests,
		`{"error":{"message":"Rate limit reached for requests. Please try again in 1s.","type":"requests","code":"rate_limit_exceeded"}}`,
		"Retry-After", retryAfter)
}

// SSE answers 200 with Content-Type text/event-stream and body flushed event
// by event. Use it for hand-made streams such as malformed chunks.
func SSE(body string) http.Handler {
	rec := &Recording{StreamFormat: "sse"}
	rec.Response.Status = http.StatusOK
	rec.Response.Headers = http.Header{"Content-Type": {"text/event-stream"}}
	rec.Response.BodyRaw = body
	return rec
}

// Hangup closes the connection without writing any response: the client's
// request fails before a status arrives.
func Hangup() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		closeConn(w)
	})
}

// Cut replays rec's status, headers and the first n pieces of its body (see
// Pieces), then closes the connection without the rest or the chunked-body
// terminator, so the client sees the stream break off. n = 0 cuts right after
// the headers.
func Cut(rec *Recording, n int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeHead(w, rec.Response.Status, rec.Response.Headers)
		flush(w)
		for i, p := range Pieces(rec.Body(), rec.StreamFormat) {
			if i >= n {
				break
			}
			_, _ = w.Write(p)
			flush(w)
		}
		closeConn(w)
	})
}

// Break answers 200 with contentType and body, flushed, then closes the
// connection without finishing the response: a hand-made stream that
// breaks off after body.
func Break(contentType, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(body))
		flush(w)
		closeConn(w)
	})
}

// Stall replays rec's status, headers and the first n pieces of its body,
// then holds the connection open without another byte until the client
// gives up or the test ends: a stalled stream.
func Stall(rec *Recording, n int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeHead(w, rec.Response.Status, rec.Response.Headers)
		flush(w)
		for i, p := range Pieces(rec.Body(), rec.StreamFormat) {
			if i >= n {
				break
			}
			_, _ = w.Write(p)
			flush(w)
		}
		<-r.Context().Done()
	})
}

// Hang never answers: it holds the request until the client gives up or the
// test ends.
func Hang() http.Handler {
	return http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
}

// closeConn hijacks and closes the connection. What the handler wrote so
// far is flushed first; the chunked terminator is never written.
func closeConn(w http.ResponseWriter) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2): aborting the handler resets the stream.
		panic(http.ErrAbortHandler)
	}
	_ = buf.Flush()
	_ = conn.Close()
}
