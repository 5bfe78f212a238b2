package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/ui"
)

// chatOptions are the dependencies and flag values of `llmrt chat`.
type chatOptions struct {
	f       *Factory
	cmd     *cobra.Command
	options config.Layer
	session sessionFlags
	args    []string
}

func newChatCmd(f *Factory, runF func(*chatOptions) error) *cobra.Command {
	opts := &chatOptions{f: f}
	cmd := &cobra.Command{
		Use:   "chat [prompt...]",
		Short: "Talk with the agent in a full-screen terminal",
		Long: `Open the interactive chat: the conversation streams as it is written, tool
calls show as they run, and questions and permission requests appear as
select lists. A prompt given as arguments is sent at once.

Sessions are saved exactly as llmrt run saves them: llmrt chat --resume ID
opens a session made by llmrt run, and the other way round. Type /help in
the chat for its keys and commands.`,
		Example: `  llmrt chat
  llmrt chat "why does the build fail?"
  llmrt chat --continue
  llmrt chat --provider anthropic --model claude-sonnet-4-5`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.cmd, opts.args = cmd, args
			if runF != nil {
				return runF(opts)
			}
			return runChat(cmd.Context(), opts)
		},
	}
	config.RegisterFlags(cmd.Flags(), &opts.options)
	opts.session.register(cmd.Flags(), "chat")
	completeShared(cmd, f)
	return cmd
}

// runChat opens the chat screen and returns when the person quits.
func runChat(ctx context.Context, opts *chatOptions) error {
	io := opts.f.IO
	if !io.InTTY || !io.OutTTY {
		return withHint(usageErrorf("llmrt chat needs a terminal on stdin and stdout"),
			`for scripts and pipes use llmrt run (e.g. echo "..." | llmrt run)`)
	}
	h, sess, err := opts.f.openHost(ctx, opts.options, opts.session, false)
	if err != nil {
		return err
	}
	defer h.hold(nil)
	logs, closeLogs := chatLog(opts.f.Getenv, opts.f.secrets)
	defer closeLogs()
	c, err := newChatHost(h, sess, opts.f, logs)
	if err != nil {
		return err
	}
	defer c.close()
	// A missing key or an unknown provider is said before the screen
	// opens; MCP servers start once it is up (chatHost.PromptCommands).
	if _, err := c.runtime(); err != nil {
		return err
	}
	status := c.Status()
	c.notePick()
	uopts := ui.Options{
		Host: c, Commands: c.commands(), Custom: c.h.s.customCommands(), Palette: ui.NewPalette(io.Color, true), Dark: true, Status: status,
		Prompt: strings.TrimSpace(strings.Join(opts.args, " ")), Notes: c.startNotes(),
		StatusLine: c.statusLine(), Notify: notifyKind(c.h.s.cfg.Notifications, opts.f.Getenv),
		Notified: c.h.notificationHooks(ctx),
		Args:     map[string]ui.ArgsFunc{"model": c.modelChoices, "resume": c.sessionChoices, "rewind": c.turnChoices},
		Found:    c.found(),
	}
	if sess != nil {
		uopts.History, uopts.Pending = sess.Messages, len(sess.Pending) > 0
	}
	err = ui.Run(ctx, uopts)
	c.close()
	switch {
	case interrupted(ctx):
		return &exitError{code: exitCancelled, err: fmt.Errorf("chat interrupted; continue it with llmrt chat --resume %s", c.sessionID())}
	case err != nil && !errors.Is(err, context.Canceled):
		return fmt.Errorf("chat: %w", err)
	}
	if id := c.sessionID(); id != "" {
		fmt.Fprintf(opts.f.IO.ErrOut, "session %s saved; continue it with llmrt chat --resume %s\n", id, id)
	}
	return nil
}

// chatLog sends the default loggers (libraries such as mcp-go log through
// them) to $XDG_STATE_HOME/llmrt/chat.log while the screen is up: a line
// written to the terminal would tear the screen.
//
// Known secrets are redacted from it like from everything else llmrt
// writes.
func chatLog(getenv func(string) string, secrets *redactor) (io.Writer, func()) {
	var w io.Writer = io.Discard
	var file *os.File
	if dir := session.DefaultDir(getenv); dir != "" {
		path := filepath.Join(filepath.Dir(dir), "chat.log")
		if os.MkdirAll(filepath.Dir(path), 0o700) == nil {
			if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
				w, file = secrets.writer(f), f
			}
		}
	}
	prevOut, prevFlags, prevSlog := log.Writer(), log.Flags(), slog.Default()
	log.SetOutput(w)
	log.SetFlags(log.LstdFlags)
	slog.SetDefault(slog.New(slog.NewTextHandler(w, nil)))
	return w, func() {
		log.SetOutput(prevOut)
		log.SetFlags(prevFlags)
		slog.SetDefault(prevSlog)
		if file != nil {
			file.Close()
		}
	}
}
