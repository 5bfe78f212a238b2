package providers

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSplitSystem(t *testing.T) {
	sys, rest := SplitSystem([]Message{
		TextMessage(RoleSystem, "host"), TextMessage(RoleUser, "hi"), TextMessage(RoleSystem, "note"), TextMessage(RoleSystem, "  "),
	})
	if sys != "host" || len(rest) != 1 || rest[0].Role != RoleUser || rest[0].Text() != "hi"+SystemNote("note") {
		t.Errorf("got %q and %d messages (%q)", sys, len(rest), rest[0].Text())
	}
	_, rest = SplitSystem([]Message{
		TextMessage(RoleSystem, "host"), TextMessage(RoleUser, "hi"), TextMessage(RoleAssistant, "ok"), TextMessage(RoleSystem, "note"),
	})
	if len(rest) != 3 || rest[2].Role != RoleUser || rest[2].Text() != SystemNote("note") {
		t.Errorf("a note after an assistant message should be a user turn of its own: %+v", rest)
	}
	if n := TrailingSystem([]Message{TextMessage(RoleSystem, "host"), TextMessage(RoleUser, "hi"), TextMessage(RoleSystem, "a"), TextMessage(RoleSystem, "b")}); n != 2 {
		t.Errorf("TrailingSystem: got %d, want 2", n)
	}
}

// fakeProvider fails with the given errors in turn, optionally after
// emitting text, then succeeds.
type fakeProvider struct {
	errs  []error
	emit  []bool
	calls int
}

func (f *fakeProvider) Name() string { return "fake" }

func (f *fakeProvider) Stream(ctx context.Context, req *Request, emit func(Chunk)) error {
	i := f.calls
	f.calls++
	if i < len(f.errs) {
		if f.emit[i] {
			emit(Chunk{Type: ChunkText, Text: "partial"})
		}
		return f.errs[i]
	}
	emit(Chunk{Type: ChunkStop, Stop: StopNatural})
	return nil
}

func TestRetryPolicy(t *testing.T) {
	retryable := &Error{Provider: "fake", StatusCode: 503, Retryable: true}
	fatal := &Error{Provider: "fake", StatusCode: 401}
	long := &Error{Provider: "fake", StatusCode: 429, Retryable: true, RetryAfter: time.Hour}
	cases := []struct {
		name     string
		errs     []error
		emit     []bool
		shown    bool // the caller's committed says output reached the user
		calls    int
		restarts int
		wantErr  error
	}{
		{"retryable then success", []error{retryable, retryable}, []bool{false, false}, false, 3, 0, nil},
		{"gives up after the attempts", []error{retryable, retryable, retryable}, []bool{false, false, false}, false, 3, 0, retryable},
		{"restarted after output", []error{retryable}, []bool{true}, false, 2, 1, nil},
		{"restarted after output until the attempts run out", []error{retryable, retryable, retryable}, []bool{true, true, true}, false, 3, 2, retryable},
		{"not after output the user saw", []error{retryable}, []bool{true}, true, 1, 0, retryable},
		{"retried when the user saw nothing of this attempt", []error{retryable}, []bool{false}, true, 2, 0, nil},
		{"not a fatal status", []error{fatal}, []bool{false}, false, 1, 0, fatal},
		{"not a fatal status after output", []error{fatal}, []bool{true}, false, 1, 0, fatal},
		{"not when the server asks for too long", []error{long}, []bool{false}, false, 1, 0, long},
		{"not a plain error", []error{errors.New("bug")}, []bool{false}, false, 1, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &fakeProvider{errs: tc.errs, emit: tc.emit}
			var retries, restarts, marked int
			// text is what a consumer keeps: a restart warning drops the
			// attempt so far.
			var text string
			emit := func(c Chunk) {
				text += c.Text
				if c.Type == ChunkWarning && c.Warning.Code == WarnStreamRestarted {
					text = ""
					restarts++
				}
			}
			onRetry := func(r Retry) {
				retries++
				if r.Restarted {
					marked++
				}
			}
			committed := func() bool { return tc.shown }
			err := RetryPolicy{BaseDelay: time.Millisecond}.StreamCommitted(t.Context(), p, &Request{}, emit, onRetry, committed)
			if p.calls != tc.calls || retries != tc.calls-1 {
				t.Errorf("calls %d retries %d, want %d and %d", p.calls, retries, tc.calls, tc.calls-1)
			}
			if restarts != tc.restarts || marked != tc.restarts {
				t.Errorf("restart warnings %d, retries marked Restarted %d, want %d", restarts, marked, tc.restarts)
			}
			if tc.wantErr != nil && err != tc.wantErr {
				t.Errorf("err: got %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr == nil && err == nil && text != "" {
				t.Errorf("text: got %q, want the restarted attempt's partial output dropped", text)
			}
		})
	}
	t.Run("Stream restarts without asking", func(t *testing.T) {
		p := &fakeProvider{errs: []error{retryable}, emit: []bool{true}}
		var chunks []Chunk
		err := RetryPolicy{BaseDelay: time.Millisecond}.Stream(t.Context(), p, &Request{}, func(c Chunk) { chunks = append(chunks, c) }, nil)
		if err != nil || p.calls != 2 {
			t.Fatalf("got %v after %d calls, want success after 2", err, p.calls)
		}
		// partial text, the restart warning, then the second attempt.
		if len(chunks) != 3 || chunks[0].Type != ChunkText || chunks[1].Warning.Code != WarnStreamRestarted || chunks[2].Type != ChunkStop {
			t.Errorf("chunks: got %+v, want text, a stream_restarted warning, stop", chunks)
		}
		if msg := chunks[1].Warning.Message; !strings.Contains(msg, "503") || !strings.Contains(msg, "attempt 2 of 3") {
			t.Errorf("warning message: got %q, want the error and the attempt", msg)
		}
	})
	t.Run("cancellation stops the wait", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		p := &fakeProvider{errs: []error{retryable}, emit: []bool{false}}
		start := time.Now()
		err := RetryPolicy{BaseDelay: time.Minute, MaxDelay: time.Hour}.Stream(ctx, p, &Request{}, func(Chunk) {}, func(Retry) { cancel() })
		if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
			t.Errorf("got %v after %s", err, time.Since(start))
		}
	})
}

func TestPartMIMEAndDocumentText(t *testing.T) {
	png := Part{Type: PartImage, Data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")}
	if got := png.MIME(); got != "image/png" {
		t.Errorf("sniffed: %s", got)
	}
	declared := Part{Type: PartDocument, MediaType: "Text/Markdown; charset=utf-8", Data: []byte("# hi"), Name: "notes.md"}
	if got := declared.MIME(); got != "text/markdown" {
		t.Errorf("declared: %s", got)
	}
	if text, ok := declared.DocumentText(); !ok || text != "notes.md:\n# hi" {
		t.Errorf("document text: %q %v", text, ok)
	}
	pdf := Part{Type: PartDocument, MediaType: "application/pdf", Data: []byte("%PDF-1.4")}
	if _, ok := pdf.DocumentText(); ok {
		t.Errorf("a PDF is not a text document")
	}
}

func TestParseEffort(t *testing.T) {
	for _, in := range []string{"", "none", "low", "medium", "high"} {
		if got, err := ParseEffort(in); err != nil || string(got) != in {
			t.Errorf("ParseEffort(%q): got %q, %v; want %q", in, got, err, in)
		}
	}
	if _, err := ParseEffort("max"); err == nil || !strings.Contains(err.Error(), `"max"`) {
		t.Errorf(`ParseEffort("max"): got %v, want an error naming it`, err)
	}
}

func TestToolSpecSchema(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `{"type":"object","properties":{}}`},
		{" null ", `{"type":"object","properties":{}}`},
		{`{"type":"object","required":["a"]}`, `{"type":"object","required":["a"]}`},
	}
	for _, tc := range cases {
		if got := string(ToolSpec{Parameters: json.RawMessage(tc.in)}.Schema()); got != tc.want {
			t.Errorf("Schema of %q: got %s, want %s", tc.in, got, tc.want)
		}
	}
}
