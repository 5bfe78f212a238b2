package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/engine/trace"
	"github.com/llmrt/llmrt/providers"
)

// NoteCode is the warning code of what a conversation says about its
// records (a session that cannot be written, questions left pending).
const NoteCode = "llmrt"

// Options configure a conversation for its whole life.
type Options struct {
	// Store is where the conversation is saved; nil keeps it unsaved.
	Store *session.Store
	// Backend, when set, is where the conversation is saved instead of
	// Store: any session backend, such as a SQL database a service
	// shares (engine/session/sqlstore). The backend redacts with its own
	// settings; Redact below still covers the trace.
	Backend session.Backend
	// Resume is a saved conversation to continue; nil starts a new one.
	Resume *session.Session
	// Describe describes a new session when its first turn creates it
	// (settings may change before then); an empty Title is taken from the
	// turn. nil describes it by its title alone.
	Describe func() session.Meta
	// System is the system prompt a new conversation starts with.
	System string
	// TracePath, when set, is the file every turn's events are traced to.
	TracePath string
	// Redact rewrites every line written to the session and the trace, to
	// keep secrets out of them.
	Redact func([]byte) []byte
	// RedactStream, when set, rewrites the events the trace records
	// before Redact sees their lines (trace.Writer.RedactStream): a
	// streaming redactor, so no run of deltas spells a secret.
	RedactStream func(ev engine.Event, write func(engine.Event))
	// Timeout bounds each turn; zero means no limit.
	Timeout time.Duration
}

// Conversation is one conversation with the agent, turn after turn. Its
// methods may be called from any goroutine; turns run one at a time.
type Conversation struct {
	opts Options

	// turn is held by a turn from start to end, so turns and Compact run
	// one at a time and Close waits for the last.
	turn sync.Mutex
	// mu guards the fields below, which a turn updates when it ends and
	// the accessors read at any time.
	mu      sync.Mutex
	msgs    []engine.Message
	pending []engine.ToolCall // calls the conversation waits on
	usage   engine.Usage
	rec     *recorder // nil until the first turn opens the session
	tr      *trace.Writer
	closed  bool
	// allowed holds the rules a person allowed "always": they hold for
	// every later call of the conversation.
	allowed allowed
}

// Open starts a conversation, new or resumed. Nothing is written to the
// session before its first turn; the trace, if asked for, is created now,
// so a path that cannot be written fails before any work.
func Open(o Options) (*Conversation, error) {
	c := &Conversation{opts: o}
	if o.Resume != nil {
		c.msgs = append([]engine.Message(nil), o.Resume.Messages...)
		c.pending = o.Resume.Pending
	}
	if o.TracePath != "" {
		tr, err := trace.Create(o.TracePath)
		if err != nil {
			return nil, fmt.Errorf("trace: %w", err)
		}
		tr.Redact, tr.RedactStream = o.Redact, o.RedactStream
		c.tr = tr
	}
	return c, nil
}

// Turn is one turn of a conversation: what to run it on, what the person
// adds, and who answers the run's questions and approvals.
type Turn struct {
	Runtime *engine.Runtime
	// Request configures the run; its Messages are replaced by the
	// conversation's with Answers and Prompt added.
	Request engine.Request
	// Answers are the results of the calls the conversation waits on
	// (Pending). They are written once the run makes progress, so a turn
	// that fails before the model replies leaves them pending.
	Answers []engine.Message
	// Prompt is the person's message, if any.
	Prompt *engine.Message
	// Title names a new session; empty takes the prompt's text.
	Title string
	// Events receives every event of the turn, and the conversation's
	// notes as warning events. It is called from the run's goroutines,
	// one event at a time.
	Events engine.Sink
	// Approver decides the calls that need permission; Asker answers
	// ask_user_input. Either may be nil (see engine.Request). An error
	// from either, or a Cancel decision, stops the turn: the Outcome's
	// Cause is then a *Stopped.
	Approver engine.Approver
	Asker    engine.Asker
}

// Outcome is how a turn ended.
type Outcome struct {
	engine.Result
	// Cause is why the turn's context ended (an *engine.CancelError, a
	// deadline, the caller's cancellation cause); nil when it did not.
	Cause error
}

// ErrNothingToRun is returned by a turn that adds nothing to an empty
// conversation. A turn that adds nothing to one with messages goes on
// from where it stopped (an interrupted run).
var ErrNothingToRun = errors.New("nothing to run: give a prompt")

var errClosed = errors.New("the conversation is closed")

// Turn runs one turn to its terminal event: answers and prompt are
// appended (neither goes on from where the conversation stopped), the
// session is opened on the first turn, and the loop runs with the rules
// allowed so far.
func (c *Conversation) Turn(ctx context.Context, t Turn) (Outcome, error) {
	c.turn.Lock()
	defer c.turn.Unlock()
	var fresh []engine.Message
	fresh = append(fresh, t.Answers...)
	if t.Prompt != nil {
		fresh = append(fresh, *t.Prompt)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return Outcome{}, errClosed
	}
	if len(fresh) == 0 && len(c.msgs) == 0 {
		c.mu.Unlock()
		return Outcome{}, ErrNothingToRun
	}
	if len(fresh) == 0 && endsInterrupted(c.msgs) {
		// Going on from an interrupted reply is the person's turn: the
		// model is asked to, rather than left to continue its own text.
		fresh = append(fresh, providers.TextMessage(providers.RoleUser, goOn))
	}
	c.open(ctx, t.Title, t.Prompt)
	if len(t.Answers) > 0 && len(c.pending) > 0 {
		c.rec.hold(fresh...)
	} else {
		c.rec.add(fresh...)
	}
	c.msgs = append(c.msgs, fresh...)
	req := t.Request
	req.Messages = append([]engine.Message(nil), c.msgs...)
	c.mu.Unlock()

	if c.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.Timeout)
		defer cancel()
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	req.Permission.Rules = c.allowed.with(req.Permission.Rules)
	req.Permission.Approver = c.approver(t.Approver, stop)
	req.Asker = asker(t.Asker, stop)
	res, err := t.Runtime.CompleteWith(ctx, req, c.sink(t.Events))
	out := Outcome{Result: res}
	if ctx.Err() != nil {
		out.Cause = context.Cause(ctx)
	}
	if err != nil {
		return out, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(res.Messages) > 0 {
		c.msgs = res.Messages
	}
	c.pending = nil
	if res.Status == engine.StatusToolCalls {
		c.pending = res.PendingCalls
	}
	c.usage = c.usage.Add(res.Usage)
	return out, nil
}

// goOn is the person's message when a turn goes on from an interrupted
// reply without a prompt.
const goOn = "Go on from where you were interrupted."

// endsInterrupted reports whether a conversation ends with a reply its
// run's cancellation cut short.
func endsInterrupted(msgs []engine.Message) bool {
	n := len(msgs)
	return n > 0 && msgs[n-1].Role == providers.RoleAssistant && msgs[n-1].Interrupted
}

// open opens the session on the first turn: the one resumed, or a new one
// titled by the first prompt with the system prompt first. A session that
// cannot be written is a note, and the conversation goes on unsaved.
// c.mu is held.
func (c *Conversation) open(ctx context.Context, title string, prompt *engine.Message) {
	if c.rec != nil {
		return
	}
	c.rec = &recorder{tr: c.tr}
	st := c.opts.Store
	b := c.opts.Backend
	switch {
	case b != nil:
	case st == nil:
		return
	case st.Dir == "":
		c.rec.note("no home directory, so this conversation is not saved (set HOME or XDG_STATE_HOME)")
		return
	default:
		s := *st
		s.Redact = c.opts.Redact
		b = &s
	}
	var err error
	if c.opts.Resume != nil {
		c.rec.w, err = b.AppendContext(ctx, c.opts.Resume.Meta.ID)
	} else {
		var meta session.Meta
		if c.opts.Describe != nil {
			meta = c.opts.Describe()
		}
		if meta.Title == "" {
			meta.Title = title
		}
		if meta.Title == "" && prompt != nil {
			meta.Title = prompt.Text()
		}
		c.rec.w, err = b.CreateContext(ctx, meta)
	}
	switch {
	case err != nil && c.opts.Backend != nil:
		c.rec.w = nil
		c.rec.note(fmt.Sprintf("this conversation is not saved: %v", err))
		return
	case err != nil:
		c.rec.w = nil
		c.rec.note(fmt.Sprintf("this conversation is not saved: %v (make sure %s can be created and written, or set XDG_STATE_HOME to a directory you own)", err, st.Dir))
		return
	}
	c.rec.id = c.rec.w.ID()
	if c.opts.Resume == nil && strings.TrimSpace(c.opts.System) != "" {
		sys := providers.TextMessage(providers.RoleSystem, c.opts.System)
		c.rec.add(sys)
		c.msgs = append([]engine.Message{sys}, c.msgs...)
	}
}

// sink records every event, then hands it to events with the notes the
// records queued. Notes wait for the run's start, so a stream reader sees
// run_start first and the terminal event last.
func (c *Conversation) sink(events engine.Sink) engine.Sink {
	started := false
	return func(ev engine.Event) {
		c.rec.event(ev)
		top := ev.ParentID == ""
		if top && ev.Type.Terminal() {
			c.flush(ev, events)
		}
		if events != nil {
			events(ev)
		}
		if top && ev.Type == engine.EventRunStart {
			started = true
		}
		if started && !ev.Type.Terminal() {
			c.flush(ev, events)
		}
	}
}

// flush hands the queued notes to events as warnings of the run of ev.
func (c *Conversation) flush(ev engine.Event, events engine.Sink) {
	for _, n := range c.rec.takeNotes() {
		if events != nil {
			events(engine.Event{Type: engine.EventWarning, RunID: ev.RunID, Time: time.Now(),
				Warning: &engine.Warning{Code: NoteCode, Message: n}})
		}
	}
}

// Messages returns the conversation so far.
func (c *Conversation) Messages() []engine.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]engine.Message(nil), c.msgs...)
}

// Pending returns the calls the conversation waits on: the questions of
// a paused run, answered by the next turn's Answers.
func (c *Conversation) Pending() []engine.ToolCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending
}

// Usage returns the tokens the conversation's turns used.
func (c *Conversation) Usage() engine.Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.usage
}

// ID returns the session id: the resumed one, or the new one once the
// first turn opened it; "" when the conversation is not saved.
func (c *Conversation) ID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rec != nil {
		return c.rec.id
	}
	if c.opts.Resume != nil {
		return c.opts.Resume.Meta.ID
	}
	return ""
}

// Resumable returns the session id when the whole conversation is on
// disk, "" when it is not saved or a write failed.
func (c *Conversation) Resumable() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rec == nil {
		return ""
	}
	return c.rec.resumable()
}

// Compact summarises the conversation to free context now, as the loop
// does by itself near the window's end; the compaction is recorded and
// its events go to events. engine.ErrNothingToCompact says there is
// nothing before the latest turn to summarise.
func (c *Conversation) Compact(ctx context.Context, rt *engine.Runtime, req engine.Request, focus string, events engine.Sink) (engine.Result, error) {
	c.turn.Lock()
	defer c.turn.Unlock()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return engine.Result{}, errClosed
	}
	c.open(ctx, "compacted conversation", nil)
	req.Messages = append([]engine.Message(nil), c.msgs...)
	c.mu.Unlock()
	res, err := rt.Compact(ctx, req, focus, c.sink(events))
	c.mu.Lock()
	defer c.mu.Unlock()
	c.usage = c.usage.Add(res.Usage)
	if err == nil {
		c.msgs = res.Messages
	}
	return res, err
}

// Close waits for the running turn and closes the session and the trace.
// It may be called more than once.
func (c *Conversation) Close() {
	c.turn.Lock()
	defer c.turn.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	switch {
	case c.rec != nil:
		c.rec.close()
	case c.tr != nil:
		_ = c.tr.Close()
	}
}
