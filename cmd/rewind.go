package cmd

import (
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
	out := f.IO.Out
	if len(list) == 0 {
		fmt.Fprintf(out, "files: session %s has no checkpoints (it changed nothing, or llmrt kept none then); nothing to restore\n", o.id)
		return nil
	}
	var target *checkpoint.Checkpoint
	for i := range list {
		if list[i].Phase == checkpoint.PhaseBefore && list[i].Turn >= to {
			target = &list[i]
			break
		}
	}
	if target == nil {
		fmt.Fprintf(out, "files: nothing changed from turn %d on; nothing to restore\n", to)
		return nil
	}
	plan, err := store.Restore(cmd.Context(), *target, o.force, o.dryRun)
	if errors.Is(err, checkpoint.ErrConflict) {
		for _, p := range plan.Conflicts {
			fmt.Fprintf(f.IO.ErrOut, "changed outside llmrt: %s\n", p)
		}
		return &exitError{code: exitFailed,
			err:  fmt.Errorf("%d file(s) in %s changed outside llmrt since the last checkpoint", len(plan.Conflicts), store.Root()),
			hint: "--force overwrites them; --dry-run shows the whole restore"}
	}
	if err != nil {
		return err
	}
	verb := "restored"
	if o.dryRun {
		verb = "would restore"
	}
	fmt.Fprintf(out, "files: %s %s to before turn %d (%d change(s))\n", verb, store.Root(), to, len(plan.Changes))
	for _, ch := range plan.Changes {
		fmt.Fprintf(out, "  %s\n", describeChange(ch))
	}
	if o.dryRun && !o.force {
		for _, p := range plan.Conflicts {
			fmt.Fprintf(out, "  changed outside llmrt, restored only with --force: %s\n", p)
		}
	}
	for _, p := range plan.Skipped {
		fmt.Fprintf(out, "  left alone (over the size limit, not kept): %s\n", p)
	}
	for _, p := range plan.Kept {
		fmt.Fprintf(out, "  left alone (holds ignored files): %s/\n", p)
	}
	return nil
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

// rewindChat branches the conversation: a new session holding the old
// one's messages from before turn to's prompt, naming its parent. The
// old session is not touched.
func rewindChat(f *Factory, st *session.Store, sess *session.Session, to int, o rewindOptions) error {
	var keep []engine.Message
	prompt := ""
	n := 0
	for _, m := range sess.Messages {
		if m.Role == providers.RoleUser {
			n++
			if n == to {
				prompt = m.Text()
				break
			}
		}
		keep = append(keep, m)
	}
	if o.dryRun {
		fmt.Fprintf(f.IO.Out, "conversation: would branch %s before turn %d (%d of %d messages)\n", sess.Meta.ID, to, len(keep), len(sess.Messages))
		return nil
	}
	meta := sess.Meta
	meta.ID, meta.Created = "", time.Time{}
	meta.Parent, meta.ParentTurn = sess.Meta.ID, to
	meta.Title = strings.TrimSpace("rewound: " + sess.Meta.Title)
	w, err := st.Create(meta)
	if err != nil {
		return err
	}
	for _, m := range keep {
		if err := w.WriteMessage(m); err != nil {
			w.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	fmt.Fprintf(f.IO.Out, "conversation: branched %s before turn %d as %s (%d messages)\n", sess.Meta.ID, to, w.ID(), len(keep))
	if prompt != "" {
		fmt.Fprintf(f.IO.ErrOut, "turn %d's prompt was: %s\n", to, oneLine(prompt, 100))
	}
	fmt.Fprintf(f.IO.ErrOut, "llmrt chat --resume %s continues it\n", w.ID())
	return nil
}
