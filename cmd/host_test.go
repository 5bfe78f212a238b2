package cmd

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// fakePrompts answers every question with its answers in turn, and every
// permission request with decision; abort makes every prompt cancelled,
// as Esc on a form does.
type fakePrompts struct {
	answers  []tools.Answer
	asked    int
	decision engine.Decision
	abort    bool
}

func (p *fakePrompts) Ask(context.Context, tools.AskInput) (tools.Answer, error) {
	if p.abort {
		return tools.Answer{}, &engine.CancelError{At: "a question"}
	}
	a := p.answers[min(p.asked, len(p.answers)-1)]
	p.asked++
	return a, nil
}

func (p *fakePrompts) Permit(context.Context, engine.PermissionRequest) (ui.PermitResult, error) {
	if p.abort {
		return ui.PermitResult{Decision: engine.Decision{Action: engine.Cancel}}, &engine.CancelError{At: "the permission prompt"}
	}
	return ui.PermitResult{Decision: p.decision}, nil
}

const askScript = `{"turns":[
 {"tool_calls":[{"name":"ask_user_input","arguments":{"questions":[{"header":"Language","id":"lang","question":"Which language?",
   "options":[{"id":"en","label":"English"},{"id":"fr","label":"French"}]}]}}],"usage":{"input_tokens":100,"output_tokens":10}},
 {"tool_calls":[{"name":"read_file","arguments":{"path":"notes.txt"}}],"usage":{"input_tokens":150,"output_tokens":10}},
 {"tool_calls":[{"name":"final_answer","arguments":{"answer":"Bonjour"}}],"usage":{"input_tokens":200,"output_tokens":20}}]}`

// testHost builds a host over buffers running the scripted provider in a
// fresh workspace holding notes.txt with the secret in it.
func testHost(t *testing.T, script, secret string) (*cmdHost, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	model := filepath.Join(dir, "script.json")
	os.WriteFile(model, []byte(script), 0o644)
	work := filepath.Join(dir, "work")
	os.MkdirAll(work, 0o755)
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("key="+secret+"\n"), 0o644)
	var errb bytes.Buffer
	o := &IO{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &errb, Width: 80}
	evidence := "evidence"
	s := &settings{cfg: &config.Config{}, provider: "scripted", model: model, workDir: work, finish: engine.FinishEvidence, builtIns: engine.AllBuiltIns(),
		permission: engine.Permission{Mode: engine.ModeAsk}, recorded: config.Layer{Finish: &evidence}}
	secrets := &redactor{}
	secrets.add(secret)
	h := newHost(o, s, &session.Store{Dir: filepath.Join(dir, "sessions")}, secrets)
	return h, &errb
}

// runHost drives one run through the host and a new conversation, as
// run does, with the person behind forms.
func runHost(t *testing.T, h *cmdHost, forms ui.Prompter) (host.Outcome, string) {
	t.Helper()
	rt, err := h.runtime(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	conv, err := h.conversation(nil)
	if err != nil {
		t.Fatal(err)
	}
	var events []engine.EventType
	turn := h.turn(rt, forms, func(ev engine.Event) { events = append(events, ev.Type) })
	user := providers.TextMessage(providers.RoleUser, "greet")
	turn.Prompt = &user
	out, err := conv.Turn(context.Background(), turn)
	conv.Close()
	if err != nil {
		t.Fatal(err)
	}
	terminal := 0
	for _, e := range events {
		if e.Terminal() {
			terminal++
		}
	}
	if terminal != 1 {
		t.Errorf("got %d terminal events, want 1: %v", terminal, events)
	}
	return out, conv.ID()
}

func TestHostAnswersQuestionsInline(t *testing.T) {
	const secret = "sk-test-secret-123"
	h, errb := testHost(t, askScript, secret)
	p := &fakePrompts{answers: []tools.Answer{
		{Selected: map[string][]string{}}, // incomplete: asked again
		{Selected: map[string][]string{"lang": {"fr"}}},
	}}
	res, id := runHost(t, h, p)
	if res.Status != engine.StatusCompleted || res.Iterations != 3 || res.Usage.InputTokens != 450 || res.Cause != nil {
		t.Fatalf("got %s after %d iterations, usage %+v, cause %v; want completed, 3, 450 input", res.Status, res.Iterations, res.Usage, res.Cause)
	}
	if p.asked != 2 || !strings.Contains(errb.String(), "answer again") {
		t.Errorf("the incomplete answer should be asked again: asked %d times, stderr %q", p.asked, errb.String())
	}
	data, err := os.ReadFile(filepath.Join(h.store.Dir, id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"type":"end"`); n != 1 {
		t.Errorf("got %d end lines, want 1", n)
	}
	if strings.Contains(string(data), secret) || !strings.Contains(string(data), redacted) {
		t.Errorf("the session should hold the read result with the key redacted:\n%s", data)
	}
	if !strings.Contains(string(data), `"options":{"finish":"evidence"}`) {
		t.Errorf("the session meta should record the run's options:\n%s", data)
	}
}

func TestHostStopsAtPrompts(t *testing.T) {
	cases := []struct {
		name   string
		script string
		want   string
	}{
		{"question", askScript, "cancelled at a question"},
		{"permission", `{"turns":[{"tool_calls":[{"name":"write_file","arguments":{"path":"x","content":"y"}}]},
			{"tool_calls":[{"name":"final_answer","arguments":{"answer":"done"}}]}]}`, "cancelled at the permission prompt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := testHost(t, tc.script, "sk-unused-secret")
			res, id := runHost(t, h, &fakePrompts{abort: true})
			var stopped *engine.CancelError
			if res.Status != engine.StatusCancelled || !errors.As(res.Cause, &stopped) {
				t.Fatalf("got %s with cause %v, want cancelled by a person", res.Status, res.Cause)
			}
			err := resultError(h.s, res.Result, res.Cause, id)
			code, msg, hint := classify(err)
			if code != exitCancelled || !strings.Contains(msg, tc.want) || !strings.Contains(msg, id) || hint != "resume with: llmrt run --resume "+id {
				t.Errorf("got exit %d %q (hint %q), want 130 %q naming session %s", code, msg, hint, tc.want, id)
			}
		})
	}
}

// TestHostWithoutAPerson: without prompts a question pauses the run and a
// write needing approval is denied.
func TestHostWithoutAPerson(t *testing.T) {
	h, _ := testHost(t, askScript, "sk-unused-secret")
	res, _ := runHost(t, h, nil)
	if res.Status != engine.StatusToolCalls || len(res.PendingCalls) != 1 {
		t.Errorf("got %s with %d pending, want a pause on the question", res.Status, len(res.PendingCalls))
	}
	if err := resultError(h.s, res.Result, nil, "x"); err == nil {
		t.Errorf("a paused run should exit 3")
	} else if code, _, _ := classify(err); code != exitPaused {
		t.Errorf("got exit %d, want %d", code, exitPaused)
	}
}

func TestRedactor(t *testing.T) {
	r := &redactor{}
	r.add("abc", "", "true", "sk-abc-1234567", `quote"in-key-value`)
	cases := []struct{ in, want string }{
		{"key sk-abc-1234567 here", "key [REDACTED] here"},
		{"abc stays, true too", "abc stays, true too"},
		{`{"c":"quote\"in-key-value"}`, `{"c":"[REDACTED]"}`},
		{"nothing", "nothing"},
	}
	for _, tc := range cases {
		if got := r.string(tc.in); got != tc.want {
			t.Errorf("redact(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// diagSource is a tool source with nothing to offer but a problem.
type diagSource struct{}

func (diagSource) Tools(context.Context) ([]tools.Tool, error) { return nil, nil }
func (diagSource) Diagnostics() []tools.Diagnostic {
	return []tools.Diagnostic{{Source: "mcp:files", Message: "did not start"}}
}

// TestStrictReadsEveryDiagnostic: --strict refuses a run on the command's
// own diagnostics and on the runtime's; without it both are warnings and
// both reach Result.Diagnostics.
func TestStrictReadsEveryDiagnostic(t *testing.T) {
	for _, strict := range []bool{true, false} {
		h, errb := testHost(t, `{"turns":[{"tool_calls":[{"name":"final_answer","arguments":{"answer":"ok"}}]}]}`, "sk-unused-secret")
		h.s.strict = strict
		h.s.diagnostics = []string{`config.json: unknown key "modle"`}
		rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"scripted": mustProvider(t, h)}, Sources: []engine.ToolSource{diagSource{}}})
		if err != nil {
			t.Fatal(err)
		}
		err = h.checkStrict(context.Background(), rt, false)
		if strict {
			code, msg, _ := classify(err)
			if code != exitUsage || !strings.Contains(msg, "modle") || !strings.Contains(msg, "mcp:files: did not start") {
				t.Errorf("strict: got exit %d %q, want 2 naming both diagnostics", code, msg)
			}
			continue
		}
		if err != nil || !strings.Contains(errb.String(), "warning: mcp:files: did not start") {
			t.Errorf("got %v and stderr %q, want warnings", err, errb.String())
		}
		req := h.s.request()
		req.Messages = []engine.Message{providers.TextMessage(providers.RoleUser, "x")}
		res, err := rt.Complete(context.Background(), req)
		if got := strings.Join(diagnostics(res), "; "); err != nil || !strings.Contains(got, "modle") || !strings.Contains(got, "mcp:files") {
			t.Errorf("Result.Diagnostics: got %q (%v), want both", got, err)
		}
	}
}

func mustProvider(t *testing.T, h *cmdHost) providers.Provider {
	t.Helper()
	p, err := catalog.New(h.s.provider, h.s.backend)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStoppedMessages: every way of stopping is exit 130 (a timeout is a
// failure, exit 1), says how it stopped and how to resume.
func TestStoppedMessages(t *testing.T) {
	s := &settings{timeout: 2 * time.Second}
	cancelled := engine.Result{Status: engine.StatusCancelled, Error: &engine.RunError{Code: engine.CodeCancelled, Message: "the run was cancelled"}}
	cases := []struct {
		cause error
		id    string
		code  int
		msg   string
		hint  string
	}{
		{errSignal{os.Interrupt}, "S1", exitCancelled, "interrupted (signal: interrupt); session S1 is saved", "resume with: llmrt run --resume S1"},
		{&engine.CancelError{At: "the permission prompt"}, "S1", exitCancelled, "the run was cancelled at the permission prompt; session S1 is saved", "resume with: llmrt run --resume S1"},
		{context.DeadlineExceeded, "S1", exitFailed, "the run timed out after --timeout 2s; session S1 is saved", "resume with: llmrt run --resume S1"},
		{&engine.CancelError{At: "a question"}, "", exitCancelled, "the run was cancelled at a question", "this run was not saved, so it cannot be resumed"},
	}
	for _, tc := range cases {
		code, msg, hint := classify(resultError(s, cancelled, tc.cause, tc.id))
		if code != tc.code || msg != tc.msg || hint != tc.hint {
			t.Errorf("cause %v: got %d %q %q, want %d %q %q", tc.cause, code, msg, hint, tc.code, tc.msg, tc.hint)
		}
	}
	// The other stops a saved run can go on from.
	others := []struct {
		res       engine.Result
		id        string
		code      int
		msg, hint string
	}{
		{engine.Result{Status: engine.StatusMaxIterations, Iterations: 24, Error: &engine.RunError{Code: engine.CodeMaxIterations, Message: "stopped after 24 model calls"}}, "S1",
			exitMaxIterations, "stopped after 24 model calls; session S1 is saved", "continue with: llmrt run --resume S1 --max-iterations 48, or narrow the task"},
		{engine.Result{Status: engine.StatusMaxIterations, Iterations: 24, Error: &engine.RunError{Code: engine.CodeMaxIterations, Message: "stopped after 24 model calls"}}, "",
			exitMaxIterations, "stopped after 24 model calls", "raise the limit with --max-iterations, or narrow the task"},
		{engine.Result{Status: engine.StatusFailed, Error: &engine.RunError{Code: engine.CodeProviderError, Message: "openai: 503 from api.openai.com: overloaded"}}, "S1",
			exitFailed, "openai: 503 from api.openai.com: overloaded; session S1 is saved", "resume with: llmrt run --resume S1"},
		{engine.Result{Status: engine.StatusFailed, Error: &engine.RunError{Code: engine.CodeBlocked, Message: "no access"}}, "S1",
			exitFailed, "blocked: no access", ""},
	}
	for _, tc := range others {
		code, msg, hint := classify(resultError(s, tc.res, nil, tc.id))
		if code != tc.code || msg != tc.msg || hint != tc.hint {
			t.Errorf("%s: got %d %q %q, want %d %q %q", tc.res.Status, code, msg, hint, tc.code, tc.msg, tc.hint)
		}
	}
}

// BenchmarkRedactLine measures the redactor on a typical session line
// with three known keys and none present (the common case).
func BenchmarkRedactLine(b *testing.B) {
	r := &redactor{}
	r.add("sk-proj-aaaaaaaaaaaaaaaaaaaaaaaa", "sk-ant-bbbbbbbbbbbbbbbbbbbbbbbbbbb", "AIzaccccccccccccccccccccccccccccc")
	line := []byte(`{"type":"message","message":{"role":"tool","content":[{"type":"text","text":"` + strings.Repeat("some file content ", 60) + `"}]}}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		r.bytes(line)
	}
}
