package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/ui"
)

// host is what every command that runs the engine puts around it: the
// session store and the trace, resuming, the approver and the asker, and
// the fan-out of events to the output and the records. `run`, `tools call`
// and `chat` share it; it knows nothing of flags.
type host struct {
	io *IO
	// errOut is stderr behind the redactor: every warning, progress line
	// and message goes through it (prompts draw on io.ErrOut directly).
	errOut  io.Writer
	s       *settings
	store   *session.Store // nil when runs are not saved
	secrets *redactor
	// prompts is nil when no person can answer (no terminal).
	prompts prompter
	// rules are the rules a person added with "allow always": they hold
	// for the host's later runs too (a chat's next turns).
	rulesMu sync.Mutex
	rules   []engine.Rule
	// diagnosticsShown says the run's own output shows its diagnostics
	// (as the warning events a run starts with), so checkStrict need not
	// print them too: run's progress on a terminal, the chat's screen.
	diagnosticsShown bool
	// noQuestions keeps ask_user_input from being put to the person even
	// on a terminal (stream-json output: a program reads the events), so
	// the run pauses instead.
	noQuestions bool
}

// newHost returns the host for runs with settings s. store may be nil
// (--no-session); it is copied, so the caller's store is not changed.
func newHost(o *IO, s *settings, store *session.Store, secrets *redactor) *host {
	h := &host{io: o, s: s, secrets: secrets, errOut: secrets.writer(o.ErrOut)}
	if store != nil {
		st := *store
		st.Redact = secrets.bytes
		h.store = &st
	}
	if o.Interactive() {
		h.prompts = formPrompts{p: ui.Terminal{In: o.promptIn(), Out: o.ErrOut, Palette: ui.NewPalette(o.ErrColor, true)}, h: h}
	}
	return h
}

// warnf prints a warning unless --quiet.
func (h *host) warnf(format string, args ...any) {
	if !h.s.quiet {
		fmt.Fprintf(h.errOut, "llmrt: warning: "+format+"\n", args...)
	}
}

// canAsk reports whether questions can be put to a person now.
func (h *host) canAsk() bool { return h.prompts != nil && !h.noQuestions }

// runtime builds the provider and the engine runtime from the settings.
func (h *host) runtime(hc *http.Client) (*engine.Runtime, error) {
	b := h.s.backend
	b.HTTPClient = hc
	p, err := catalog.New(h.s.provider, b)
	if err != nil {
		return nil, err
	}
	if h.s.mcp != nil && !h.s.quiet && (h.io.ErrTTY || h.s.verbose) {
		showMCPStart(h.errOut, h.s.mcp)
	}
	h.askMCP()
	return engine.New(engine.Config{
		Adapters:       []providers.Provider{p},
		BuiltinOptions: h.s.toolOptions(),
		Sources:        h.s.sources(),
	})
}

// run runs req through rt to its one terminal event. It wires the
// approver and the asker, applies --timeout, and hands every event to rec
// and then to sink. cause is why the run's context ended (a signal, the
// time limit, a person cancelling at a prompt), nil when it did not.
func (h *host) run(ctx context.Context, rt *engine.Runtime, req engine.Request, rec *recorder, sink engine.Sink) (res engine.Result, cause error, err error) {
	if h.s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.s.timeout)
		defer cancel()
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	req.Permission.Approver = h.approver(stop)
	req.Asker = h.asker(stop)
	req.Permission.Rules = h.withAllowed(req.Permission.Rules)
	req.Redact = h.secrets.string
	res, err = rt.CompleteWith(ctx, req, engine.FanOut(rec.event, sink))
	if ctx.Err() != nil {
		cause = context.Cause(ctx)
	}
	return res, cause, err
}

// call runs one tool call outside any model run, under the same
// permissions, with the approver wired; see run for cause.
func (h *host) call(ctx context.Context, rt *engine.Runtime, call engine.ToolCall, req engine.Request, sink engine.Sink) (out engine.ToolOutcome, cause error) {
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	req.Permission.Approver = h.approver(stop)
	out = rt.ExecuteToolCallWith(ctx, call, req, sink)
	if ctx.Err() != nil {
		cause = context.Cause(ctx)
	}
	return out, cause
}

// allow adds a rule a person allowed "always" to the host's later runs.
// A rule that does not parse was already refused by the engine.
func (h *host) allow(text string) {
	rule, err := engine.ParseRule(engine.RuleAllow, text)
	if err != nil {
		return
	}
	h.rulesMu.Lock()
	h.rules = append(h.rules, rule)
	h.rulesMu.Unlock()
}

// withAllowed returns rules with those a person allowed "always" added.
func (h *host) withAllowed(rules []engine.Rule) []engine.Rule {
	h.rulesMu.Lock()
	defer h.rulesMu.Unlock()
	if len(h.rules) == 0 {
		return rules
	}
	return append(append([]engine.Rule(nil), rules...), h.rules...)
}

// approver returns the run's Approver: the prompts on a terminal in ask
// mode, else nil (the engine then denies undecided calls and names the
// rule that would allow them). Cancelling at the prompt stops the run
// with the prompt's *engine.CancelError as its cause.
func (h *host) approver(stop context.CancelCauseFunc) engine.Approver {
	if h.prompts == nil || h.s.permission.Mode != engine.ModeAsk {
		return nil
	}
	return engine.ApproverFunc(func(ctx context.Context, req engine.PermissionRequest) (engine.Decision, error) {
		d, err := h.prompts.approve(ctx, req)
		if err != nil || d.Action == engine.Cancel {
			stop(err)
			return engine.Decision{Action: engine.Cancel}, nil
		}
		return d, nil
	})
}

// asker returns the run's Asker: questions answered inline on a terminal,
// or nil, and the run pauses for an answer given on resume.
func (h *host) asker(stop context.CancelCauseFunc) engine.Asker {
	if !h.canAsk() {
		return nil
	}
	return engine.AskerFunc(func(ctx context.Context, q engine.Question) (tools.Answer, error) {
		a, err := h.askPerson(ctx, q.Input)
		if errors.Is(err, engine.ErrCancelled) {
			stop(err)
		}
		return a, err
	})
}

// askPerson asks until the answer answers every question: an incomplete
// answer is reported and asked again, never passed on.
func (h *host) askPerson(ctx context.Context, in tools.AskInput) (tools.Answer, error) {
	for {
		a, err := h.prompts.ask(ctx, in)
		if err != nil {
			return a, err
		}
		_, err = in.Resolve(a)
		if err == nil {
			return a, nil
		}
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		fmt.Fprintf(h.errOut, "llmrt: %v; answer again\n", err)
	}
}

// answerPending returns the tool messages that answer a paused session's
// pending calls: from the answer flags when given, else asked on the
// terminal. A flag answer that leaves a question open is asked again on a
// terminal and is a usage error naming the valid ids elsewhere (exit 2).
// Nothing is written here, so a refused answer leaves the session paused.
func (h *host) answerPending(ctx context.Context, sess *session.Session, a tools.Answer, given bool) ([]engine.Message, error) {
	calls := parsePending(sess.Pending)
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
	if !given && !h.canAsk() {
		printPending(h.errOut, sess.Meta.ID, pendingItems(calls))
		return nil, usageErrorf("session %s is waiting for answers; pass --answer QUESTION=OPTION or --answers JSON", sess.Meta.ID)
	}
	msgs := make([]engine.Message, 0, len(calls))
	for _, p := range calls {
		var res tools.AskResult
		var err error
		if given {
			res, err = p.ask.Resolve(answerFor(p.ask, a, inputs))
		}
		if !given || (err != nil && h.canAsk()) {
			if err != nil {
				fmt.Fprintf(h.errOut, "llmrt: %v\n", err)
			}
			var ans tools.Answer
			if ans, err = h.askPerson(ctx, *p.ask); err == nil {
				res, err = p.ask.Resolve(ans)
			}
		}
		switch {
		case errors.Is(err, engine.ErrCancelled):
			return nil, stoppedError(err, sess.Meta.ID)
		case err != nil && ctx.Err() != nil:
			return nil, stoppedError(context.Cause(ctx), sess.Meta.ID)
		case err != nil:
			return nil, usageErrorf("%v", err)
		}
		msgs = append(msgs, providers.ToolResultMessage(p.call, res.Content(), false))
	}
	return msgs, nil
}

// progress returns the progress reporter for stderr, or nil when progress
// is not shown (--quiet, or stderr is not a terminal without --verbose).
func (h *host) progress() *ui.Progress {
	if h.s.quiet || !(h.io.ErrTTY || h.s.verbose) {
		return nil
	}
	return ui.NewProgress(h.errOut, ui.ProgressOptions{Color: h.io.ErrColor, Verbose: h.s.verbose, Live: h.io.ErrTTY})
}

// checkStrict reports the problems found preparing a run of req, the
// command's own (carried in req.Diagnostics) and the runtime's (tool
// sources): as warnings, or with --strict as a usage error before the
// first model call.
func (h *host) checkStrict(ctx context.Context, rt *engine.Runtime, req engine.Request) error {
	diags, err := rt.Diagnostics(ctx, req)
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
	if h.diagnosticsShown {
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
