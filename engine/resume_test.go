package engine_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// process is one process of a resume test: its own runtime and provider
// over the session directory every process shares.
type process struct {
	rt    *engine.Runtime
	rec   *recorder
	store *session.Store
	cps   *session.Checkpoints
}

func newProcess(t *testing.T, dir string, interrupt engine.InterruptMode, turns ...scripted.Turn) *process {
	t.Helper()
	sp := scripted.New()
	sp.Register("test", &scripted.Script{Turns: turns})
	p := &process{rec: &recorder{p: sp}, store: &session.Store{Dir: dir}}
	p.cps = session.NewCheckpoints(p.store)
	rt, err := engine.New(engine.Config{
		Providers:   map[string]providers.Provider{"fake": p.rec},
		Defaults:    engine.Defaults{Provider: "fake", Model: "test"},
		Checkpoints: p.cps,
		Interrupt:   interrupt,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	p.rt = rt
	return p
}

// pause runs a request that selects ask_user_input and checks that it
// paused with a token.
func (p *process) pause(t *testing.T, prompt string) engine.Result {
	t.Helper()
	res, err := p.rt.Complete(context.Background(), engine.Request{
		BuiltIns: []string{engine.AskUserTool},
		Messages: []engine.Message{engine.UserMessage(prompt)},
	})
	if err != nil || res.Status != engine.StatusToolCalls || res.Token == "" {
		t.Fatalf("Complete: got %s, token %q, error %v %v; want a paused run with a token", res.Status, res.Token, err, res.Error)
	}
	return res
}

func goAnswer(t *testing.T, res engine.Result) []engine.Message {
	t.Helper()
	m, err := engine.AnswerMessage(res.PendingCalls[0], tools.Answer{Selected: map[string][]string{"lang": {"go"}}})
	if err != nil {
		t.Fatal(err)
	}
	return []engine.Message{m}
}

var askLang = call("ask_user_input", langAsk)

// TestResumeByToken: a run paused in one process is resumed by token in
// another sharing the store, completes, and the session holds it all.
func TestResumeByToken(t *testing.T) {
	dir := t.TempDir()
	a := newProcess(t, dir, "", askLang)
	var log eventLog
	res, err := a.rt.CompleteWith(context.Background(), engine.Request{
		BuiltIns: []string{engine.AskUserTool},
		Messages: []engine.Message{engine.UserMessage("pick a language")},
	}, log.add)
	if err != nil || res.Token == "" || res.PauseKind != engine.PauseQuestion {
		t.Fatalf("first run: got token %q, kind %q, error %v; want a token and kind question", res.Token, res.PauseKind, err)
	}
	if last := log.evs[len(log.evs)-1]; last.Type != engine.EventToolCalls || last.Result.Token != res.Token || last.Result.PauseKind != engine.PauseQuestion {
		t.Errorf("terminal event: got %s with %+v, want tool_calls carrying the token and kind", last.Type, last.Result)
	}

	b := newProcess(t, dir, "", askLang, answer("Go it is"))
	cp, err := b.cps.Lookup(context.Background(), res.Token)
	if err != nil || !reflect.DeepEqual(cp.Pending, res.PendingCalls) || cp.Kind != engine.PauseQuestion ||
		!reflect.DeepEqual(cp.BuiltIns, []string{engine.AskUserTool}) || cp.Model != "test" {
		t.Errorf("Lookup: got %+v, %v; want the pause with its calls and settings", cp, err)
	}
	out, err := b.rt.Resume(context.Background(), res.Token, engine.ResumeInput{Answers: goAnswer(t, res)})
	if err != nil || out.Status != engine.StatusCompleted || out.Output != "Go it is" {
		t.Fatalf("Resume: got %s %q, error %v %v; want completed %q", out.Status, out.Output, err, out.Error, "Go it is")
	}
	sent := b.rec.request(0).Messages
	if got := sent[len(sent)-1]; got.Role != engine.RoleTool || !strings.Contains(got.Text(), `"lang":"go"`) {
		t.Errorf("resumed model call ends with %s %q, want the answer", got.Role, got.Text())
	}
	if len(b.rec.request(0).Tools) == 0 {
		t.Error("resumed run offered no tools; want the paused run's built-ins")
	}
	id, _, _ := strings.Cut(res.Token, ".")
	list, err := b.store.List()
	if err != nil || len(list) != 1 || list[0].Status != string(engine.StatusCompleted) {
		t.Fatalf("sessions: got %+v (%v), want one, completed", list, err)
	}
	s, err := b.store.Load(list[0].ID)
	if err != nil || !strings.HasPrefix(s.Meta.ID, id) || len(s.Messages) != len(out.Messages) || s.Meta.Title != "pick a language" {
		t.Errorf("session: got %d messages, title %q (%v); want %d, %q", len(s.Messages), s.Meta.Title, err, len(out.Messages), "pick a language")
	}
	if _, err := b.rt.Resume(context.Background(), res.Token, engine.ResumeInput{Answers: goAnswer(t, res)}); !errors.Is(err, engine.ErrInvalidToken) {
		t.Errorf("second Resume of the same token: got %v, want ErrInvalidToken", err)
	}
	if _, err := b.cps.Lookup(context.Background(), res.Token); !errors.Is(err, engine.ErrInvalidToken) {
		t.Errorf("Lookup of a spent token: got %v, want ErrInvalidToken", err)
	}
}

// TestResumeInvalidToken: unknown, malformed and spent tokens return the
// invalid-token error with a failed Result carrying its diagnostic.
func TestResumeInvalidToken(t *testing.T) {
	p := newProcess(t, t.TempDir(), "")
	for _, token := range []string{"", "nonsense", "20260101-000000-abcdef.0123456789abcdef0123456789abcdef", "../x.0123456789abcdef0123456789abcdef"} {
		res, err := p.rt.Resume(context.Background(), token, engine.ResumeInput{})
		var re *engine.RunError
		if !errors.Is(err, engine.ErrInvalidToken) || !errors.As(err, &re) || re.Code != engine.CodeInvalidToken {
			t.Errorf("Resume(%q): got error %v, want a *RunError with code %s", token, err, engine.CodeInvalidToken)
		}
		if res.Status != engine.StatusFailed || len(res.Diagnostics) != 1 || res.Diagnostics[0].Source != "resume.invalid_token" {
			t.Errorf("Resume(%q): got %s with diagnostics %+v, want failed with a resume.invalid_token diagnostic", token, res.Status, res.Diagnostics)
		}
	}
}

// TestResumeWithoutStore: Resume needs Config.Checkpoints.
func TestResumeWithoutStore(t *testing.T) {
	h := newHarness(t)
	if _, err := h.rt.Resume(context.Background(), "x", engine.ResumeInput{}); !errors.Is(err, engine.ErrInvalidRequest) {
		t.Errorf("Resume without a store: got %v, want ErrInvalidRequest", err)
	}
}

// TestResumeRace: of many resumers of one token at once, one resumes it
// and the others are told it is in use, or spent once it is done.
func TestResumeRace(t *testing.T) {
	dir := t.TempDir()
	res := newProcess(t, dir, "", askLang).pause(t, "pick a language")
	const n = 6
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		p := newProcess(t, dir, "", askLang, answer("Go it is"))
		wg.Go(func() {
			_, errs[i] = p.rt.Resume(context.Background(), res.Token, engine.ResumeInput{Answers: goAnswer(t, res)})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case errors.Is(err, engine.ErrTokenInUse), errors.Is(err, engine.ErrInvalidToken):
		default:
			t.Errorf("Resume: unexpected error %v", err)
		}
	}
	if won != 1 {
		t.Errorf("resumers that went on: got %d (errors %v), want 1", won, errs)
	}
}

// TestResumeWithoutProgress: a resumed run that fails before the model
// replies leaves the pause as it was, and the token resumes it later; a
// claim held elsewhere makes Resume fail with ErrTokenInUse.
func TestResumeWithoutProgress(t *testing.T) {
	dir := t.TempDir()
	res := newProcess(t, dir, "", askLang).pause(t, "pick a language")
	broken := scripted.Turn{Error: &scripted.TurnError{Status: 400, Message: "bad request"}}
	b := newProcess(t, dir, "", askLang, broken)
	out, err := b.rt.Resume(context.Background(), res.Token, engine.ResumeInput{Answers: goAnswer(t, res)})
	if err != nil || out.Status != engine.StatusFailed {
		t.Fatalf("Resume with a failing provider: got %s, error %v; want failed, no error", out.Status, err)
	}
	other := session.NewCheckpoints(&session.Store{Dir: dir})
	if _, err := other.Claim(context.Background(), res.Token); err != nil {
		t.Fatalf("Claim after a failed resume: %v; want the pause still there", err)
	}
	c := newProcess(t, dir, "", askLang, answer("Go it is"))
	if _, err := c.rt.Resume(context.Background(), res.Token, engine.ResumeInput{Answers: goAnswer(t, res)}); !errors.Is(err, engine.ErrTokenInUse) {
		t.Errorf("Resume of a claimed token: got %v, want ErrTokenInUse", err)
	}
	if err := other.Release(context.Background(), res.Token); err != nil {
		t.Fatal(err)
	}
	out, err = c.rt.Resume(context.Background(), res.Token, engine.ResumeInput{Answers: goAnswer(t, res)})
	if err != nil || out.Status != engine.StatusCompleted {
		t.Errorf("Resume after release: got %s, error %v; want completed", out.Status, err)
	}
}

// TestResumeMissingAnswer: answers must cover the pending calls; the
// pause stays.
func TestResumeMissingAnswer(t *testing.T) {
	dir := t.TempDir()
	res := newProcess(t, dir, "", askLang).pause(t, "pick a language")
	b := newProcess(t, dir, "", askLang, answer("Go it is"))
	if _, err := b.rt.Resume(context.Background(), res.Token, engine.ResumeInput{}); !errors.Is(err, engine.ErrInvalidRequest) {
		t.Fatalf("Resume without answers: got %v, want ErrInvalidRequest", err)
	}
	if out, err := b.rt.Resume(context.Background(), res.Token, engine.ResumeInput{Answers: goAnswer(t, res)}); err != nil || out.Status != engine.StatusCompleted {
		t.Errorf("Resume with answers: got %s, %v; want completed", out.Status, err)
	}
}

// TestResumePausesAgain: a resumed run that asks again gets a new token,
// the old one is spent, and the new one goes on in the same session.
func TestResumePausesAgain(t *testing.T) {
	dir := t.TempDir()
	const again = `{"questions":[{"id":"db","header":"DB","question":"Which?","options":[{"id":"pg","label":"Postgres"},{"id":"my","label":"MySQL"}]}]}`
	turns := []scripted.Turn{askLang, call("ask_user_input", again), answer("Go on Postgres")}
	first := newProcess(t, dir, "", turns...).pause(t, "pick a stack")
	second, err := newProcess(t, dir, "", turns...).rt.Resume(context.Background(), first.Token, engine.ResumeInput{Answers: goAnswer(t, first)})
	if err != nil || second.Status != engine.StatusToolCalls || second.Token == "" || second.Token == first.Token {
		t.Fatalf("first Resume: got %s, token %q, error %v; want a new pause with a new token", second.Status, second.Token, err)
	}
	p := newProcess(t, dir, "", turns...)
	if _, err := p.rt.Resume(context.Background(), first.Token, engine.ResumeInput{Answers: goAnswer(t, first)}); !errors.Is(err, engine.ErrInvalidToken) {
		t.Errorf("Resume of the spent token: got %v, want ErrInvalidToken", err)
	}
	pg, err := engine.AnswerMessage(second.PendingCalls[0], tools.Answer{Selected: map[string][]string{"db": {"pg"}}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.rt.Resume(context.Background(), second.Token, engine.ResumeInput{Answers: []engine.Message{pg}})
	if err != nil || out.Output != "Go on Postgres" {
		t.Fatalf("second Resume: got %s %q, error %v", out.Status, out.Output, err)
	}
	list, _ := p.store.List()
	if len(list) != 1 || list[0].Messages != len(out.Messages) {
		t.Errorf("sessions: got %+v, want one holding all %d messages", list, len(out.Messages))
	}
}

// failingAppends is a session backend whose appends fail.
type failingAppends struct{ *session.Store }

func (f failingAppends) AppendContext(context.Context, string) (*session.Writer, error) {
	return nil, errors.New("disk full")
}

// TestResumeSaveFails: a resumed run that pauses again where the store
// cannot keep the pause reports it, has no token, and leaves the old
// pause to be resumed again.
func TestResumeSaveFails(t *testing.T) {
	dir := t.TempDir()
	const again = `{"questions":[{"id":"db","header":"DB","question":"Which?","options":[{"id":"pg","label":"Postgres"},{"id":"my","label":"MySQL"}]}]}`
	turns := []scripted.Turn{askLang, call("ask_user_input", again), answer("Go")}
	first := newProcess(t, dir, "", turns...).pause(t, "pick a stack")

	b := newProcess(t, dir, "", turns...)
	cps := session.NewCheckpoints(failingAppends{b.store})
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"fake": b.rec}, Checkpoints: cps,
		Defaults: engine.Defaults{Provider: "fake", Model: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	out, err := rt.Resume(context.Background(), first.Token, engine.ResumeInput{Answers: goAnswer(t, first)})
	if err != nil || out.Status != engine.StatusToolCalls || out.Token != "" {
		t.Fatalf("Resume: got %s, token %q, error %v; want a pause without a token", out.Status, out.Token, err)
	}
	if len(out.Diagnostics) != 1 || out.Diagnostics[0].Source != "checkpoint" || !strings.Contains(out.Diagnostics[0].Message, "disk full") {
		t.Errorf("diagnostics: got %+v, want the checkpoint failure", out.Diagnostics)
	}
	if _, err := cps.Lookup(context.Background(), first.Token); err != nil {
		t.Errorf("Lookup of the old token: %v; want the pause still there", err)
	}
	c := newProcess(t, dir, "", turns...)
	if again, err := c.rt.Resume(context.Background(), first.Token, engine.ResumeInput{Answers: goAnswer(t, first)}); err != nil || again.Token == "" {
		t.Errorf("Resume again: got %s, token %q, %v; want a new pause with a token", again.Status, again.Token, err)
	}
}
