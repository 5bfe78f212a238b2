package cmd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/tools/checkpoint"
)

// rewindOptions are the flags of llmrt rewind.
type rewindOptions struct {
	id         string
	to         int
	code, chat bool
	dryRun     bool
	force      bool
}

func newRewindCmd(f *Factory) *cobra.Command {
	var o rewindOptions
	cmd := &cobra.Command{
		Use:   "rewind SESSION",
		Short: "Put the workspace and the conversation back as they were before a turn",
		Long: `Restore a session's checkpoints. llmrt snapshots the workspace before every
change a run makes (file tools, shell commands, MCP tools that are not read-only);
rewind --to N puts the files back as they were before the first change of turn N
(turns are the session's prompts, from 1; without --to, the last turn that changed
something) and branches the conversation before turn N's prompt into a new session,
printing its id. The old session is left as it was. --code restores only the files,
--chat only the conversation. --dry-run lists what would change and changes nothing.
Files changed outside llmrt since its last checkpoint are not overwritten without
--force. Ignored files and files over the size limit are left alone.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.id = args[0]
			if o.code && o.chat {
				return usageErrorf("--code and --chat exclude each other; give neither to restore both")
			}
			if cmd.Flags().Changed("to") && o.to < 1 {
				return usageErrorf("--to %d: turns are numbered from 1", o.to)
			}
			return runRewind(cmd, f, o)
		},
	}
	cmd.Flags().IntVar(&o.to, "to", 0, "the turn to go back to the start of (from 1)")
	cmd.Flags().BoolVar(&o.code, "code", false, "restore only the files")
	cmd.Flags().BoolVar(&o.chat, "chat", false, "restore only the conversation")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "list what would change; change nothing")
	cmd.Flags().BoolVar(&o.force, "force", false, "overwrite files changed outside llmrt since the last checkpoint")
	return cmd
}

func runRewind(cmd *cobra.Command, f *Factory, o rewindOptions) error {
	if err := session.CheckID(o.id); err != nil {
		return usageErrorf("%v", err)
	}
	st := f.Sessions()
	sess, err := st.Load(o.id)
	if err != nil {
		return withHint(usageErrorf("session %s: %v", o.id, err), "llmrt sessions lists the saved sessions")
	}
	turns := userTurns(sess.Messages)
	if o.to > turns {
		return usageErrorf("--to %d: session %s has %d turns", o.to, o.id, turns)
	}
	var store *checkpoint.Store
	var list []checkpoint.Checkpoint
	if dir := checkpointsDir(f.Getenv); dir != "" {
		store = checkpoint.Open(checkpoint.Options{Dir: filepath.Join(dir, o.id)})
		if list, err = store.List(); err != nil {
			return err
		}
	}
	to := o.to
	if to == 0 {
		to = lastChangedTurn(list, turns)
	}
	if !o.chat {
		if err := rewindCode(cmd, f, store, list, to, o); err != nil {
			return err
		}
	}
	if !o.code {
		return rewindChat(f, st, sess, to, o)
	}
	return nil
}

// lastChangedTurn is the latest turn with a checkpoint before a change,
// or the session's last turn when none changed anything.
func lastChangedTurn(list []checkpoint.Checkpoint, turns int) int {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Phase == checkpoint.PhaseBefore && list[i].Turn > 0 {
			return list[i].Turn
		}
	}
	return max(turns, 1)
}

// rewindCode restores the files as they were before the first change of
// turn to (or of a later turn, when that one changed nothing).
func rewindCode(cmd *cobra.Command, f *Factory, store *checkpoint.Store, list []checkpoint.Checkpoint, to int, o rewindOptions) error {
	r, err := rewindFiles(cmd.Context(), store, list, to, o.force, o.dryRun)
	if errors.Is(err, checkpoint.ErrConflict) {
		for _, p := range r.plan.Conflicts {
			fmt.Fprintf(f.IO.ErrOut, "changed outside llmrt: %s\n", p)
		}
		return &exitError{code: exitFailed,
			err:  fmt.Errorf("%d file(s) in %s changed outside llmrt since the last checkpoint", len(r.plan.Conflicts), store.Root()),
			hint: "--force overwrites them; --dry-run shows the whole restore"}
	}
	if err != nil {
		return err
	}
	for _, l := range r.lines(o.id, "restored only with --force") {
		fmt.Fprintln(f.IO.Out, l)
	}
	return nil
}

// codeRewind is what restoring the files to before a turn did, or with
// dryRun would do. Both llmrt rewind and the chat's /rewind show it.
type codeRewind struct {
	to            int
	root          string
	plan          *checkpoint.Plan // nil when there is nothing to restore
	dryRun, force bool
	noCheckpoints bool
}

// rewindFiles restores the files as they were before the first change
// of turn to (or of a later turn, when that one changed nothing). Files
// changed outside llmrt since the last checkpoint are not overwritten
// unless force is set: the error is then checkpoint.ErrConflict and the
// plan lists them. With dryRun nothing changes.
func rewindFiles(ctx context.Context, store *checkpoint.Store, list []checkpoint.Checkpoint, to int, force, dryRun bool) (codeRewind, error) {
	r := codeRewind{to: to, dryRun: dryRun, force: force}
	if len(list) == 0 || store == nil {
		r.noCheckpoints = true
		return r, nil
	}
	r.root = store.Root()
	var target *checkpoint.Checkpoint
	for i := range list {
		if list[i].Phase == checkpoint.PhaseBefore && list[i].Turn >= to {
			target = &list[i]
			break
		}
	}
	if target == nil {
		return r, nil
	}
	plan, err := store.Restore(ctx, *target, force, dryRun)
	r.plan = plan
	return r, err
}

// changes says whether the restore changes any file.
func (r codeRewind) changes() bool { return r.plan != nil && len(r.plan.Changes) > 0 }

// lines lists what the restore did or would do, one line a file after
// the first; unforced says how a conflict would still be overwritten.
func (r codeRewind) lines(id, unforced string) []string {
	switch {
	case r.noCheckpoints:
		return []string{fmt.Sprintf("files: session %s has no checkpoints (it changed nothing, or llmrt kept none then); nothing to restore", id)}
	case r.plan == nil:
		return []string{fmt.Sprintf("files: nothing changed from turn %d on; nothing to restore", r.to)}
	}
	verb := "restored"
	if r.dryRun {
		verb = "would restore"
	}
	out := []string{fmt.Sprintf("files: %s %s to before turn %d (%d change(s))", verb, r.root, r.to, len(r.plan.Changes))}
	for _, ch := range r.plan.Changes {
		out = append(out, "  "+describeChange(ch))
	}
	if r.dryRun && !r.force {
		for _, p := range r.plan.Conflicts {
			out = append(out, fmt.Sprintf("  changed outside llmrt, %s: %s", unforced, p))
		}
	}
	for _, p := range r.plan.Skipped {
		out = append(out, "  left alone (over the size limit, not kept): "+p)
	}
	for _, p := range r.plan.Kept {
		out = append(out, "  left alone (holds ignored files): "+p+"/")
	}
	return out
}

// describeChange is one line of a restore's listing, in the terms of
// what the restore does to the path.
func describeChange(ch checkpoint.Change) string {
	what := map[string]string{checkpoint.Created: "recreate", checkpoint.Modified: "rewrite", checkpoint.Deleted: "delete"}[ch.Kind]
	path := ch.Path
	if ch.Dir {
		return what + " " + path + "/"
	}
	return fmt.Sprintf("%s %s (+%d -%d lines)", what, path, ch.Added, ch.Removed)
}

// rewindChat branches the conversation before turn to's prompt (see
// branchSession).
func rewindChat(f *Factory, st *session.Store, sess *session.Session, to int, o rewindOptions) error {
	b, err := branchSession(st, sess, to, o.dryRun)
	if err != nil {
		return err
	}
	if o.dryRun {
		fmt.Fprintf(f.IO.Out, "conversation: would branch %s before turn %d (%d of %d messages)\n", sess.Meta.ID, to, b.kept, len(sess.Messages))
		return nil
	}
	fmt.Fprintf(f.IO.Out, "conversation: branched %s before turn %d as %s (%d messages)\n", sess.Meta.ID, to, b.id, b.kept)
	if b.prompt != "" {
		fmt.Fprintf(f.IO.ErrOut, "turn %d's prompt was: %s\n", to, oneLine(b.prompt, 100))
	}
	fmt.Fprintf(f.IO.ErrOut, "llmrt chat --resume %s continues it\n", b.id)
	return nil
}

// branch is a conversation cut before a turn's prompt.
type branch struct {
	id     string // the new session; "" for a dry run
	kept   int    // the messages it holds
	prompt string // the prompt of the turn it was cut before
}

// branchSession writes a new session holding sess's messages from
// before turn to's prompt, naming sess as its parent; with dryRun it
// only counts them. sess is not touched.
func branchSession(st *session.Store, sess *session.Session, to int, dryRun bool) (branch, error) {
	var keep []engine.Message
	var b branch
	n := 0
	for _, m := range sess.Messages {
		if m.Role == providers.RoleUser {
			n++
			if n == to {
				b.prompt = m.Text()
				break
			}
		}
		keep = append(keep, m)
	}
	b.kept = len(keep)
	if dryRun {
		return b, nil
	}
	meta := sess.Meta
	meta.ID, meta.Created = "", time.Time{}
	meta.Parent, meta.ParentTurn = sess.Meta.ID, to
	meta.Title = strings.TrimSpace("rewound: " + sess.Meta.Title)
	w, err := st.Create(meta)
	if err != nil {
		return b, err
	}
	for _, m := range keep {
		if err := w.WriteMessage(m); err != nil {
			w.Close()
			return b, err
		}
	}
	if err := w.Close(); err != nil {
		return b, err
	}
	b.id = w.ID()
	return b, nil
}
