package mcp

import (
	"bytes"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// killGrace is how long a server's process group has after SIGTERM.
const killGrace = 2 * time.Second

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if b.buf.Len() > b.max {
		rest := b.buf.Bytes()[b.buf.Len()-b.max:]
		nb := append([]byte(nil), rest...)
		b.buf.Reset()
		b.buf.Write(nb)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// stopGroup waits a grace period for a signalled process group to end,
// then kills what is left of it.
func stopGroup(pgid int) {
	deadline := time.Now().Add(killGrace)
	for time.Now().Before(deadline) {
		if !groupLive(pgid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	// Wait briefly for the group to be gone, so that a caller exiting next
	// leaves nothing behind.
	for i := 0; i < 50 && groupLive(pgid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
}

// groupLive reports whether a process group has a member that is not a
// zombie (a zombie whose parent does not reap it is dead all the same).
func groupLive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		rest := string(b)
		if i := strings.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		f := strings.Fields(rest)
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			return true
		}
	}
	return false
}
