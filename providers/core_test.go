package providers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestAccumulator(t *testing.T) {
	var a Accumulator
	a.Provider = "anthropic"
	for _, c := range []Chunk{
		{Type: ChunkReasoning, Text: "first "},
		{Type: ChunkReasoning, Text: "thought"},
		{Type: ChunkReasoning, Signature: "sig1"},
		{Type: ChunkReasoning, Redacted: "opaque"},
		{Type: ChunkReasoning, Text: "second"},
		{Type: ChunkText, Text: "Hello "},
		{Type: ChunkToolCall, ToolCall: ToolCallDelta{Index: 1, ID: "b", Name: "beta", Arguments: `{"y"`}},
		{Type: ChunkToolCall, ToolCall: ToolCallDelta{Index: 0, Name: "alpha", Arguments: `{}`}},
		{Type: ChunkToolCall, ToolCall: ToolCallDelta{Index: 1, Arguments: `:2}`}},
		{Type: ChunkText, Text: "world"},
		{Type: ChunkUsage, Usage: Usage{InputTokens: 10}},
		{Type: ChunkUsage, Usage: Usage{OutputTokens: 7}},
		{Type: ChunkStop, Stop: StopNatural},
	} {
		a.Add(c)
	}
	r := a.Reply()
	if got := r.Message.Text(); got != "Hello world" {
		t.Errorf("text: got %q", got)
	}
	want := []Reasoning{{Text: "first thought", Signature: "sig1", Provider: "anthropic"}, {Redacted: "opaque", Provider: "anthropic"}, {Text: "second", Provider: "anthropic"}}
	if len(r.Message.Reasoning) != 3 {
		t.Fatalf("reasoning blocks: got %+v", r.Message.Reasoning)
	}
	for i, w := range want {
		if r.Message.Reasoning[i] != w {
			t.Errorf("block %d: got %+v, want %+v", i, r.Message.Reasoning[i], w)
		}
	}
	calls := r.Message.ToolCalls
	if len(calls) != 2 || calls[0].Name != "beta" || calls[0].Arguments != `{"y":2}` || calls[1].Name != "alpha" || !strings.HasPrefix(calls[1].ID, "call_") {
		t.Errorf("calls (in arrival order, ids generated where missing): %+v", calls)
	}
	if r.Stop != StopToolCalls || r.Usage != (Usage{InputTokens: 10, OutputTokens: 7}) || !a.Emitted() {
		t.Errorf("stop %s usage %+v emitted %v", r.Stop, r.Usage, a.Emitted())
	}
	a.Reset()
	if a.Emitted() || a.Reply().Stop != StopUnknown || a.Provider != "anthropic" {
		t.Errorf("Reset should clear the reply and keep the provider")
	}
}

// TestAccumulatorRestart: a stream_restarted warning drops what came
// before it, so the reply holds only the restarted attempt.
func TestAccumulatorRestart(t *testing.T) {
	a := Accumulator{Provider: "openai"}
	restart := Warning{Code: WarnStreamRestarted, Message: "broke off"}
	for _, c := range []Chunk{
		{Type: ChunkWarning, Warning: Warning{Code: "web_search", Message: "ignored"}},
		{Type: ChunkReasoning, Text: "half a thought"},
		{Type: ChunkToolCall, ToolCall: ToolCallDelta{Index: 0, ID: "call_1", Name: "final_answer"}},
		{Type: ChunkUsage, Usage: Usage{InputTokens: 3}},
		{Type: ChunkWarning, Warning: restart},
		{Type: ChunkText, Text: "whole"},
		{Type: ChunkStop, Stop: StopNatural},
	} {
		a.Add(c)
	}
	r := a.Reply()
	if r.Message.Text() != "whole" || len(r.Message.ToolCalls) != 0 || len(r.Message.Reasoning) != 0 || r.Usage != (Usage{}) {
		t.Errorf("got text %q, %d calls, %d reasoning blocks, usage %+v; want only the restarted attempt",
			r.Message.Text(), len(r.Message.ToolCalls), len(r.Message.Reasoning), r.Usage)
	}
	if len(r.Warnings) != 1 || r.Warnings[0] != restart || a.Provider != "openai" {
		t.Errorf("warnings %+v provider %q: want only the restart warning, provider kept", r.Warnings, a.Provider)
	}
}

func TestNameCodec(t *testing.T) {
	names := []string{"read_file", "mcp.github/create issue", "mcp_github_create_issue", "ünïcode", strings.Repeat("x", 80), strings.Repeat("x", 70)}
	c := NewNameCodec(names, FunctionNames)
	seen := map[string]bool{}
	for _, n := range names {
		w := c.Wire(n)
		if len(w) > 64 || seen[w] {
			t.Errorf("%q → %q: too long or not unique", n, w)
		}
		seen[w] = true
		for i := 0; i < len(w); i++ {
			if !FunctionNameByte(w[i]) {
				t.Errorf("%q → %q holds %q", n, w, w[i])
			}
		}
		if back := c.Name(w); back != n {
			t.Errorf("round trip of %q: got %q", n, back)
		}
	}
	if c.Wire("read_file") != "read_file" || c.Wire("mcp_github_create_issue") != "mcp_github_create_issue" {
		t.Errorf("valid names must pass through unchanged")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"9"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(3 * time.Second).Format(http.TimeFormat)}}, 3 * time.Second},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{}, 0},
	}
	for _, tc := range cases {
		if got := ParseRetryAfter(tc.h, now); got != tc.want {
			t.Errorf("%v: got %s, want %s", tc.h, got, tc.want)
		}
	}
}

func TestServerMessage(t *testing.T) {
	cases := []struct{ body, code, msg string }{
		{`{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}`, "invalid_api_key", "bad key"},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "overloaded_error", "Overloaded"},
		{`[{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}]`, "RESOURCE_EXHAUSTED", "quota"},
		{`{"error":"model not found"}`, "", "model not found"},
		{`{"message":"Unauthorized"}`, "", "Unauthorized"},
		{`{"detail":"nope"}`, "", "nope"},
		{"<html>\nBad Gateway</html>", "", "<html>"},
	}
	for _, tc := range cases {
		code, msg := ServerMessage([]byte(tc.body))
		if code != tc.code || msg != tc.msg {
			t.Errorf("%s: got (%q, %q), want (%q, %q)", tc.body, code, msg, tc.code, tc.msg)
		}
	}
}

func TestSplitSystem(t *testing.T) {
	sys, rest := SplitSystem([]Message{
		TextMessage(RoleSystem, "host"), TextMessage(RoleUser, "hi"), TextMessage(RoleSystem, "note"), TextMessage(RoleSystem, "  "),
	})
	if sys != "host\n\nnote" || len(rest) != 1 || rest[0].Role != RoleUser {
		t.Errorf("got %q and %d messages", sys, len(rest))
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
			var acc Accumulator
			emit := func(c Chunk) {
				acc.Add(c)
				if c.Type == ChunkWarning && c.Warning.Code == WarnStreamRestarted {
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
			if tc.wantErr == nil && err == nil && acc.Reply().Message.Text() != "" {
				t.Errorf("text: got %q, want the restarted attempt's partial output dropped", acc.Reply().Message.Text())
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

// TestTimeouts: a server that never sends headers and one that stalls
// mid-body both fail with errors naming the URL; cancellation is not
// reported as a timeout.
func TestTimeouts(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall" {
			w.Write([]byte("data: one\n\n"))
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/hang", nil)
	_, err := Send(ctx, srv.Client(), "p", req, Timeouts{Response: 100 * time.Millisecond})
	var pe *Error
	if !errors.As(err, &pe) || !pe.Retryable || !strings.Contains(err.Error(), "no response from "+srv.URL+"/hang within 100ms") {
		t.Errorf("hang: got %v", err)
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/stall", nil)
	resp, err := Send(ctx, srv.Client(), "p", req, Timeouts{Idle: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	var readErr error
	for readErr == nil {
		_, readErr = resp.Body.Read(buf)
	}
	resp.Body.Close()
	err = ReadError(ctx, "p", srv.URL+"/stall", readErr)
	if !strings.Contains(err.Error(), "stalled") {
		t.Errorf("stall: got %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancel)
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/hang", nil)
	if _, err := Send(cctx, srv.Client(), "p", req, Timeouts{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: got %v", err)
	}
	hc := &http.Client{Transport: TimeoutTransport(nil, Timeouts{Response: 100 * time.Millisecond})}
	_, err = hc.Get(srv.URL + "/hang")
	if !errors.Is(err, errNoResponse) {
		t.Errorf("transport: got %v", err)
	}
	if ne := NetworkError(ctx, "p", srv.URL+"/hang", err); !strings.Contains(ne.Error(), "no response from") {
		t.Errorf("network error: %v", ne)
	}
}

// TestNameRuleFirst: a rule on the first byte (Gemini: a letter or '_')
// prefixes names that would start badly, keeping the mapping one-to-one.
func TestNameRuleFirst(t *testing.T) {
	rule := NameRule{Byte: FunctionNameByte, First: func(b byte) bool { return b == '_' || (b >= 'a' && b <= 'z') }, MaxLen: 12}
	names := []string{"1st_tool", "_1st_tool", "ok", "-dash", "123456789012"}
	c := NewNameCodec(names, rule)
	seen := map[string]bool{}
	for _, n := range names {
		w := c.Wire(n)
		if !rule.valid(w) || seen[w] || c.Name(w) != n {
			t.Errorf("%q → %q: invalid, duplicate or not reversible", n, w)
		}
		seen[w] = true
	}
	if c.Wire("ok") != "ok" {
		t.Errorf("valid names pass through")
	}
	r := &Request{Tools: []ToolSpec{{Name: "a.b"}}, Messages: []Message{
		{Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "old.tool"}}},
		{Role: RoleTool, ToolName: "gone.tool"},
	}}
	rc := ToolNameCodec(r, FunctionNames)
	for _, n := range []string{"a.b", "old.tool", "gone.tool"} {
		if w := rc.Wire(n); w == n || rc.Name(w) != n {
			t.Errorf("ToolNameCodec should cover %q, got %q", n, w)
		}
	}
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
