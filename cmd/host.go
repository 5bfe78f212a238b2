package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/host"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// cmdHost is what every command that runs the engine puts around it: the
// resolved settings, the session store, the redactor, where warnings go
// and who answers the runs' questions. `run`, `tools call` and `chat`
// share it; a conversation (host.Conversation) holds each session.
type cmdHost struct {
	io *IO
	// errOut is stderr behind the redactor: every warning, progress line
	// and message goes through it (prompts draw on io.ErrOut directly).
	errOut  io.Writer
	s       *settings
	store   *session.Store // nil when runs are not saved
	secrets *redactor
	// forms are the terminal's prompts; nil when no person can answer
	// (no terminal). The chat gives each turn the screen's instead.
	forms ui.Prompter
	// noQuestions keeps ask_user_input from being put to the person even
	// on a terminal (stream-json output: a program reads the events), so
	// the run pauses instead.
	noQuestions bool
	// tell reports a warning or a note: on stderr for run, on the chat's
	// screen for chat.
	tell func(warning bool, msg string)
	// held releases the lock of the resumed session the host's runs
	// append to (see loadSession); nil when it holds none.
	held func()
	// hookStart is the source the SessionStart hooks are told on the
	// next prompt (startup, resume, clear); "" once told.
	hookStart string
	// quietStarts keeps MCP servers' start and readiness unsaid (the
	// chat); a restart is still said.
	quietStarts bool
	// checkpoints snapshots the workspace around every change; nil when
	// runs are not saved (nothing could be rewound).
	checkpoints *checkpointer
	// sessionID names the new session the host's conversation creates;
	// "" lets the store choose (an editor is told the id before the
	// session's first turn writes it).
	sessionID string
}

// hold makes release the lock the host holds, letting go of the one it
// held before; hold(nil) lets go of it.
func (h *cmdHost) hold(release func()) {
	if h.held != nil {
		h.held()
	}
	h.held = release
}

// newHost returns the host for runs with settings s. store may be nil
// (--no-session); it is copied, so the caller's store is not changed.
func newHost(o *IO, s *settings, store *session.Store, secrets *redactor) *cmdHost {
	h := &cmdHost{io: o, s: s, secrets: secrets, errOut: secrets.writer(o.ErrOut)}
	if store != nil {
		st := *store
		h.store = &st
	}
	if o.Interactive() {
		h.forms = ui.Terminal{In: o.promptIn(), Out: o.ErrOut, Palette: ui.NewPalette(o.ErrColor, true)}
	}
	h.tell = func(warning bool, msg string) {
		msg = ui.Sanitize(msg)
		switch {
		case !warning:
			fmt.Fprintf(h.errOut, "llmrt: %s\n", msg)
		case !h.s.quiet:
			fmt.Fprintf(h.errOut, "llmrt: warning: %s\n", msg)
		}
	}
	return h
}

// warnf reports a warning (on stderr unless --quiet, or on the chat's
// screen).
func (h *cmdHost) warnf(format string, args ...any) { h.tell(true, fmt.Sprintf(format, args...)) }

// runtime builds the provider and the engine runtime from the settings.
func (h *cmdHost) runtime(hc *http.Client) (*engine.Runtime, error) {
	b := h.s.backend
	b.HTTPClient = hc
	b.Timeouts.Idle = h.s.streamIdle
	p, err := catalog.New(h.s.provider, b)
	if err != nil {
		return nil, err
	}
	if h.s.mcp != nil && !h.s.quiet {
		showMCPStart(h.tell, h.s.mcp, (h.io.ErrTTY || h.s.verbose) && !h.quietStarts)
	}
	return engine.New(engine.Config{
		Adapters:       []providers.Provider{p},
		BuiltinOptions: h.s.toolOptions(),
		Sources:        h.s.sources(),
		Agents:         h.s.agentDefs(),
		OpenProvider: func(name string) (providers.Provider, error) {
			// An agent's provider uses its own key and endpoint, as /model
			// would switch to it, never the main provider's base URL.
			ob := h.s.providerBackend(name)
			ob.HTTPClient, ob.Timeouts.Idle = hc, h.s.streamIdle
			return catalog.New(name, ob)
		},
	})
}

// conversation opens the conversation of a session: sess resumed, or a
// new one described by the settings. A trace that cannot be created is a
// usage error, since the person asked for it by name. The trace redacts
// streamed text as a stream, with a streaming redactor of its own.
func (h *cmdHost) conversation(sess *session.Session) (*host.Conversation, error) {
	c, err := host.Open(host.Options{Store: h.store, Resume: sess, Describe: h.meta, System: h.s.system,
		TracePath: h.s.tracePath, Redact: h.secrets.bytes, RedactStream: h.secrets.stream().events, Timeout: h.s.timeout})
	if err != nil {
		return nil, usageErrorf("--trace: %v", errors.Unwrap(err))
	}
	return c, nil
}

// turn fills in what every turn of the host's conversations runs with:
// the runtime, the request, and the person behind forms (nil: nobody).
func (h *cmdHost) turn(rt *engine.Runtime, forms ui.Prompter, events engine.Sink) host.Turn {
	return host.Turn{Runtime: rt, Request: h.request(), Events: events,
		Approver: h.approver(forms), Asker: h.asker(forms)}
}

// request is the settings' request with the secrets the host knows
// redacted from every tool result before the model sees it.
func (h *cmdHost) request() engine.Request {
	req := h.s.request()
	req.Redact = h.secrets.string
	if r := h.s.hooks; r != nil {
		req.Hooks = r
		req.Compaction.Before = func(ctx context.Context) { r.PreCompact(ctx, "auto", "") }
	}
	if h.checkpoints != nil {
		req.Hooks = checkpointHooks{inner: req.Hooks, cp: h.checkpoints}
	}
	return req
}

// call runs one tool call outside any conversation, under the same
// permissions, with the approver wired. cause is why the call's context
// ended: a person cancelling at the prompt, a signal; nil when it did not.
func (h *cmdHost) call(ctx context.Context, rt *engine.Runtime, call engine.ToolCall, sink engine.Sink) (out engine.ToolOutcome, cause error) {
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	req := h.request()
	req.Permission.Approver = host.StopOnCancel(h.approver(h.forms), stop)
	out = rt.ExecuteToolCallWith(ctx, call, req, sink)
	if ctx.Err() != nil {
		cause = context.Cause(ctx)
	}
	return out, cause
}

// progress returns the progress reporter for stderr, or nil when progress
// is not shown (--quiet, or stderr is not a terminal without --verbose).
func (h *cmdHost) progress() *ui.Progress {
	if h.s.quiet || !(h.io.ErrTTY || h.s.verbose) {
		return nil
	}
	return ui.NewProgress(h.errOut, ui.ProgressOptions{Color: h.io.ErrColor, Verbose: h.s.verbose, Live: h.io.ErrTTY})
}

// checkStrict reports the problems found preparing a run of req, the
// command's own (carried in req.Diagnostics) and the runtime's (tool
// sources): with --strict as a usage error before the first model call,
// else as warnings unless shown says the run's own output shows them (as
// the warning events a run starts with).
func (h *cmdHost) checkStrict(ctx context.Context, rt *engine.Runtime, shown bool) error {
	diags, err := rt.Diagnostics(ctx, h.s.request())
	if err != nil {
		return err
	}
	lines := make([]string, len(diags))
	for i, d := range diags {
		lines[i] = diagnosticText(d)
	}
	if h.s.strict && len(lines) > 0 {
		return usageErrorf("--strict: %s", strings.Join(lines, "; "))
	}
	if shown {
		return nil
	}
	for _, l := range lines {
		h.warnf("%s", l)
	}
	return nil
}

// diagnostics lists the problems of a finished run for the output.
func diagnostics(res engine.Result) []string {
	out := make([]string, len(res.Diagnostics))
	for i, d := range res.Diagnostics {
		out[i] = diagnosticText(d)
	}
	return out
}

// diagnosticText renders a runtime diagnostic as one line.
func diagnosticText(d engine.Diagnostic) string {
	if d.Source == "" {
		return d.Message
	}
	return d.Source + ": " + d.Message
}

// pendingAnswers returns the tool messages that answer a conversation's
// pending calls: from the answer flags when given, else asked through
// forms. A flag answer that leaves a question open is asked again through
// forms when there are some, and is a usage error naming the valid ids
// otherwise (exit 2). Nothing is written here, so a refused answer leaves
// the session paused.
func (h *cmdHost) pendingAnswers(ctx context.Context, id string, pending []engine.ToolCall, a tools.Answer, given bool, forms ui.Prompter) ([]engine.Message, error) {
	calls := parsePending(pending)
	var inputs []*tools.AskInput
	for _, p := range calls {
		switch {
		case p.call.Name != engine.AskUserTool:
			return nil, usageErrorf("pending call %s (%s) is a host tool this command cannot answer", p.call.ID, p.call.Name)
		case p.err != nil:
			return nil, usageErrorf("pending call %s: %v", p.call.ID, p.err)
		}
		inputs = append(inputs, p.ask)
	}
	canAsk := forms != nil && !h.noQuestions
	if !given && !canAsk {
		printPending(h.errOut, id, pendingItems(calls))
		return nil, usageErrorf("session %s is waiting for answers; pass --answer QUESTION=OPTION or --answers JSON", id)
	}
	msgs := make([]engine.Message, 0, len(calls))
	for _, p := range calls {
		var res tools.AskResult
		var err error
		if given {
			res, err = p.ask.Resolve(answerFor(p.ask, a, inputs))
		}
		if !given || (err != nil && canAsk) {
			if err != nil {
				h.tell(false, err.Error())
			}
			var ans tools.Answer
			if ans, err = h.person(forms).ask(ctx, *p.ask); err == nil {
				res, err = p.ask.Resolve(ans)
			}
		}
		switch {
		case errors.Is(err, engine.ErrCancelled):
			return nil, stoppedError(err, id)
		case err != nil && ctx.Err() != nil:
			return nil, stoppedError(context.Cause(ctx), id)
		case err != nil:
			return nil, usageErrorf("%v", err)
		}
		msgs = append(msgs, providers.ToolResultMessage(p.call, res.Content(), false))
	}
	return msgs, nil
}
