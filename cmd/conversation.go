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

// input reads what the run adds to its conversation: a new one's prompt
// (required), or for a resumed session the answers to its pending
// questions and an optional prompt. Pending questions with no answers
// given are asked now on a terminal. title names a new session.
func (opts *runOptions) input(ctx context.Context, h *cmdHost, sess *session.Session) (answers []engine.Message, prompt *engine.Message, title string, err error) {
	text, err := opts.promptText()
	if err != nil {
		return nil, nil, "", err
	}
	if sess == nil {
		user, err := buildPrompt(ctx, h.io, text, opts.attach, true, h.inputLimit())
		if err != nil {
			return nil, nil, "", err
		}
		if title = text; strings.TrimSpace(title) == "" {
			title = user.Text()
		}
		return nil, &user, title, nil
	}
	a, given, err := parseAnswerFlags(opts.answers, opts.answersJSON)
	if err != nil {
		return nil, nil, "", err
	}
	id := sess.Meta.ID
	switch {
	case len(sess.Pending) > 0:
		if answers, err = h.pendingAnswers(ctx, id, sess.Pending, a, given, h.forms); err != nil {
			return nil, nil, "", err
		}
	case given:
		return nil, nil, "", usageErrorf("session %s has no pending questions to answer", id)
	}
	user, ok, err := optionalPrompt(ctx, h.io, text, opts.attach, h.inputLimit())
	if err != nil {
		return nil, nil, "", err
	}
	if ok {
		prompt = &user
	}
	if len(answers) == 0 && prompt == nil && endsWithAnswer(sess.Messages) {
		return nil, nil, "", usageErrorf("session %s is finished; give a prompt to continue it", id)
	}
	return answers, prompt, "", nil
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
