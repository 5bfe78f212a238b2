package cmd

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/llmrt/llmrt/engine/session"
)

// loadSession loads the session to resume: by id, or with latest the most
// recent one of workDir (--continue). A session that cannot be read is a
// usage error: resuming is what the person asked for.
func loadSession(st *session.Store, errOut func(string), id string, latest bool, workDir string) (*session.Session, error) {
	if st.Dir == "" {
		return nil, withHint(usageErrorf("cannot resume: no session directory (HOME and XDG_STATE_HOME are unset)"), "set HOME or XDG_STATE_HOME")
	}
	if latest {
		sum, err := st.Latest(workDir)
		if errors.Is(err, session.ErrNotFound) {
			return nil, withHint(usageErrorf("--continue: no saved session for %s", workDir), "start one with llmrt run, or list them with llmrt sessions")
		}
		if err != nil {
			return nil, withHint(usageErrorf("--continue: cannot read the sessions in %s: %v", st.Dir, err), sessionDirHint(st.Dir))
		}
		id = sum.ID
	}
	sess, err := st.Load(id)
	if errors.Is(err, session.ErrNotFound) {
		return nil, withHint(usageErrorf("no session %q", id), "list saved sessions with llmrt sessions")
	}
	if err != nil {
		return nil, withHint(usageErrorf("%v", err), sessionDirHint(st.Dir))
	}
	for _, w := range sess.Warnings {
		errOut(fmt.Sprintf("session %s: %s", id, w))
	}
	return sess, nil
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
		Provider: h.s.provider, Model: h.s.model, BaseURL: h.s.backend.BaseURL,
		WorkDir: h.s.workDir, Version: Version(), Options: h.s.sessionOptions(),
	}
}
