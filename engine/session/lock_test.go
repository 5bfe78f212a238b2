package session_test

import (
	"errors"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/llmrt/llmrt/engine/session"
)

// TestNewSessionIsLockedWhileWritten: a session's first writer holds its
// lock, so a resumer cannot take it until the writer is closed; the
// refusal names the process holding it where the system tells (Linux).
func TestNewSessionIsLockedWhileWritten(t *testing.T) {
	st := &session.Store{Dir: t.TempDir()}
	w, err := st.Create(session.Meta{Title: "first"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Lock(t.Context(), w.ID())
	var locked *session.LockedError
	if !errors.Is(err, session.ErrLocked) || !errors.As(err, &locked) {
		t.Fatalf("Lock while the first writer is open: got %v, want a *LockedError", err)
	}
	if runtime.GOOS == "linux" && locked.PID != os.Getpid() {
		t.Errorf("the lock's holder: got pid %d, want %d (this process)", locked.PID, os.Getpid())
	}
	w.Close()
	unlock, err := st.Lock(t.Context(), w.ID())
	if err != nil {
		t.Fatalf("Lock after the writer closed: %v", err)
	}
	// Appending under the lock is the resumer's way.
	aw, err := st.Append(w.ID())
	if err != nil {
		t.Fatalf("Append under the lock: %v", err)
	}
	aw.Close()
	unlock()
}

// TestWaitLock: a second locker waits while the first holds the lock a
// moment, and gives up with ErrLocked when it is held for longer.
func TestWaitLock(t *testing.T) {
	st := &session.Store{Dir: t.TempDir()}
	w, err := st.Create(session.Meta{Title: "first"})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	unlock, err := st.Lock(t.Context(), w.ID())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := session.WaitLock(t.Context(), st, w.ID(), 300*time.Millisecond); !errors.Is(err, session.ErrLocked) {
		t.Errorf("WaitLock while held: got %v, want ErrLocked", err)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("WaitLock gave up after %s, want after its 300ms", d)
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		unlock()
	}()
	second, err := session.WaitLock(t.Context(), st, w.ID(), 10*time.Second)
	if err != nil {
		t.Fatalf("WaitLock after the holder let go: %v", err)
	}
	second()
}
