package sqlstore

import (
	"strings"
	"testing"
)

// TestPostgresPlaceholders: PostgreSQL gets the same statements with
// numbered placeholders.
func TestPostgresPlaceholders(t *testing.T) {
	if got, want := numbered(`UPDATE t SET a = ? WHERE b = ? AND c = ?`), `UPDATE t SET a = $1 WHERE b = $2 AND c = $3`; got != want {
		t.Errorf("numbered: got %q, want %q", got, want)
	}
	lite, pg := newQueries(SQLite), newQueries(Postgres)
	if strings.Contains(pg.lock, "?") || !strings.Contains(pg.lock, "$4") || pg.lock != numbered(lite.lock) {
		t.Errorf("postgres lock statement: got %q", pg.lock)
	}
	if strings.Contains(pg.touchSession, "?") || !strings.Contains(pg.touchSession, "$5") {
		t.Errorf("postgres touch statement: got %q", pg.touchSession)
	}
}
