package cmd

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/ui"
)

// sessionFlags are the flags of the commands that hold a conversation,
// run and chat: which session to continue, or none to save.
type sessionFlags struct {
	resume    string
	cont      bool
	noSession bool
}

func (sf *sessionFlags) register(fs *pflag.FlagSet, what string) {
	fs.StringVar(&sf.resume, "resume", "", "continue a saved session by id")
	fs.BoolVarP(&sf.cont, "continue", "c", false, "continue the most recent session of this directory")
	fs.BoolVar(&sf.noSession, "no-session", false, "do not save this "+what+" as a session")
}

// openHost resolves the settings (those of a resumed session unless flags
// override them) and returns the host for the command's runs, with the
// session to resume, if any, whose lock the host holds until the caller
// lets it go (hold(nil)). noQuestions makes questions pause the run
// even on a terminal (see cmdHost).
func (f *Factory) openHost(ctx context.Context, flags config.Layer, sf sessionFlags, noQuestions bool) (*cmdHost, *session.Session, error) {
	if sf.resume != "" && sf.cont {
		return nil, nil, usageErrorf("--resume and --continue cannot be combined")
	}
	dir, err := workDir(deref(flags.Cwd))
	if err != nil {
		return nil, nil, err
	}
	errOut := f.secrets.writer(f.IO.ErrOut)
	var sess *session.Session
	var resumed *session.Meta
	release := func() {}
	if sf.resume != "" || sf.cont {
		warn := func(msg string) { fmt.Fprintf(errOut, "llmrt: warning: %s\n", ui.Sanitize(msg)) }
		if sess, release, err = loadSession(ctx, f.Sessions(), warn, sf.resume, sf.cont, dir); err != nil {
			return nil, nil, err
		}
		resumed = &sess.Meta
	}
	s, err := f.resolveSettings(ctx, flags, true, resumed)
	if err != nil {
		release()
		return nil, nil, err
	}
	if isTrue(flags.NoColor) {
		f.IO.DisableColor()
	}
	var store *session.Store
	if !sf.noSession {
		store = f.Sessions()
	}
	h := newHost(f.IO, s, store, f.secrets)
	h.hold(release)
	h.hookStart = "startup"
	if sess != nil {
		h.hookStart = "resume"
	}
	h.noQuestions = noQuestions
	if policy, on := checkpointPolicy(s.cfg.Checkpoints); on && store != nil {
		if dir := checkpointsDir(f.Getenv); dir != "" {
			h.checkpoints = &checkpointer{base: dir, root: s.workDir, policy: policy, warn: func(msg string) { h.warnf("%s", msg) }}
		}
	}
	if w := stateHomeWarning(f.Getenv); w != "" && store != nil {
		h.warnf("%s; sessions are saved in %s", w, store.Dir)
	}
	return h, sess, nil
}
