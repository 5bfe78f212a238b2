package sqlstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/llmrt/llmrt/engine/session"
)

// errLost: a lock expired while held (its holder stalled past LockTTL)
// and someone else took it.
var errLost = errors.New("the session's lock was lost while held")

// Lock takes session id's lock: it inserts the lock's row, or takes over a
// row that expired, or fails at once wrapping session.ErrLocked. Until
// unlock, a goroutine renews the lock every third of LockTTL; unlock stops
// it, deletes the row and reports whether the lock was lost meanwhile.
func (s *Store) Lock(ctx context.Context, id string) (func() error, error) {
	if err := s.exists(ctx, id); err != nil {
		return nil, err
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	owner := hex.EncodeToString(b[:])
	now := time.Now()
	res, err := s.db.ExecContext(ctx, s.q.lock, id, owner, now.Add(s.opts.LockTTL).UnixMilli(), now.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("sqlstore: lock: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, fmt.Errorf("session %s: %w", id, session.ErrLocked)
	}
	l := &lease{s: s, id: id, owner: owner, stop: make(chan struct{}), done: make(chan struct{})}
	go l.renew()
	return l.unlock, nil
}

// lease is a lock this process holds. Its renewing goroutine ends when
// unlock closes stop.
type lease struct {
	s         *Store
	id, owner string
	stop      chan struct{}
	done      chan struct{}
	once      sync.Once
	lost      bool // set by renew, read by unlock after done
	err       error
}

func (l *lease) renew() {
	defer close(l.done)
	t := time.NewTicker(l.s.opts.LockTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		ctx, cancel := l.s.detached()
		res, err := l.s.db.ExecContext(ctx, l.s.q.renew, time.Now().Add(l.s.opts.LockTTL).UnixMilli(), l.id, l.owner)
		cancel()
		// A failed renewal is tried again at the next tick; the lock holds
		// until it expires.
		if err == nil {
			if n, err := res.RowsAffected(); err == nil && n == 0 {
				l.lost = true
				return
			}
		}
	}
}

func (l *lease) unlock() error {
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		ctx, cancel := l.s.detached()
		defer cancel()
		res, err := l.s.db.ExecContext(ctx, l.s.q.unlock, l.id, l.owner)
		var n int64
		if err == nil {
			n, err = res.RowsAffected()
		}
		switch {
		case err != nil:
			l.err = fmt.Errorf("sqlstore: unlock session %s: %w", l.id, err)
		case l.lost || n == 0:
			l.err = fmt.Errorf("sqlstore: session %s: %w", l.id, errLost)
		}
	})
	return l.err
}
