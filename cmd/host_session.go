package cmd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/llmrt/llmrt/engine/session"
)

// sessionLockWait is how long a run waits for the lock of a session that
// another run is writing before it gives up.
const sessionLockWait = 3 * time.Second

// loadSession loads the session to resume: by id, or with latest the most
// recent one of workDir (--continue). A session that cannot be read is a
// usage error: resuming is what the person asked for.
//
// The session's lock is taken first, so that no other run appends to it
// between this load and this run's end, and what is loaded is what this
// run continues; release lets it go. A session another run holds is
// waited for a moment (sessionLockWait), then a usage error naming that
// run's process. Where the system has no locks, the session is loaded
// unlocked, with a warning.
func loadSession(ctx context.Context, st *session.Store, errOut func(string), id string, latest bool, workDir string) (sess *session.Session, release func(), err error) {
	if st.Dir == "" {
		return nil, nil, withHint(usageErrorf("cannot resume: no session directory (HOME and XDG_STATE_HOME are unset)"), "set HOME or XDG_STATE_HOME")
	}
	if latest {
		sum, err := st.Latest(workDir)
		if errors.Is(err, session.ErrNotFound) {
			return nil, nil, withHint(usageErrorf("--continue: no saved session for %s", workDir), "start one with llmrt run, or list them with llmrt sessions")
		}
		if err != nil {
			return nil, nil, withHint(usageErrorf("--continue: cannot read the sessions in %s: %v", st.Dir, err), sessionDirHint(st.Dir))
		}
		id = sum.ID
	}
	release, err = lockSession(ctx, st, errOut, id)
	if err != nil {
		return nil, nil, err
	}
	sess, err = st.Load(id)
	if err != nil {
		release()
	}
	if errors.Is(err, session.ErrNotFound) {
		return nil, nil, withHint(usageErrorf("no session %q", id), "list saved sessions with llmrt sessions")
	}
	if err != nil {
		return nil, nil, withHint(usageErrorf("%v", err), sessionDirHint(st.Dir))
	}
	for _, w := range sess.Warnings {
		errOut(fmt.Sprintf("session %s: %s", id, w))
	}
	return sess, release, nil
}

// lockSession takes session id's lock for loadSession.
func lockSession(ctx context.Context, st *session.Store, errOut func(string), id string) (func(), error) {
	unlock, err := session.WaitLock(ctx, st, id, sessionLockWait)
	var locked *session.LockedError
	switch {
	case err == nil:
		return func() { unlock() }, nil
	case errors.Is(err, session.ErrNotFound):
		return nil, withHint(usageErrorf("no session %q", id), "list saved sessions with llmrt sessions")
	case errors.As(err, &locked):
		who := "another process"
		if locked.PID > 0 {
			who = fmt.Sprintf("process %d", locked.PID)
		}
		return nil, withHint(usageErrorf("session %s is in use by %s, another run writing it", id, who),
			"wait for that run to end and try again, or start a new session (without --resume or --continue)")
	case errors.Is(err, session.ErrLocked) || ctx.Err() != nil:
		return nil, err
	}
	errOut(fmt.Sprintf("session %s is resumed without its lock: %v", id, err))
	return func() {}, nil
}

// sessionDirHint says how to fix a session directory that cannot be used.
func sessionDirHint(dir string) string {
	return fmt.Sprintf("make sure %s can be created and written, or set XDG_STATE_HOME to a directory you own; --no-session runs without saving", dir)
}

// stateHomeWarning explains an XDG_STATE_HOME that is set but ignored.
func stateHomeWarning(getenv func(string) string) string {
	if v := getenv("XDG_STATE_HOME"); v != "" && !filepath.IsAbs(v) {
		return fmt.Sprintf("XDG_STATE_HOME=%q is not an absolute path, so it is ignored", v)
	}
	return ""
}

// meta describes a new session of runs with the host's settings: where
// it ran and the options that shaped it, never a key. The conversation
// titles it with its first prompt.
func (h *cmdHost) meta() session.Meta {
	return session.Meta{
		ID:       h.sessionID,
		Provider: h.s.provider, Model: h.s.model, BaseURL: h.s.backend.BaseURL,
		WorkDir: h.s.workDir, Version: Version(), Options: h.s.sessionOptions(),
	}
}
