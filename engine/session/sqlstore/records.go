package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/llmrt/llmrt/engine/session"
)

// errExists: a new session's id is taken.
var errExists = errors.New("a session with this id exists")

// records is the session.RecordWriter of one session: each record is a
// row, numbered from next, committed with its session's summary.
type records struct {
	s    *Store
	id   string
	next int64
	// create: the first record is the meta record of a new session, whose
	// row it inserts; ctx, the creating caller's context, bounds that
	// first transaction only.
	create bool
	ctx    context.Context
}

// WriteRecord inserts rec and updates its session's summary in one
// transaction; a new session's first record also inserts its row.
func (r *records) WriteRecord(rec session.Record) error {
	ctx, cancel := r.s.detached()
	defer cancel()
	if r.create {
		ctx = r.ctx
	}
	tx, err := r.s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	// Rollback after Commit does nothing; before it, it undoes a partial
	// record.
	defer func() { _ = tx.Rollback() }()
	if r.create {
		if err := r.insertSession(ctx, tx, rec); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, r.s.q.insertRecord, r.id, r.next, rec.Type, string(rec.JSON))
	if err != nil {
		return fmt.Errorf("insert %s record: %w", rec.Type, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("record %d is taken: another writer appended to the session (%v)", r.next, err)
	}
	var messages int
	var status sql.NullString
	switch rec.Type {
	case "message":
		messages, status = 1, sql.NullString{String: session.StatusIncomplete, Valid: true}
	case "end":
		status = sql.NullString{String: rec.Status, Valid: true}
	}
	ms := rec.Time.UnixMilli()
	if _, err := tx.ExecContext(ctx, r.s.q.touchSession, ms, ms, messages, status, r.id); err != nil {
		return fmt.Errorf("update session: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	r.next++
	r.create, r.ctx = false, nil
	return nil
}

// insertSession adds a new session's row from its meta record, as
// redacted, so the row holds nothing the records do not.
func (r *records) insertSession(ctx context.Context, tx *sql.Tx, rec session.Record) error {
	var l struct {
		Meta *session.Meta `json:"meta"`
	}
	if err := json.Unmarshal(rec.JSON, &l); err != nil || rec.Type != "meta" || l.Meta == nil {
		return fmt.Errorf("the first record of a session is %s, not its meta (%v)", rec.Type, err)
	}
	m := l.Meta
	res, err := tx.ExecContext(ctx, r.s.q.insertSession, r.id, m.Created.UnixMilli(), m.Created.UnixMilli(),
		m.Title, m.Provider, m.Model, m.WorkDir)
	if err != nil {
		return fmt.Errorf("insert session: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("session %s: %w", r.id, errExists)
	}
	return nil
}

// Close does nothing: every record is committed as it is written.
func (r *records) Close() error { return nil }
