package cmd

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools"
	"github.com/llmrt/llmrt/tools/checkpoint"
	"github.com/llmrt/llmrt/ui"
)

// The chat's /rewind: the chat side of llmrt rewind. "/rewind N" shows
// what going back to before turn N would change and asks what to
// restore; the answer runs "/rewind N both|code|chat|cancel", and a
// restore that would overwrite files changed outside llmrt asks again
// before "/rewind N both|code overwrite".

// What /rewind N restores, as the argument after N.
const (
	restoreBoth  = "both"
	restoreCode  = "code"
	restoreChat  = "chat"
	restoreNone  = "cancel"
	restoreForce = "overwrite"
)

// rewindArg is a parsed /rewind argument.
type rewindArg struct {
	turn  int
	what  string // "" asks what to restore
	force bool
}

func parseRewindArg(arg string) (rewindArg, error) {
	f := strings.Fields(arg)
	var r rewindArg
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 1 {
		return r, fmt.Errorf("/rewind %s: give a turn number, from 1", f[0])
	}
	r.turn = n
	if len(f) > 1 {
		r.what = f[1]
		switch r.what {
		case restoreBoth, restoreCode, restoreChat, restoreNone:
		default:
			return r, fmt.Errorf("/rewind %s: restore %s, %s or %s", arg, restoreBoth, restoreCode, restoreChat)
		}
	}
	r.force = len(f) > 2 && f[2] == restoreForce
	return r, nil
}

// rewindCommand is /rewind. The screen refuses it while a turn runs, and
// the command holds the chat's lock as a turn does.
func (c *chatHost) rewindCommand(ctx context.Context, arg string) (ui.Reply, error) {
	if c.h.store == nil {
		return ui.Reply{}, errors.New("/rewind needs the session: sessions are not saved in this chat (--no-session)")
	}
	id := c.conv.ID()
	if id == "" {
		return ui.Reply{Report: ui.Notice("Nothing to rewind: no turn has run in this session yet.")}, nil
	}
	sess, err := c.h.store.Load(id)
	if err != nil {
		return ui.Reply{}, err
	}
	turns := turnPrompts(sess)
	if strings.TrimSpace(arg) == "" {
		lines := ui.Lines{"The turns of this session; /rewind N goes back to before turn N:"}
		for i, p := range turns {
			lines = append(lines, fmt.Sprintf("  %d. %s", i+1, oneLine(p, 70)))
		}
		return ui.Reply{Report: lines}, nil
	}
	r, err := parseRewindArg(arg)
	if err != nil {
		return ui.Reply{}, err
	}
	if r.turn > len(turns) {
		return ui.Reply{}, fmt.Errorf("/rewind %d: this session has %d turn(s)", r.turn, len(turns))
	}
	if r.what == restoreNone {
		return ui.Reply{Report: ui.Notice("Nothing rewound.")}, nil
	}
	var store *checkpoint.Store
	var list []checkpoint.Checkpoint
	if c.h.checkpoints != nil {
		store = c.h.checkpoints.store(id)
		if list, err = store.List(); err != nil {
			return ui.Reply{}, err
		}
	}
	if r.what == "" {
		return c.rewindPreview(ctx, sess, store, list, r.turn, turns[r.turn-1])
	}
	var lines ui.Lines
	if r.what != restoreChat {
		code, err := rewindFiles(ctx, store, list, r.turn, r.force, false)
		if errors.Is(err, checkpoint.ErrConflict) {
			return rewindConflict(r, code.plan.Conflicts), nil
		}
		if err != nil {
			return ui.Reply{}, err
		}
		lines = append(lines, code.lines(id, "")...)
		c.files = nil // the listing for @ mentions is out of date
	}
	if r.what == restoreCode {
		return ui.Reply{Report: lines}, nil
	}
	b, err := branchSession(c.h.store, sess, r.turn, false)
	if err != nil {
		return ui.Reply{Report: lines}, err
	}
	next, release, err := loadSession(ctx, c.h.store, func(w string) { c.h.warnf("%s", w) }, b.id, false, c.h.s.workDir)
	if err != nil {
		return ui.Reply{Report: lines}, err
	}
	if err := c.reopen(next); err != nil {
		release()
		return ui.Reply{Report: lines}, err
	}
	c.h.hold(release)
	c.notePick()
	st := c.Status()
	lines = append(lines,
		fmt.Sprintf("conversation: branched %s before turn %d as %s (%d messages); the chat goes on in it", id, r.turn, b.id, b.kept),
		fmt.Sprintf("turn %d's prompt was: %s", r.turn, oneLine(b.prompt, 100)))
	return ui.Reply{History: next.Messages, Status: &st, Report: lines}, nil
}

// rewindPreview lists what going back to before turn to would change and
// asks what to restore.
func (c *chatHost) rewindPreview(ctx context.Context, sess *session.Session, store *checkpoint.Store, list []checkpoint.Checkpoint, to int, prompt string) (ui.Reply, error) {
	code, err := rewindFiles(ctx, store, list, to, false, true)
	if err != nil {
		return ui.Reply{}, err
	}
	b, _ := branchSession(nil, sess, to, true)
	lines := ui.Lines{fmt.Sprintf("Rewind to before turn %d: %s", to, oneLine(prompt, 70))}
	lines = append(lines, code.lines(sess.Meta.ID, "overwritten only if you say so")...)
	lines = append(lines, fmt.Sprintf("conversation: would go on from before turn %d in a new session (%d of %d messages)", to, b.kept, len(sess.Messages)))
	n := strconv.Itoa(to)
	q := tools.Question{Header: "Rewind", ID: "rewind", Question: "What should go back to before turn " + n + "?",
		Options: []tools.Choice{
			{ID: n + " " + restoreBoth, Label: "Code and conversation"},
			{ID: n + " " + restoreCode, Label: "Code only", Description: "the conversation stays as it is"},
			{ID: n + " " + restoreChat, Label: "Conversation only", Description: "the files stay as they are"},
			{ID: n + " " + restoreNone, Label: "Cancel"},
		}}
	if !code.changes() {
		q.Options[0].Description = "no file to restore"
	}
	return ui.Reply{Report: lines, Ask: &q}, nil
}

// rewindConflict lists the files changed outside llmrt that restoring
// would overwrite, and asks whether to.
func rewindConflict(r rewindArg, conflicts []string) ui.Reply {
	lines := ui.Lines{fmt.Sprintf("%d file(s) changed outside llmrt since the last checkpoint; nothing is restored yet:", len(conflicts))}
	for _, p := range conflicts {
		lines = append(lines, "  "+p)
	}
	n := strconv.Itoa(r.turn)
	q := tools.Question{Header: "Rewind", ID: "rewind", Question: "Overwrite the files changed outside llmrt?",
		Options: []tools.Choice{
			{ID: n + " " + r.what + " " + restoreForce, Label: "Overwrite them", Description: "restore them as they were before turn " + n},
			{ID: n + " " + restoreNone, Label: "Cancel", Description: "change nothing"},
		}}
	return ui.Reply{Report: lines, Ask: &q}
}

// turnPrompts are the prompts of sess's turns, in order.
func turnPrompts(sess *session.Session) []string {
	var out []string
	for _, m := range sess.Messages {
		if m.Role == providers.RoleUser {
			out = append(out, m.Text())
		}
	}
	return out
}

// turnChoices lists the session's turns for /rewind's menu, by number.
// The screen asks for it off its loop, maybe while a turn holds the
// lock; /rewind cannot run then, so the lock is only tried and there is
// no menu.
func (c *chatHost) turnChoices(context.Context) []ui.Choice {
	if !c.mu.TryLock() {
		return nil
	}
	id := c.conv.ID()
	c.mu.Unlock()
	if id == "" || c.h.store == nil {
		return nil
	}
	sess, err := c.h.store.Load(id)
	if err != nil {
		return nil
	}
	turns := turnPrompts(sess)
	out := make([]ui.Choice, 0, len(turns))
	for i, p := range turns {
		out = append(out, ui.Choice{Value: strconv.Itoa(i + 1), Desc: oneLine(p, 70)})
	}
	return out
}
