package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Dialect is the SQL dialect of a database: its placeholders.
type Dialect string

// Dialects.
const (
	// SQLite numbers nothing: its placeholders are ?.
	SQLite Dialect = "sqlite"
	// Postgres is PostgreSQL: its placeholders are $1, $2, ...
	Postgres Dialect = "postgres"
)

// Schema holds the statements Init runs, in order; the package doc shows
// them with what each table holds. They are the same in both dialects.
var Schema = []string{
	`CREATE TABLE IF NOT EXISTS llmrt_sessions (
	id         TEXT PRIMARY KEY,
	created_ms BIGINT NOT NULL,
	updated_ms BIGINT NOT NULL,
	title      TEXT NOT NULL DEFAULT '',
	provider   TEXT NOT NULL DEFAULT '',
	model      TEXT NOT NULL DEFAULT '',
	workdir    TEXT NOT NULL DEFAULT '',
	status     TEXT NOT NULL DEFAULT '',
	messages   INTEGER NOT NULL DEFAULT 0
)`,
	`CREATE INDEX IF NOT EXISTS llmrt_sessions_by_update ON llmrt_sessions (updated_ms, id)`,
	`CREATE TABLE IF NOT EXISTS llmrt_session_records (
	session_id TEXT NOT NULL REFERENCES llmrt_sessions (id) ON DELETE CASCADE,
	seq        BIGINT NOT NULL,
	type       TEXT NOT NULL,
	body       TEXT NOT NULL,
	PRIMARY KEY (session_id, seq)
)`,
	`CREATE TABLE IF NOT EXISTS llmrt_session_locks (
	session_id TEXT PRIMARY KEY REFERENCES llmrt_sessions (id) ON DELETE CASCADE,
	owner      TEXT NOT NULL,
	expires_ms BIGINT NOT NULL
)`,
}

// Init creates the tables and index of Schema that are missing.
func (s *Store) Init(ctx context.Context) error {
	for _, stmt := range Schema {
		if _, err := s.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("sqlstore: init: %w", err)
		}
	}
	return nil
}

// queries are the statements of a Store, in its dialect. Each is written
// with ? placeholders, none inside a literal.
type queries struct {
	insertSession, insertRecord, touchSession string
	sessionExists, lastSeq, records, list     string
	lock, renew, unlock                       string
}

func newQueries(d Dialect) queries {
	q := queries{
		insertSession: `INSERT INTO llmrt_sessions (id, created_ms, updated_ms, title, provider, model, workdir)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		insertRecord: `INSERT INTO llmrt_session_records (session_id, seq, type, body)
			VALUES (?, ?, ?, ?) ON CONFLICT (session_id, seq) DO NOTHING`,
		touchSession: `UPDATE llmrt_sessions SET
			updated_ms = CASE WHEN updated_ms < ? THEN ? ELSE updated_ms END,
			messages = messages + ?, status = COALESCE(?, status) WHERE id = ?`,
		sessionExists: `SELECT COUNT(*) FROM llmrt_sessions WHERE id = ?`,
		lastSeq:       `SELECT COALESCE(MAX(seq), -1) FROM llmrt_session_records WHERE session_id = ?`,
		records:       `SELECT body FROM llmrt_session_records WHERE session_id = ? ORDER BY seq`,
		list: `SELECT id, created_ms, updated_ms, title, provider, model, workdir, status, messages
			FROM llmrt_sessions ORDER BY updated_ms DESC, id DESC`,
		lock: `INSERT INTO llmrt_session_locks (session_id, owner, expires_ms) VALUES (?, ?, ?)
			ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, expires_ms = excluded.expires_ms
			WHERE llmrt_session_locks.expires_ms < ?`,
		renew:  `UPDATE llmrt_session_locks SET expires_ms = ? WHERE session_id = ? AND owner = ?`,
		unlock: `DELETE FROM llmrt_session_locks WHERE session_id = ? AND owner = ?`,
	}
	if d == Postgres {
		for _, p := range []*string{&q.insertSession, &q.insertRecord, &q.touchSession, &q.sessionExists,
			&q.lastSeq, &q.records, &q.list, &q.lock, &q.renew, &q.unlock} {
			*p = numbered(*p)
		}
	}
	return q
}

// numbered turns ? placeholders into $1, $2, ...
func numbered(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
