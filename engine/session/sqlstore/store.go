package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/llmrt/llmrt/engine/session"
)

// Options configure a Store.
type Options struct {
	// Dialect is the database's dialect; required.
	Dialect Dialect
	// Redact, when set, rewrites every record before it is stored, as
	// session.Store.Redact does.
	Redact func([]byte) []byte
	// LockTTL is how long a lock outlives its holder's last renewal;
	// zero means 30 seconds.
	LockTTL time.Duration
	// Timeout bounds each statement that runs without a caller's context:
	// a Writer's records (which come from event sinks, and which must be
	// written even after the run's context ended), lock renewals and
	// unlocks. Zero means 30 seconds.
	Timeout time.Duration
}

// Store keeps sessions in a SQL database; see the package doc. It is safe
// for concurrent use, as its *sql.DB is.
type Store struct {
	db   *sql.DB
	opts Options
	q    queries
}

var _ session.Backend = (*Store)(nil)

// New returns a Store on db, which stays the caller's to close. Call Init
// once to create the tables.
func New(db *sql.DB, opts Options) (*Store, error) {
	if opts.Dialect != SQLite && opts.Dialect != Postgres {
		return nil, fmt.Errorf("sqlstore: unknown dialect %q (use %q or %q)", opts.Dialect, SQLite, Postgres)
	}
	if opts.LockTTL <= 0 {
		opts.LockTTL = 30 * time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	return &Store{db: db, opts: opts, q: newQueries(opts.Dialect)}, nil
}

// detached is a context for statements no caller's context bounds.
func (s *Store) detached() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.opts.Timeout)
}

// CreateContext starts a session: its row and its meta record commit in
// one transaction. A generated id that is taken is replaced; a chosen one
// is an error.
func (s *Store) CreateContext(ctx context.Context, meta session.Meta) (*session.Writer, error) {
	for attempt := 0; ; attempt++ {
		m, err := session.PrepareMeta(meta)
		if err != nil {
			return nil, err
		}
		w, err := session.StartWriter(m, &records{s: s, ctx: ctx, id: m.ID, next: 0, create: true}, s.opts.Redact)
		if errors.Is(err, errExists) && meta.ID == "" && attempt < 5 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sqlstore: create: %w", err)
		}
		return w, nil
	}
}

// AppendContext reopens a session; its records follow the last one
// stored.
func (s *Store) AppendContext(ctx context.Context, id string) (*session.Writer, error) {
	if err := s.exists(ctx, id); err != nil {
		return nil, err
	}
	var last int64
	if err := s.db.QueryRowContext(ctx, s.q.lastSeq, id).Scan(&last); err != nil {
		return nil, fmt.Errorf("sqlstore: append: %w", err)
	}
	return session.NewWriter(id, &records{s: s, id: id, next: last + 1}, s.opts.Redact), nil
}

// LoadContext reads a session's records and decodes them as session.Store
// decodes a file.
func (s *Store) LoadContext(ctx context.Context, id string) (*session.Session, error) {
	if err := s.exists(ctx, id); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, s.q.records, id)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: load: %w", err)
	}
	defer rows.Close()
	var recs [][]byte
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, fmt.Errorf("sqlstore: load: %w", err)
		}
		recs = append(recs, []byte(body))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlstore: load: %w", err)
	}
	return session.Decode("session "+id, recs)
}

// ListContext summarises every session from its row, most recently
// updated first, without reading records.
func (s *Store) ListContext(ctx context.Context) ([]session.Summary, error) {
	rows, err := s.db.QueryContext(ctx, s.q.list)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: list: %w", err)
	}
	defer rows.Close()
	var out []session.Summary
	for rows.Next() {
		var sum session.Summary
		var created, updated int64
		if err := rows.Scan(&sum.ID, &created, &updated, &sum.Title, &sum.Provider, &sum.Model, &sum.WorkDir, &sum.Status, &sum.Messages); err != nil {
			return nil, fmt.Errorf("sqlstore: list: %w", err)
		}
		sum.Created, sum.Updated = time.UnixMilli(created), time.UnixMilli(updated)
		out = append(out, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlstore: list: %w", err)
	}
	return out, nil
}

// exists checks id and that its session exists, wrapping
// session.ErrNotFound when it does not.
func (s *Store) exists(ctx context.Context, id string) error {
	if err := session.CheckID(id); err != nil {
		return err
	}
	var n int
	if err := s.db.QueryRowContext(ctx, s.q.sessionExists, id).Scan(&n); err != nil {
		return fmt.Errorf("sqlstore: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("session %s: %w", id, session.ErrNotFound)
	}
	return nil
}
