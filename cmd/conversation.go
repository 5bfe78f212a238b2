package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/engine/trace"
	"github.com/llmrt/llmrt/providers"
)

// conversation is the history a run starts from and where the run is
// recorded: the session file (unless --no-session) and the --trace file.
type conversation struct {
	id       string
	messages []engine.Message
	w        *session.Writer
	tr       *trace.Writer
	errOut   io.Writer

	mu     sync.Mutex
	warned bool
}

// record persists one event; it is called from the run's goroutines.
func (c *conversation) record(ev engine.Event) {
	if c.w != nil {
		c.check(c.w.WriteEvent(ev))
	}
	if c.tr != nil {
		c.check(c.tr.Write(ev))
	}
}

// add persists messages the host appends (answers, prompts).
func (c *conversation) add(msgs ...engine.Message) {
	if c.w == nil {
		return
	}
	for _, m := range msgs {
		c.check(c.w.WriteMessage(m))
	}
}

// check reports the first write failure; the run goes on, since losing
// the record is better than losing the work.
func (c *conversation) check(err error) {
	if err == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.warned {
		c.warned = true
		fmt.Fprintf(c.errOut, "llmrt: warning: cannot record the run: %v\n", err)
	}
}

func (c *conversation) close() {
	if c.w != nil {
		c.check(c.w.Close())
	}
	if c.tr != nil {
		c.check(c.tr.Close())
	}
}

// loadSession loads the session named by --resume or found by --continue.
func (opts *runOptions) loadSession(workDir string) (*session.Session, error) {
	if opts.resume == "" && !opts.cont {
		return nil, nil
	}
	st := opts.f.Sessions()
	id := opts.resume
	if opts.cont {
		sum, err := st.Latest(workDir)
		if err != nil {
			return nil, withHint(usageErrorf("--continue: no saved session for %s", workDir), "start one with llmrt run, or list them with llmrt sessions")
		}
		id = sum.ID
	}
	sess, err := st.Load(id)
	if errors.Is(err, session.ErrNotFound) {
		return nil, withHint(usageErrorf("no session %q", id), "list saved sessions with llmrt sessions")
	}
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	for _, w := range sess.Warnings {
		fmt.Fprintf(opts.f.IO.ErrOut, "llmrt: warning: session %s: %s\n", id, w)
	}
	return sess, nil
}

// promptText returns the prompt from -p or the arguments.
func (opts *runOptions) promptText() (string, error) {
	args := strings.TrimSpace(strings.Join(opts.args, " "))
	if opts.prompt != "" && args != "" {
		return "", usageErrorf("give the prompt once: either -p or arguments")
	}
	if opts.prompt != "" {
		return opts.prompt, nil
	}
	return args, nil
}

// conversation builds the starting history: a new one from the prompt, or
// a resumed session with answers and an optional new prompt. Nothing is
// written before every input has been checked, so a bad answer leaves the
// session untouched.
func (opts *runOptions) conversation(ctx context.Context, s *settings, sess *session.Session) (*conversation, error) {
	conv := &conversation{errOut: opts.f.IO.ErrOut}
	prompt, err := opts.promptText()
	if err != nil {
		return nil, err
	}
	var fresh []engine.Message
	if sess == nil {
		if s.system != "" {
			fresh = append(fresh, providers.TextMessage(providers.RoleSystem, s.system))
		}
		user, err := buildPrompt(opts.f.IO, prompt, opts.shared.attach, true)
		if err != nil {
			return nil, err
		}
		fresh = append(fresh, user)
	} else {
		if fresh, err = opts.resumeMessages(ctx, sess, prompt); err != nil {
			return nil, err
		}
		conv.messages = sess.Messages
	}
	conv.messages = append(conv.messages, fresh...)
	if err := opts.openRecords(conv, s, sess, prompt); err != nil {
		return nil, err
	}
	conv.add(fresh...)
	return conv, nil
}

// resumeMessages checks the answers and prompt for a resumed session and
// returns the messages to append. Pending questions with no answers given
// are asked now on a terminal.
func (opts *runOptions) resumeMessages(ctx context.Context, sess *session.Session, prompt string) ([]engine.Message, error) {
	var fresh []engine.Message
	a, given, err := opts.flagAnswer()
	if err != nil {
		return nil, err
	}
	id := sess.Meta.ID
	switch {
	case len(sess.Pending) > 0 && given:
		if fresh, err = resolveAnswers(sess.Pending, a); err != nil {
			return nil, err
		}
	case len(sess.Pending) > 0 && opts.canAsk():
		if fresh, err = opts.askInteractive(ctx, sess.Pending); err != nil {
			return nil, err
		}
	case len(sess.Pending) > 0:
		printPending(opts.f.IO.ErrOut, id, pendingItems(sess.Pending))
		return nil, usageErrorf("session %s is waiting for answers; pass --answer QUESTION=OPTION or --answers JSON", id)
	case given:
		return nil, usageErrorf("session %s has no pending questions to answer", id)
	}
	user, ok, err := optionalPrompt(opts.f.IO, prompt, opts.shared.attach)
	if err != nil {
		return nil, err
	}
	if ok {
		if len(sess.Pending) > 0 && len(fresh) == 0 {
			return nil, usageErrorf("session %s is waiting for answers; answer them before adding a prompt", id)
		}
		fresh = append(fresh, user)
	}
	if len(fresh) == 0 && len(sess.Pending) == 0 && endsWithAnswer(sess.Messages) {
		return nil, usageErrorf("session %s is finished; give a prompt to continue it", id)
	}
	return fresh, nil
}

// endsWithAnswer reports a conversation whose last message is the model's
// reply, so there is nothing to continue without a new prompt.
func endsWithAnswer(msgs []engine.Message) bool {
	if len(msgs) == 0 {
		return false
	}
	last := msgs[len(msgs)-1]
	if last.Role == providers.RoleAssistant {
		return true
	}
	// A run that ended with final_answer ends with its control result.
	return last.Role == providers.RoleTool && last.ToolName == engine.FinalAnswerTool
}

// openRecords opens the session writer and the trace file.
func (opts *runOptions) openRecords(conv *conversation, s *settings, sess *session.Session, prompt string) error {
	if opts.shared.trace != "" {
		tr, err := trace.Create(opts.shared.trace)
		if err != nil {
			return usageErrorf("--trace: %v", err)
		}
		conv.tr = tr
	}
	if opts.noSession {
		return nil
	}
	st := opts.f.Sessions()
	if st.Dir == "" {
		fmt.Fprintln(opts.f.IO.ErrOut, "llmrt: warning: no home directory; this run is not saved")
		return nil
	}
	var err error
	if sess != nil {
		conv.w, err = st.Append(sess.Meta.ID)
	} else {
		title := prompt
		if title == "" && len(conv.messages) > 0 {
			title = conv.messages[len(conv.messages)-1].Text()
		}
		conv.w, err = st.Create(session.Meta{
			Provider: s.provider, Model: s.model, BaseURL: s.backend.BaseURL,
			WorkDir: s.workDir, Title: title, Version: Version(),
		})
	}
	if err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	conv.id = conv.w.ID()
	return nil
}
