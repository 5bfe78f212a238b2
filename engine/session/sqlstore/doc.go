// Package sqlstore keeps llmrt sessions in a SQL database through
// database/sql, so that a service running the engine on several machines
// keeps its sessions and paused runs in one place: a run paused on one
// machine is resumed by token on another (session.NewCheckpoints over a
// Store). Store is a session.Backend; the command line keeps its JSONL
// files.
//
// The package imports no driver: the program opens the *sql.DB with the
// driver it links and names its Dialect. SQLite (modernc.org/sqlite,
// driver "sqlite", or any other) and PostgreSQL (pgx's stdlib, lib/pq)
// run the same statements; only the placeholders differ (? and $1).
// With SQLite, let writers wait for each other instead of failing with
// "database is locked": open it with a busy timeout and, for several
// processes, the WAL journal, e.g. with modernc.org/sqlite
//
//	file:/var/lib/app/llmrt.db?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)
//
// # Schema
//
// Init creates the tables when they are missing (Schema holds the same
// statements, for a migration tool):
//
//	CREATE TABLE IF NOT EXISTS llmrt_sessions (
//		id         TEXT PRIMARY KEY,
//		created_ms BIGINT NOT NULL,
//		updated_ms BIGINT NOT NULL,
//		title      TEXT NOT NULL DEFAULT '',
//		provider   TEXT NOT NULL DEFAULT '',
//		model      TEXT NOT NULL DEFAULT '',
//		workdir    TEXT NOT NULL DEFAULT '',
//		status     TEXT NOT NULL DEFAULT '',
//		messages   INTEGER NOT NULL DEFAULT 0
//	);
//	CREATE INDEX IF NOT EXISTS llmrt_sessions_by_update ON llmrt_sessions (updated_ms, id);
//	CREATE TABLE IF NOT EXISTS llmrt_session_records (
//		session_id TEXT NOT NULL REFERENCES llmrt_sessions (id) ON DELETE CASCADE,
//		seq        BIGINT NOT NULL,
//		type       TEXT NOT NULL,
//		body       TEXT NOT NULL,
//		PRIMARY KEY (session_id, seq)
//	);
//	CREATE TABLE IF NOT EXISTS llmrt_session_locks (
//		session_id TEXT PRIMARY KEY REFERENCES llmrt_sessions (id) ON DELETE CASCADE,
//		owner      TEXT NOT NULL,
//		expires_ms BIGINT NOT NULL
//	);
//
// llmrt_session_records holds a session's records in order: body is the
// record's JSON, one line of the JSONL format session.Store writes (see
// package session), so both stores read back through the same code.
// llmrt_sessions holds one row per session with what a listing shows,
// kept up to date in the transaction that adds each record. Times are Unix
// milliseconds.
//
// # Writers, locks and machines
//
// Each record is one transaction: the record and its session's summary
// commit together or not at all. A Writer numbers its records from the
// session's last one; if another writer appended in between, the insert
// finds its number taken and the write fails instead of interleaving two
// conversations.
//
// A lock (Store.Lock) is a row in llmrt_session_locks with an owner and an
// expiry: taking it inserts the row, or takes over one that expired; the
// holder renews it every third of LockTTL until it unlocks. A process that
// dies stops renewing, so its locks lapse after LockTTL. Expiry is judged
// by the clock of the machine taking the lock: machines sharing a database
// must agree on the time to well within LockTTL.
package sqlstore
