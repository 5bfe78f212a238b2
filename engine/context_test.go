package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// seqRun runs req against a turnSequence playing turns, with the tools of
// req and no built-ins, and returns the requests it saw and the result.
func seqRun(t *testing.T, req engine.Request, turns ...scripted.Turn) (*turnSequence, engine.Result) {
	t.Helper()
	seq := &turnSequence{turns: turns}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"seq": seq}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	req.Provider, req.WorkDir, req.BuiltIns, req.MaxIterations = "seq", t.TempDir(), []string{}, 20
	if req.Messages == nil {
		req.Messages = []engine.Message{engine.UserMessage("gather the data")}
	}
	res, err := rt.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return seq, res
}

// summaries counts the summary requests among reqs.
func summaries(reqs []providers.Request) int {
	n := 0
	for _, r := range reqs {
		if isSummaryRequest(r) {
			n++
		}
	}
	return n
}

func TestContextWindowTable(t *testing.T) {
	cases := []struct {
		model string
		want  int
		known bool
	}{
		{"gpt-4o-2024-08-06", 128_000, true},
		{"GPT-4.1", 1_047_576, true},
		{"openai/gpt-4o-mini", 128_000, true},
		{"gpt-5-mini", 272_000, true},
		{"claude-sonnet-4-5-20250929", 200_000, true},
		{"claude-opus-4-1", 200_000, true},
		{"gemini-1.5-pro-002", 2_097_152, true},
		{"gemini-2.5-flash", 1_048_576, true},
		{"llama3:latest", 8_192, true},
		{"llama3.1:8b", 131_072, true},
		{"house-model", 0, false},
		{"", 0, false},
	}
	for _, tc := range cases {
		got, known := engine.ContextWindow(tc.model)
		if got != tc.want || known != tc.known {
			t.Errorf("ContextWindow(%q): got %d, %v; want %d, %v", tc.model, got, known, tc.want, tc.known)
		}
	}
}

// TestUnknownModelWindow: a model the table does not know works within
// DefaultContextWindow and gets a diagnostic once its conversation is
// half of it; a configured window or a known model needs neither.
func TestUnknownModelWindow(t *testing.T) {
	cases := []struct {
		name      string
		model     string
		window    int
		history   []engine.Message
		compacted bool
		diagnosed bool
	}{
		{"unknown, small", "house-model", 0, conversation(1, 4_000), false, false},
		{"unknown, over half the default", "house-model", 0, conversation(3, 12_000), false, true},
		{"unknown, over 85% of the default", "house-model", 0, conversation(4, 15_000), true, true},
		{"unknown with a configured window", "house-model", 200_000, conversation(4, 15_000), false, false},
		{"known", "gpt-4o", 0, conversation(4, 15_000), false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seq, res := seqRun(t, engine.Request{Model: tc.model, ContextWindow: tc.window, Messages: tc.history}, answer("done"))
			if res.Status != engine.StatusCompleted {
				t.Fatalf("got %s %+v, want completed", res.Status, res.Error)
			}
			diagnosed := false
			for _, d := range res.Diagnostics {
				diagnosed = diagnosed || d.Source == "context_window" && strings.Contains(d.Message, tc.model) && strings.Contains(d.Message, "context_window")
			}
			if got := summaries(seq.reqs) > 0; got != tc.compacted || diagnosed != tc.diagnosed {
				t.Errorf("got compacted %v, diagnosed %v (%+v); want %v, %v", got, diagnosed, res.Diagnostics, tc.compacted, tc.diagnosed)
			}
		})
	}
}

// TestAccountingUsesProviderCounts: the size of the next request is the
// provider's count of the last one plus an estimate of what was added
// since, so a count the text alone does not explain triggers compaction.
func TestAccountingUsesProviderCounts(t *testing.T) {
	// Two results of about 2,000 tokens: about 4,500 tokens by estimate,
	// under 85% of the 10,000-token window.
	cases := []struct {
		counted   int // input tokens the provider reports for the second call
		compacted bool
	}{
		{0, false},
		{5_000, false},
		{7_000, true}, // under the threshold, but not with the result added
		{8_000, true},
	}
	for _, tc := range cases {
		second := bigCall(2)
		if tc.counted > 0 {
			second.Usage = &providers.Usage{InputTokens: tc.counted, OutputTokens: 10}
		}
		seq, res := seqRun(t, engine.Request{Model: "m", ContextWindow: 10_000, Tools: []engine.Tool{bigTool(8_000)}},
			bigCall(1), second, answer("done"))
		if res.Status != engine.StatusCompleted {
			t.Fatalf("counted %d: got %s %+v", tc.counted, res.Status, res.Error)
		}
		if got := summaries(seq.reqs) > 0; got != tc.compacted {
			t.Errorf("provider counted %d: got compacted %v, want %v", tc.counted, got, tc.compacted)
		}
	}
}

// TestCompactionKeepsTheNewestTurn: the newest turn reaches the model
// verbatim even over the keep budget (up to half the window); the summary
// is always user text, and no request ends with an assistant message.
func TestCompactionKeepsTheNewestTurn(t *testing.T) {
	long := "the latest question " + strings.Repeat("y", 3_000)
	cases := []struct {
		name     string
		result   int // bytes each tool call returns
		history  []engine.Message
		turns    []scripted.Turn
		lastRole providers.Role // of the first request after the summary
		lastLen  int            // its text length at least
	}{
		{"a result over the keep budget", 3_200, nil, []scripted.Turn{bigCall(1), bigCall(2), answer("done")}, providers.RoleTool, 3_200},
		{"a result over half the window", 6_000, nil, []scripted.Turn{bigCall(1), answer("done")}, providers.RoleUser, 0},
		{"a long latest question", 100, append(conversation(2, 2_000)[1:], engine.UserMessage(long)), []scripted.Turn{answer("done")}, providers.RoleUser, len(long)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// 2,000 tokens: compaction keeps about 666 tokens, and a newest
			// turn of up to 1,000.
			req := engine.Request{Model: "m", ContextWindow: 2_000, Tools: []engine.Tool{bigTool(tc.result)}}
			if tc.history != nil {
				req.Messages = tc.history
			}
			seq, res := seqRun(t, req, tc.turns...)
			if res.Status != engine.StatusCompleted || summaries(seq.reqs) == 0 {
				t.Fatalf("got %s (%+v) after %d summaries, want completed after a compaction", res.Status, res.Error, summaries(seq.reqs))
			}
			after := -1
			for i, r := range seq.reqs {
				if isSummaryRequest(r) {
					if after < 0 {
						after = i + 1
					}
					continue
				}
				for _, m := range r.Messages {
					if strings.HasPrefix(m.Text(), "[Summary of the earlier part") && m.Role != providers.RoleUser {
						t.Errorf("request %d: the summary is a %s message, want user", i+1, m.Role)
					}
				}
				if last := r.Messages[len(r.Messages)-1]; last.Role == providers.RoleAssistant {
					t.Errorf("request %d ends with an assistant message: %.80q", i+1, last.Text())
				}
			}
			last := seq.reqs[after].Messages[len(seq.reqs[after].Messages)-1]
			if last.Role != tc.lastRole || len(last.Text()) < tc.lastLen {
				t.Errorf("after the compaction the request ends with a %s message of %d bytes, want %s of at least %d",
					last.Role, len(last.Text()), tc.lastRole, tc.lastLen)
			}
			assertReplayable(t, res.Messages, nil)
		})
	}
}

// TestTooLongRefusals: each model call the provider refuses as too long
// is compacted and sent again once; a refusal that compaction cannot
// answer fails the run saying why and what to do.
func TestTooLongRefusals(t *testing.T) {
	refuse := scripted.Turn{Error: &scripted.TurnError{Status: 400, Message: "This model's maximum context length is 8192 tokens"}}
	cases := []struct {
		name       string
		compaction engine.Compaction
		turns      []scripted.Turn
		status     engine.Status
		summaries  int
		message    string
	}{
		{"refused at two calls", engine.Compaction{}, []scripted.Turn{bigCall(1), bigCall(2), refuse, bigCall(3), refuse, answer("done")}, engine.StatusCompleted, 2, ""},
		{"refused twice in a row", engine.Compaction{}, []scripted.Turn{bigCall(1), bigCall(2), refuse, refuse}, engine.StatusFailed, 1, "even after compaction"},
		{"nothing to compact", engine.Compaction{}, []scripted.Turn{refuse}, engine.StatusFailed, 0, "could not be compacted"},
		{"compaction off", engine.Compaction{Disabled: true}, []scripted.Turn{bigCall(1), bigCall(2), refuse}, engine.StatusFailed, 0, "compaction is off"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seq, res := seqRun(t, engine.Request{Model: "m", ContextWindow: 1_000_000, Compaction: tc.compaction, Tools: []engine.Tool{bigTool(2_000)}}, tc.turns...)
			msg := ""
			if res.Error != nil {
				msg = res.Error.Message
			}
			if res.Status != tc.status || summaries(seq.reqs) != tc.summaries || !strings.Contains(msg, tc.message) {
				t.Errorf("got %s after %d summaries, %q; want %s after %d, %q", res.Status, summaries(seq.reqs), msg, tc.status, tc.summaries, tc.message)
			}
			if tc.status == engine.StatusFailed && !strings.Contains(msg, "start a new session") {
				t.Errorf("the failure should say what to do: %q", msg)
			}
		})
	}
}

// TestMidRunDiagnosticIsAWarning: a diagnostic found during the run (here
// the unknown window, once it matters) is also a warning event, so a host
// that showed the diagnostics before the run shows this one as it comes.
func TestMidRunDiagnosticIsAWarning(t *testing.T) {
	seq := &turnSequence{turns: []scripted.Turn{answer("done")}}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"seq": seq}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	req := engine.Request{Provider: "seq", Model: "house-model", WorkDir: t.TempDir(), BuiltIns: []string{}, Messages: conversation(3, 12_000)}
	var warned []string
	res, err := rt.CompleteWith(context.Background(), req, func(ev engine.Event) {
		if ev.Type == engine.EventWarning && ev.Warning.Code == engine.WarningDiagnostic {
			warned = append(warned, ev.Warning.Message)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 1 || len(warned) != 1 || !strings.HasPrefix(warned[0], "context_window: ") || !strings.Contains(warned[0], "house-model") {
		t.Fatalf("want the diagnostic once as a warning event: diagnostics %+v, warnings %q", res.Diagnostics, warned)
	}
}

// TestDiagnosticsStartTheRun: the diagnostics found preparing a run (the
// host's, a tool source's) are warning events right after run_start, so
// a stream-json reader learns of them before the first model call.
func TestDiagnosticsStartTheRun(t *testing.T) {
	seq := &turnSequence{turns: []scripted.Turn{answer("done")}}
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"seq": seq}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	req := engine.Request{Provider: "seq", Model: "gpt-4o", WorkDir: t.TempDir(), BuiltIns: []string{},
		Messages: []engine.Message{engine.UserMessage("hi")}, Diagnostics: []engine.Diagnostic{{Source: "config", Message: `unknown key "modle"`}}}
	var types []string
	if _, err := rt.CompleteWith(context.Background(), req, func(ev engine.Event) {
		s := string(ev.Type)
		if ev.Warning != nil {
			s += ":" + ev.Warning.Message
		}
		types = append(types, s)
	}); err != nil {
		t.Fatal(err)
	}
	if len(types) < 3 || types[0] != "run_start" || types[1] != `warning:config: unknown key "modle"` || types[2] != "model_start" {
		t.Fatalf("events %q, want run_start, the diagnostic, then model_start", types)
	}
}
