package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Store is the default Backend. Local files do not block, so the Context
// methods do what their plain forms do; ctx is not consulted.
var _ Backend = (*Store)(nil)

// CreateContext is Create, for Backend.
func (s *Store) CreateContext(_ context.Context, meta Meta) (*Writer, error) { return s.Create(meta) }

// AppendContext is Append, for Backend.
func (s *Store) AppendContext(_ context.Context, id string) (*Writer, error) { return s.Append(id) }

// LoadContext is Load, for Backend.
func (s *Store) LoadContext(_ context.Context, id string) (*Session, error) { return s.Load(id) }

// ListContext is List, for Backend.
func (s *Store) ListContext(_ context.Context) ([]Summary, error) { return s.List() }

// Lock takes session id's lock: an exclusive advisory lock (flock) on its
// file, which the system releases when the process dies, so no crash
// leaves a session locked. Another Lock of the same session fails at once
// with a *LockedError (ErrLocked) naming the holder on Linux, in this
// process or another on the same machine, as it does while a writer from
// Create is open. Append does not take it: a resumer holds it.
func (s *Store) Lock(_ context.Context, id string) (func() error, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	f, err := os.Open(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("session: lock: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	// Closing the file releases the lock.
	return f.Close, nil
}

// fileRecords is the RecordWriter of a session file: each record is one
// line, written with one write call and synced.
type fileRecords struct {
	f      *os.File
	noSync bool // benchmarks only: measures what the per-line sync costs
}

// WriteRecord appends rec as a line and syncs the file.
func (fr *fileRecords) WriteRecord(rec Record) error {
	b := make([]byte, 0, len(rec.JSON)+1)
	b = append(append(b, rec.JSON...), '\n')
	if _, err := fr.f.Write(b); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if fr.noSync {
		return nil
	}
	if err := fr.f.Sync(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	return nil
}

// Close closes the file.
func (fr *fileRecords) Close() error { return fr.f.Close() }
