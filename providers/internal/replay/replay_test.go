package replay

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestPieces(t *testing.T) {
	tests := []struct {
		body, format string
		want         []string
	}{
		{"data: a\n\ndata: b\n\n", "sse", []string{"data: a\n\n", "data: b\n\n"}},
		{": ping\n\nevent: x\ndata: a\n\ndata: [DONE]", "sse-with-comments", []string{": ping\n\n", "event: x\ndata: a\n\n", "data: [DONE]"}},
		{"data: a\r\n\r\ndata: b\r\n\r\n", "sse", []string{"data: a\r\n\r\n", "data: b\r\n\r\n"}},
		{"{\"a\":1}\n{\"b\":2}\n", "ndjson", []string{"{\"a\":1}\n", "{\"b\":2}\n"}},
		{"[1,2,3,4,5,6,7,8]", "json-array", []string{"[1,", "2,3", ",4,", "5,6", ",7,", "8]"}},
		{`{"whole":true}`, "", []string{`{"whole":true}`}},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range Pieces([]byte(tt.body), tt.format) {
			got = append(got, string(p))
		}
		if strings.Join(got, "") != tt.body {
			t.Errorf("Pieces(%q, %s): pieces %q do not rejoin to the body", tt.body, tt.format, got)
		}
		if tt.format != "json-array" && !slices.Equal(got, tt.want) {
			t.Errorf("Pieces(%q, %s): got %q, want %q", tt.body, tt.format, got, tt.want)
		}
		if tt.format == "json-array" && len(got) < 3 {
			t.Errorf("Pieces(%q, json-array): got %d pieces, want a few", tt.body, len(got))
		}
	}
}

func TestServeSequenceAndLog(t *testing.T) {
	rec := Load(t, "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.simple_streaming.json")
	srv := Sequence{Status(429, `{"error":{"message":"slow down"}}`, "Retry-After", "1"), rec}.Serve(t)
	for i, want := range []int{429, 200, 200} {
		req, _ := http.NewRequestWithContext(t.Context(), "POST", srv.URL+"/v1/chat/completions?x=1",
			strings.NewReader(`{"n":`+strconv.Itoa(i)+`}`))
		req.Header.Set("Authorization", "Bearer k")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("request %d: got status %d, want %d", i, resp.StatusCode, want)
		}
		if want == 200 && (string(body) != rec.Response.BodyRaw || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8") {
			t.Errorf("request %d: got %q (%s), want the recorded body and content type", i, body, resp.Header.Get("Content-Type"))
		}
		if want == 429 && resp.Header.Get("Retry-After") != "1" {
			t.Errorf("request %d: got Retry-After %q, want 1", i, resp.Header.Get("Retry-After"))
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[2].Path != "/v1/chat/completions" || reqs[2].Query.Get("x") != "1" ||
		reqs[2].Header.Get("Authorization") != "Bearer k" || string(reqs[2].Body) != `{"n":2}` || reqs[2].Method != "POST" {
		t.Errorf("request log: got %+v, want 3 POSTs to /v1/chat/completions?x=1 with their bodies", reqs)
	}
}

func TestFaultHandlers(t *testing.T) {
	rec := Load(t, "openai/fantasy__OpenAICommon.openai-gpt-4o-mini.simple_streaming.json")
	get := func(h http.Handler, timeout time.Duration) (string, error) {
		srv := Sequence{h}.Serve(t)
		ctx, cancel := context.WithTimeout(t.Context(), timeout)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	if _, err := get(Hangup(), 5*time.Second); err == nil {
		t.Error("Hangup: got a response, want a transport error")
	}
	first := string(Pieces(rec.Body(), rec.StreamFormat)[0])
	if body, err := get(Cut(rec, 1), 5*time.Second); !errors.Is(err, io.ErrUnexpectedEOF) || body != first {
		t.Errorf("Cut: got %q, %v; want the first event then unexpected EOF", body, err)
	}
	if body, err := get(Break("text/event-stream", "data: {}\n\n"), 5*time.Second); !errors.Is(err, io.ErrUnexpectedEOF) || body != "data: {}\n\n" {
		t.Errorf("Break: got %q, %v; want the body then unexpected EOF", body, err)
	}
	if _, err := get(Hang(), 100*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Hang: got %v, want the client's deadline", err)
	}
	if body, err := get(Stall(rec, 1), 100*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) || body != first {
		t.Errorf("Stall: got %q, %v; want the first event then the client's deadline", body, err)
	}
}

// TestHangEndsAtCleanup: a request nobody cancels does not block the
// server's shutdown.
func TestHangEndsAtCleanup(t *testing.T) {
	done := make(chan struct{})
	t.Run("inner", func(t *testing.T) {
		started := make(chan struct{})
		srv := Sequence{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			close(started)
			Hang().ServeHTTP(w, r)
		})}.Serve(t)
		go func() {
			defer close(done)
			resp, err := http.Post(srv.URL, "application/json", nil)
			if err == nil {
				resp.Body.Close()
			}
		}()
		<-started
	})
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the hung request outlived the test's cleanup")
	}
}

func TestCompactJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"b": 2, "a": [1, 2]}`: `{"a":[1,2],"b":2}`,
		` null `:                `null`,
		`{"a":`:                 `{"a":`, // not JSON: unchanged
		``:                      ``,
	} {
		if got := CompactJSON(in); got != want {
			t.Errorf("CompactJSON(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestGrow(t *testing.T) {
	p := func(s ...string) [][]byte {
		var out [][]byte
		for _, x := range s {
			out = append(out, []byte(x))
		}
		return out
	}
	tests := []struct {
		head, middle, tail [][]byte
		size               int
		want               string
	}{
		{p("H"), p("ab", "c"), p("T"), 6, "HabcabcT"},
		{nil, p("xy"), p("T"), 1, "xyT"},
		{p("H"), nil, p("T"), 100, "HT"}, // nothing to repeat: no endless loop
	}
	for _, tt := range tests {
		if got := string(Grow(tt.head, tt.middle, tt.tail, tt.size)); got != tt.want {
			t.Errorf("Grow(%q, %q, %q, %d): got %q, want %q", tt.head, tt.middle, tt.tail, tt.size, got, tt.want)
		}
	}
}
