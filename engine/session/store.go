package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotFound is returned (wrapped) when a session does not exist, and by
// Latest when no session matches.
var ErrNotFound = errors.New("session not found")

// Store is a directory of session files, one <id>.jsonl per session.
type Store struct {
	// Dir holds the session files; Create makes it (mode 0700) when
	// missing, because sessions hold private conversations.
	Dir string
	// Redact, when set, rewrites every encoded line before it is written:
	// the host removes the values of secrets it knows (API keys) that a
	// tool result or an error message may carry.
	Redact func([]byte) []byte
}

// DefaultDir returns the directory the CLI keeps sessions in:
// $XDG_STATE_HOME/llmrt/sessions, else ~/.local/state/llmrt/sessions. A
// relative XDG_STATE_HOME is ignored, as the XDG spec requires. It is empty
// when no home directory is known. getenv is usually os.Getenv; tests pass
// their own.
func DefaultDir(getenv func(string) string) string {
	if s := getenv("XDG_STATE_HOME"); s != "" && filepath.IsAbs(s) {
		return filepath.Join(s, "llmrt", "sessions")
	}
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "llmrt", "sessions")
}

func (s *Store) path(id string) string { return filepath.Join(s.Dir, id+".jsonl") }

// Create starts a new session and writes its meta line. An empty meta.ID
// gets a fresh id and a zero Created the current time; Title is put on one
// line and shortened, BaseURL loses user info and query. The file is
// created with mode 0600 and never overwrites an existing session. The
// writer holds the session's lock (see Lock) until it is closed, so no
// one resumes the session while its first run writes it.
func (s *Store) Create(meta Meta) (*Writer, error) {
	if _, err := PrepareMeta(meta); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("session: create directory: %w", err)
	}
	var f *os.File
	for attempt := 0; ; attempt++ {
		m, err := PrepareMeta(meta)
		if err != nil {
			return nil, err
		}
		f, err = os.OpenFile(s.path(m.ID), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
		if err == nil {
			meta = m
			break
		}
		// A generated id that collides is retried; a chosen one is not.
		if !errors.Is(err, fs.ErrExist) || meta.ID != "" || attempt == 5 {
			return nil, fmt.Errorf("session: create: %w", err)
		}
	}
	// Nobody else knows the new file yet, so the lock is free; where the
	// system has no locks the session is written unlocked, as before.
	_ = lockFile(f)
	w, err := StartWriter(meta, &fileRecords{f: f}, s.Redact)
	if err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Append reopens an existing session to add lines, to resume or continue
// it. A torn last line (the process died mid-write) is cut off first, since
// lines appended behind it would turn it into corruption in the middle of
// the file; Load has already reported it as skipped. A last line that is
// complete but lacks its newline gets one. Append does not take the
// session's lock: a resumer takes Lock before it loads the session and
// holds it while it appends, so that no other process appends in between
// (or repairs the tail of a line being written).
func (s *Store) Append(id string) (*Writer, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(s.path(id), os.O_RDWR|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("session: open: %w", err)
	}
	if err := repairTail(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	return NewWriter(id, &fileRecords{f: f}, s.Redact), nil
}

// repairTail makes f end at a line boundary.
func repairTail(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	if size == 0 {
		return nil
	}
	// Scan back for the last newline; the tail after it is the torn line.
	start := size
	buf := make([]byte, 64<<10)
	for start > 0 {
		n := min(int64(len(buf)), start)
		if _, err := f.ReadAt(buf[:n], start-n); err != nil && err != io.EOF {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			start = start - n + int64(i) + 1
			break
		}
		start -= n
	}
	if start == size {
		return nil
	}
	tail := make([]byte, size-start)
	if _, err := f.ReadAt(tail, start); err != nil && err != io.EOF {
		return err
	}
	if json.Valid(tail) {
		_, err = f.Write([]byte{'\n'})
	} else {
		err = f.Truncate(start)
	}
	if err == nil {
		err = f.Sync()
	}
	return err
}

// Load reads and normalises a session; see Session.
func (s *Store) Load(id string) (*Session, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("session: read: %w", err)
	}
	return parse(data, s.path(id))
}
