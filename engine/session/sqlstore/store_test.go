package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/engine/session/sessiontest"
	"github.com/llmrt/llmrt/engine/session/sqlstore"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, linked by the tests only
)

// dsn is a file-backed SQLite database that several connections and
// processes share: writers wait for each other instead of failing.
func dsn(path string) string {
	return "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)"
}

// open returns a Store on a new database file, and its *sql.DB.
func open(t *testing.T, o sqlstore.Options) (*sqlstore.Store, *sql.DB) {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(filepath.Join(t.TempDir(), "llmrt.db")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	o.Dialect = sqlstore.SQLite
	s, err := sqlstore.New(db, o)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // Init twice: it only adds what is missing
		if err := s.Init(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return s, db
}

// TestBackend runs the checks every session backend passes.
func TestBackend(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Backend {
		s, _ := open(t, sqlstore.Options{})
		return s
	})
}

// TestNewChecksDialect: a dialect is required and must be known.
func TestNewChecksDialect(t *testing.T) {
	for _, d := range []sqlstore.Dialect{"", "mysql"} {
		if _, err := sqlstore.New(nil, sqlstore.Options{Dialect: d}); err == nil {
			t.Errorf("New with dialect %q: got nil error", d)
		}
	}
}

// TestRedact: no known secret reaches a record or a session's row.
func TestRedact(t *testing.T) {
	const secret = "sk-secret-123"
	s, db := open(t, sqlstore.Options{Redact: func(b []byte) []byte {
		return []byte(strings.ReplaceAll(string(b), secret, "[redacted]"))
	}})
	w, err := s.CreateContext(context.Background(), session.Meta{Title: "use key " + secret})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteMessage(engine.UserMessage("the key is " + secret)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	var n int
	q := `SELECT (SELECT COUNT(*) FROM llmrt_session_records WHERE body LIKE '%' || ? || '%') +
		(SELECT COUNT(*) FROM llmrt_sessions WHERE title LIKE '%' || ? || '%')`
	if err := db.QueryRow(q, secret, secret).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows holding the secret: got %d (%v), want 0", n, err)
	}
	l, _ := s.ListContext(context.Background())
	if len(l) != 1 || l[0].Title != "use key [redacted]" {
		t.Errorf("listing: got %+v, want the redacted title", l)
	}
}

// TestWritersDoNotInterleave: of two writers appending after the same
// record, the second fails rather than interleave the conversations.
func TestWritersDoNotInterleave(t *testing.T) {
	s, _ := open(t, sqlstore.Options{})
	ctx := context.Background()
	w, err := s.CreateContext(ctx, session.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	a, _ := s.AppendContext(ctx, w.ID())
	b, _ := s.AppendContext(ctx, w.ID())
	if err := a.WriteMessage(engine.UserMessage("a")); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteMessage(engine.UserMessage("b")); err == nil {
		t.Error("second writer: got nil error, want its record number taken")
	}
	if err := b.WriteMessage(engine.UserMessage("b again")); err == nil {
		t.Error("second writer after a failure: got nil error, want the first failure again")
	}
	sess, err := s.LoadContext(ctx, w.ID())
	if err != nil || len(sess.Messages) != 1 || sess.Messages[0].Text() != "a" {
		t.Errorf("session: got %+v (%v), want only the first writer's message", sess, err)
	}
}

// TestLockLapses: a lock whose holder stopped renewing it (a process
// that died) is taken over once expired; an unexpired one is not. A lock
// taken over while held is reported lost when its holder unlocks.
func TestLockLapses(t *testing.T) {
	s, db := open(t, sqlstore.Options{LockTTL: time.Hour})
	ctx := context.Background()
	w, err := s.CreateContext(ctx, session.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	id := w.ID()
	now := time.Now().UnixMilli()
	if _, err := db.Exec(`INSERT INTO llmrt_session_locks (session_id, owner, expires_ms) VALUES (?, 'dead', ?)`, id, now+60_000); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lock(ctx, id); !errors.Is(err, session.ErrLocked) {
		t.Fatalf("Lock held by another: got %v, want ErrLocked", err)
	}
	if _, err := db.Exec(`UPDATE llmrt_session_locks SET expires_ms = ? WHERE session_id = ?`, now-1, id); err != nil {
		t.Fatal(err)
	}
	unlock, err := s.Lock(ctx, id)
	if err != nil {
		t.Fatalf("Lock of an expired lock: %v", err)
	}
	if _, err := db.Exec(`UPDATE llmrt_session_locks SET owner = 'thief' WHERE session_id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err == nil || !strings.Contains(err.Error(), "lost") {
		t.Errorf("unlock of a lock taken over: got %v, want it reported lost", err)
	}
}
