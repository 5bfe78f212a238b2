package cmd

import (
	"context"
	"strings"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
)

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

// start builds the conversation the run starts from, a new one from the
// prompt or a resumed session with answers and an optional new prompt,
// and opens its records. Nothing is written before every input has been
// checked, so a bad answer leaves the session untouched; answers to a
// paused session are held back until the run makes progress.
func (opts *runOptions) start(ctx context.Context, h *host, sess *session.Session) ([]engine.Message, *recorder, error) {
	prompt, err := opts.promptText()
	if err != nil {
		return nil, nil, err
	}
	if sess == nil {
		var fresh []engine.Message
		if h.s.system != "" {
			fresh = append(fresh, providers.TextMessage(providers.RoleSystem, h.s.system))
		}
		user, err := buildPrompt(ctx, h.io, prompt, opts.shared.attach, true)
		if err != nil {
			return nil, nil, err
		}
		fresh = append(fresh, user)
		title := prompt
		if strings.TrimSpace(title) == "" {
			title = user.Text()
		}
		rec, err := h.open(nil, h.meta(title))
		if err != nil {
			return nil, nil, err
		}
		rec.add(fresh...)
		return fresh, rec, nil
	}
	fresh, err := opts.resumeMessages(ctx, h, sess, prompt)
	if err != nil {
		return nil, nil, err
	}
	rec, err := h.open(sess, session.Meta{})
	if err != nil {
		return nil, nil, err
	}
	if len(sess.Pending) > 0 {
		rec.hold(fresh...)
	} else {
		rec.add(fresh...)
	}
	return append(append([]engine.Message(nil), sess.Messages...), fresh...), rec, nil
}

// resumeMessages checks the answers and prompt for a resumed session and
// returns the messages to append. Pending questions with no answers given
// are asked now on a terminal.
func (opts *runOptions) resumeMessages(ctx context.Context, h *host, sess *session.Session, prompt string) ([]engine.Message, error) {
	a, given, err := parseAnswerFlags(opts.answers, opts.answersJSON)
	if err != nil {
		return nil, err
	}
	id := sess.Meta.ID
	var fresh []engine.Message
	switch {
	case len(sess.Pending) > 0:
		if fresh, err = h.answerPending(ctx, sess, a, given); err != nil {
			return nil, err
		}
	case given:
		return nil, usageErrorf("session %s has no pending questions to answer", id)
	}
	user, ok, err := optionalPrompt(ctx, h.io, prompt, opts.shared.attach)
	if err != nil {
		return nil, err
	}
	if ok {
		fresh = append(fresh, user)
	}
	if len(fresh) == 0 && endsWithAnswer(sess.Messages) {
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
