package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// Backend is a place sessions are kept. Store, the JSONL files on one
// machine, is the default; sqlstore.Store keeps them in a database that
// several machines share. A host records, lists and resumes sessions the
// same way on either, and NewCheckpoints keeps the engine's paused runs in
// any Backend.
//
// What a paused run must survive is the process that paused it: every
// record a Writer returned from is durable. What two processes racing to
// resume it must not do is both go on with it: Lock gives one of them the
// session, and the other fails at once with ErrLocked. A lock lapses when
// the process holding it dies, so a crash cannot strand a session.
type Backend interface {
	// CreateContext starts a new session and writes its meta record; see
	// Store.Create. A chosen meta.ID that exists is an error.
	CreateContext(ctx context.Context, meta Meta) (*Writer, error)
	// AppendContext reopens session id to add records. It wraps
	// ErrNotFound when there is no such session.
	AppendContext(ctx context.Context, id string) (*Writer, error)
	// LoadContext reads and normalises a session; see Session. It wraps
	// ErrNotFound when there is no such session.
	LoadContext(ctx context.Context, id string) (*Session, error)
	// ListContext summarises every session, most recently updated first.
	ListContext(ctx context.Context) ([]Summary, error)
	// Lock takes session id's lock for the caller alone, or fails at once
	// with an error wrapping ErrLocked while someone else holds it (or
	// ErrNotFound). unlock releases it and reports a lock that was lost
	// while held. A caller that resumes a session takes its lock before
	// it loads it and keeps it while it appends, so no one else appends
	// in between; AppendContext does not take it. Store's CreateContext
	// holds the new session's lock until its writer is closed.
	Lock(ctx context.Context, id string) (unlock func() error, err error)
}

// ErrLocked is returned (wrapped) by Lock while another caller holds the
// session's lock.
var ErrLocked = errors.New("session is locked")

// LockedError is the error of Lock while another holds the session's
// lock, naming that process where the system tells (Store on Linux). It
// matches ErrLocked.
type LockedError struct {
	// PID is the process holding the lock, 0 when not known.
	PID int
}

// Error says the session is locked, by which process if known.
func (e *LockedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%v by process %d", ErrLocked, e.PID)
	}
	return ErrLocked.Error()
}

// Is makes a LockedError match ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// WaitLock is b.Lock retried while the session is locked, until wait has
// passed or ctx ends: for a second run on a session, which should get it
// when the first ends soon. The last error is returned (wrapping
// ErrLocked, as a *LockedError where the backend names the holder).
func WaitLock(ctx context.Context, b Backend, id string, wait time.Duration) (func() error, error) {
	deadline := time.Now().Add(wait)
	for {
		unlock, err := b.Lock(ctx, id)
		if !errors.Is(err, ErrLocked) || !time.Now().Before(deadline) {
			return unlock, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(min(100*time.Millisecond, time.Until(deadline))):
		}
	}
}

// Record is one record of a session as a Writer hands it to its
// RecordWriter: one line of the JSONL format.
type Record struct {
	// Type is "meta", "message", "compacted" or "end"; a newer llmrt may
	// add others, which Decode skips.
	Type string
	Time time.Time
	// Status is the run status of an end record.
	Status string
	// JSON is the encoded record, redacted, without a newline.
	JSON []byte
}

// RecordWriter stores the records of one session in the order they come.
// WriteRecord returns once the record is durable. A Writer calls it one
// record at a time and stops at its first error. A Backend other than
// Store implements it to hand out Writers (NewWriter).
type RecordWriter interface {
	WriteRecord(rec Record) error
	Close() error
}

// NewWriter returns a Writer appending to session id through dst,
// redacting every record with redact when it is set. A Backend's
// CreateContext calls StartWriter instead, which writes the meta record.
func NewWriter(id string, dst RecordWriter, redact func([]byte) []byte) *Writer {
	return &Writer{dst: dst, id: id, redact: redact}
}

// StartWriter returns a Writer for a new session through dst, having
// written meta as its first record. meta comes from PrepareMeta.
func StartWriter(meta Meta, dst RecordWriter, redact func([]byte) []byte) (*Writer, error) {
	w := NewWriter(meta.ID, dst, redact)
	if err := w.writeLine(line{Type: lineMeta, Time: meta.Created, Meta: &meta}); err != nil {
		return nil, err
	}
	return w, nil
}

// PrepareMeta fills in a new session's meta as every Backend stores it: a
// fresh ID when none is chosen (a chosen one must be a plain name), the
// current time for a zero Created, Title on one line and shortened,
// BaseURL without user info or query.
func PrepareMeta(meta Meta) (Meta, error) {
	if meta.Created.IsZero() {
		meta.Created = time.Now()
	}
	meta.Title = title(meta.Title)
	meta.BaseURL = redactURL(meta.BaseURL)
	if meta.ID == "" {
		meta.ID = newID(meta.Created)
		return meta, nil
	}
	return meta, CheckID(meta.ID)
}

// CheckID refuses a session id that is not a plain name (empty, path
// separators, "..", a leading dot), so an id from the command line or a
// token can reach no other file or key.
func CheckID(id string) error { return checkID(id) }

// Decode reads a session from its records, in order, as Load does from a
// file: a torn last record is skipped with a warning, a corrupt one
// anywhere else is an error naming name and the record's number, and the
// conversation is normalised (see Session).
func Decode(name string, records [][]byte) (*Session, error) {
	return parse(bytes.Join(records, []byte{'\n'}), name)
}

// Latest returns the most recently updated readable session of b whose
// work directory is workdir. It wraps ErrNotFound when there is none.
func Latest(ctx context.Context, b Backend, workdir string) (Summary, error) {
	all, err := b.ListContext(ctx)
	if err != nil {
		return Summary{}, err
	}
	want := filepath.Clean(workdir)
	for _, sum := range all {
		if sum.Error == "" && sum.WorkDir != "" && filepath.Clean(sum.WorkDir) == want {
			return sum, nil
		}
	}
	return Summary{}, fmt.Errorf("session: no session for %s: %w", workdir, ErrNotFound)
}
