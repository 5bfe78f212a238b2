package host_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// fixture is a runtime over a scripted model, a workspace and a store.
type fixture struct {
	rt    *engine.Runtime
	store *session.Store
	work  string
}

func newFixture(t *testing.T, script string) *fixture {
	t.Helper()
	s, err := scripted.Parse([]byte(script), "test")
	if err != nil {
		t.Fatal(err)
	}
	p := scripted.New()
	p.Register("m", s)
	rt, err := engine.New(engine.Config{Adapters: []providers.Provider{p}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return &fixture{rt: rt, store: &session.Store{Dir: t.TempDir()}, work: t.TempDir()}
}

func (f *fixture) request(mode engine.Mode) engine.Request {
	return engine.Request{Provider: "scripted", Model: "m", WorkDir: f.work, BuiltIns: engine.AllBuiltIns(),
		Permission: engine.Permission{Mode: mode}}
}

// events collects a turn's events.
type events struct {
	mu  sync.Mutex
	evs []engine.Event
}

func (e *events) sink(ev engine.Event) { e.mu.Lock(); e.evs = append(e.evs, ev); e.mu.Unlock() }

func (e *events) types() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.evs {
		s := string(ev.Type)
		if ev.Warning != nil {
			s += ":" + ev.Warning.Code
		}
		out = append(out, s)
	}
	return out
}

func prompt(text string) *engine.Message {
	m := providers.TextMessage(providers.RoleUser, text)
	return &m
}

// approverFunc counts its calls and answers with d.
type countingApprover struct {
	mu sync.Mutex
	n  int
	d  engine.Decision
	e  error
}

func (a *countingApprover) Approve(context.Context, engine.PermissionRequest) (engine.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	return a.d, a.e
}

const twoWrites = `{"turns":[
 {"tool_calls":[{"name":"write_file","arguments":{"path":"out/a.txt","content":"a"}}],"usage":{"input_tokens":100,"output_tokens":10}},
 {"tool_calls":[{"name":"final_answer","arguments":{"answer":"wrote a"}}],"usage":{"input_tokens":120,"output_tokens":10}},
 {"tool_calls":[{"name":"write_file","arguments":{"path":"out/b.txt","content":"b"}}],"usage":{"input_tokens":200,"output_tokens":10}},
 {"tool_calls":[{"name":"final_answer","arguments":{"answer":"wrote b"}}],"usage":{"input_tokens":220,"output_tokens":10}}]}`

// TestTurnsShareTheSessionAndRules: two turns are one conversation in one
// session that starts with the system prompt; "allow always" in the first
// turn covers the second; usage adds up.
func TestTurnsShareTheSessionAndRules(t *testing.T) {
	f := newFixture(t, twoWrites)
	c, err := host.Open(host.Options{Store: f.store, System: "be brief", Describe: func() session.Meta { return session.Meta{Provider: "scripted", Model: "m"} }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ap := &countingApprover{d: engine.Decision{Action: engine.AllowAlways, Rule: "write_file(path=out/**)"}}
	for _, p := range []string{"write a", "now write b"} {
		out, err := c.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAsk), Prompt: prompt(p), Approver: ap})
		if err != nil || out.Status != engine.StatusCompleted {
			t.Fatalf("turn %q: %v %s", p, err, out.Status)
		}
	}
	if ap.n != 1 {
		t.Errorf("asked %d times; allow always should cover the second turn", ap.n)
	}
	if got := c.Usage(); got.InputTokens != 100+120+200+220 {
		t.Errorf("usage %+v, want the four calls summed", got)
	}
	sess, err := f.store.Load(c.ID())
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range sess.Messages {
		if m.Role == engine.RoleUser || m.Role == engine.RoleSystem {
			texts = append(texts, m.Text())
		}
	}
	if strings.Join(texts, "|") != "be brief|write a|now write b" || sess.Meta.Title != "write a" {
		t.Errorf("session messages %q titled %q", texts, sess.Meta.Title)
	}
	if got := c.Messages(); len(got) != len(sess.Messages) {
		t.Errorf("the conversation holds %d messages, the session %d", len(got), len(sess.Messages))
	}
}

const askThenFail = `{"turns":[
 {"tool_calls":[{"name":"ask_user_input","arguments":{"questions":[{"id":"lang","header":"Language","question":"Which?","options":[{"id":"en","label":"English"},{"id":"fr","label":"French"}]}]}}]},
 {"error":{"status":400,"message":"bad request"}},
 {"tool_calls":[{"name":"final_answer","arguments":{"answer":"bonjour"}}]}]}`

// TestAnswersAreHeldUntilProgress: a paused turn leaves its question
// pending; answers given to a run that fails before the model replies are
// not written, so the session still waits on them, and the conversation
// says so as a note before the terminal event; the next attempt writes
// them once the model replies.
func TestAnswersAreHeldUntilProgress(t *testing.T) {
	f := newFixture(t, askThenFail)
	c, err := host.Open(host.Options{Store: f.store})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto), Prompt: prompt("greet")})
	if err != nil || out.Status != engine.StatusToolCalls || len(c.Pending()) != 1 {
		t.Fatalf("got %v %s with %d pending, want a pause on one question", err, out.Status, len(c.Pending()))
	}
	c.Close()

	resume := func() (*host.Conversation, *session.Session) {
		sess, err := f.store.Load(c.ID())
		if err != nil {
			t.Fatal(err)
		}
		rc, err := host.Open(host.Options{Store: f.store, Resume: sess})
		if err != nil {
			t.Fatal(err)
		}
		return rc, sess
	}
	rc, sess := resume()
	if len(rc.Pending()) != 1 {
		t.Fatalf("the resumed conversation waits on %d calls, want 1", len(rc.Pending()))
	}
	answer := providers.ToolResultMessage(sess.Pending[0], `{"answers":{"lang":"fr"}}`, false)
	var evs events
	req := f.request(engine.ModeAuto)
	req.MaxIterations = 1
	out, err = rc.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: req, Answers: []engine.Message{answer}, Events: evs.sink})
	if err != nil || out.Status == engine.StatusCompleted {
		t.Fatalf("got %v %s, want the provider's failure", err, out.Status)
	}
	types := evs.types()
	if len(types) < 3 || types[0] != "run_start" || types[len(types)-2] != "warning:"+host.NoteCode || !evs.evs[len(types)-1].Type.Terminal() {
		t.Errorf("events %v: want run_start first, the note, then the terminal event", types)
	}
	rc.Close()

	rc, _ = resume()
	if len(rc.Pending()) != 1 {
		t.Fatalf("after the failed attempt the session waits on %d calls, want the question still pending", len(rc.Pending()))
	}
	out, err = rc.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto), Answers: []engine.Message{answer}})
	if err != nil || out.Status != engine.StatusCompleted || out.Output != "bonjour" {
		t.Fatalf("got %v %s %q, want the run completed", err, out.Status, out.Output)
	}
	rc.Close()
	rc, _ = resume()
	if len(rc.Pending()) != 0 {
		t.Errorf("the answered session still waits on %v", rc.Pending())
	}
}

// TestAPersonStopsATurn: an approver that cancels (with the one cancel
// error, any other error, or the Cancel decision) stops the turn with an
// *engine.CancelError cause naming the prompt.
func TestAPersonStopsATurn(t *testing.T) {
	for _, ap := range []*countingApprover{{e: &engine.CancelError{At: "the permission prompt"}}, {e: errors.New("the form was closed")}, {d: engine.Decision{Action: engine.Cancel}}} {
		f := newFixture(t, twoWrites)
		c, err := host.Open(host.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAsk), Prompt: prompt("write"), Approver: ap})
		var st *engine.CancelError
		if err != nil || out.Status != engine.StatusCancelled || !errors.As(out.Cause, &st) || st.At != "the permission prompt" {
			t.Errorf("approver %+v: got %v %s cause %v, want cancelled at the permission prompt", ap, err, out.Status, out.Cause)
		}
		if _, err := os.Stat(filepath.Join(f.work, "out", "a.txt")); err == nil {
			t.Error("the write ran although the person stopped it")
		}
		c.Close()
	}
}

// askerFunc answers questions with fn.
type askerFunc func(context.Context, engine.Question) (tools.Answer, error)

func (f askerFunc) Ask(ctx context.Context, q engine.Question) (tools.Answer, error) {
	return f(ctx, q)
}

// TestAQuestionStopsATurn: a person who cancels a question stops the
// turn there.
func TestAQuestionStopsATurn(t *testing.T) {
	f := newFixture(t, askThenFail)
	c, _ := host.Open(host.Options{})
	defer c.Close()
	out, err := c.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto), Prompt: prompt("greet"),
		Asker: askerFunc(func(context.Context, engine.Question) (tools.Answer, error) {
			return tools.Answer{}, &engine.CancelError{At: "a question"}
		})})
	var st *engine.CancelError
	if err != nil || out.Status != engine.StatusCancelled || !errors.As(out.Cause, &st) || st.At != "a question" {
		t.Errorf("got %v %s cause %v, want cancelled at a question", err, out.Status, out.Cause)
	}
}

// TestUnsavedConversationSaysSo: a store that cannot be written is a note
// after run_start, and the turn goes on unsaved.
func TestUnsavedConversationSaysSo(t *testing.T) {
	f := newFixture(t, `{"turns":[{"tool_calls":[{"name":"final_answer","arguments":{"answer":"ok"}}]}]}`)
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	c, _ := host.Open(host.Options{Store: &session.Store{Dir: filepath.Join(blocker, "sessions")}})
	defer c.Close()
	var evs events
	out, err := c.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto), Prompt: prompt("hi"), Events: evs.sink})
	if err != nil || out.Status != engine.StatusCompleted || c.Resumable() != "" {
		t.Fatalf("got %v %s resumable %q, want completed and unsaved", err, out.Status, c.Resumable())
	}
	types := evs.types()
	if len(types) < 2 || types[0] != "run_start" || types[1] != "warning:"+host.NoteCode {
		t.Errorf("events %v: want the note right after run_start", types)
	}
	empty, _ := host.Open(host.Options{})
	defer empty.Close()
	if _, err := empty.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto)}); !errors.Is(err, host.ErrNothingToRun) {
		t.Errorf("an empty turn of an empty conversation: got %v, want ErrNothingToRun", err)
	}
}

// refusingBackend is a session backend that cannot create sessions.
type refusingBackend struct{ session.Backend }

func (refusingBackend) CreateContext(context.Context, session.Meta) (*session.Writer, error) {
	return nil, errors.New("database is read-only")
}

// TestConversationOnABackend: a conversation saved in any session backend
// is saved there, not in Store, and one that cannot be written is a note.
func TestConversationOnABackend(t *testing.T) {
	f := newFixture(t, `{"turns":[{"tool_calls":[{"name":"final_answer","arguments":{"answer":"ok"}}]}]}`)
	other := &session.Store{Dir: t.TempDir()}
	c, _ := host.Open(host.Options{Store: f.store, Backend: other})
	out, err := c.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto), Prompt: prompt("hi")})
	c.Close()
	if err != nil || out.Status != engine.StatusCompleted || c.Resumable() == "" {
		t.Fatalf("got %v %s resumable %q, want completed and saved", err, out.Status, c.Resumable())
	}
	if _, err := other.LoadContext(context.Background(), c.ID()); err != nil {
		t.Errorf("the backend does not hold the session: %v", err)
	}
	if l, _ := f.store.List(); len(l) != 0 {
		t.Errorf("Store holds %d sessions, want none: Backend takes its place", len(l))
	}

	f = newFixture(t, `{"turns":[{"tool_calls":[{"name":"final_answer","arguments":{"answer":"ok"}}]}]}`)
	c, _ = host.Open(host.Options{Backend: refusingBackend{other}})
	defer c.Close()
	var evs events
	if _, err := c.Turn(context.Background(), host.Turn{Runtime: f.rt, Request: f.request(engine.ModeAuto), Prompt: prompt("hi"), Events: evs.sink}); err != nil || c.Resumable() != "" {
		t.Fatalf("got %v, resumable %q; want the turn run unsaved", err, c.Resumable())
	}
	if types := evs.types(); len(types) < 2 || types[1] != "warning:"+host.NoteCode {
		t.Errorf("events %v: want the note right after run_start", types)
	}
}
