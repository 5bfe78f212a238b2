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
func (opts *runOptions) input(ctx context.Context, h *cmdHost, sess *session.Session, typed string, command *promptCommand) (answers []engine.Message, prompt *engine.Message, title string, err error) {
	text, cmd := typed, command != nil
	// A server's text (an MCP prompt) has no mentions to attach.
	literal := cmd && command.literal
	if cmd {
		text = command.Prompt
	}
	if sess == nil {
		user, err := buildPrompt(ctx, h.io, text, opts.attach, true, h.inputLimit())
		if err != nil {
			return nil, nil, "", err
		}
		if err := h.runMentions(ctx, &user, text, cmd, literal); err != nil {
			return nil, nil, "", err
		}
		if title = typed; strings.TrimSpace(title) == "" {
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
		if err := h.runMentions(ctx, &user, text, cmd, literal); err != nil {
			return nil, nil, "", err
		}
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

// command resolves a run's prompt that starts with a custom command or
// a skill (/review main.go): nil when it does not. Given as arguments,
// the command's own keep the words the shell gave them (llmrt run /fix
// "two words"), for its $1 to $9.
func (opts *runOptions) command(ctx context.Context, h *cmdHost, typed string) (*promptCommand, error) {
	line := typed
	if opts.prompt == "" && len(opts.args) > 0 && strings.HasPrefix(opts.args[0], "/") {
		line = strings.Join(append([]string{opts.args[0]}, quoteWords(opts.args[1:])...), " ")
	}
	p, ok, err := h.s.runCommand(ctx, line)
	if err != nil || !ok {
		return nil, err
	}
	for _, problem := range p.Problems {
		h.warnf("%s", problem)
	}
	return &p, nil
}

// quoteWords quotes the words that hold blanks or quotes, so that
// splitting the joined line gives them back.
func quoteWords(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w
		if w == "" || strings.ContainsAny(w, " \t\n'\"\\") {
			out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return out
}

// runMentions attaches what a run's prompt mentions: a command's @files
// and @server:uri resources, a typed prompt's resources only (its @path
// words stay text, for the model to read as it needs), nothing of a
// literal text.
func (h *cmdHost) runMentions(ctx context.Context, msg *engine.Message, text string, cmd, literal bool) error {
	switch {
	case literal:
		return nil
	case cmd:
		return h.attachMentions(ctx, msg, text)
	}
	return h.attachResources(ctx, msg, text)
}
