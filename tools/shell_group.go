package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// stopGroup sends SIGTERM to the process group, gives it grace to exit,
// then sends SIGKILL to whatever is left, and returns Wait's result when
// done is given. A member that ignores SIGTERM is therefore gone after
// grace at the latest.
func stopGroup(pgid int, grace time.Duration, done <-chan error) error {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for groupAlive(pgid) && time.Now().Before(deadline) {
		time.Sleep(25 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	// SIGKILL is delivered asynchronously; wait (briefly) until the
	// members are really gone, so the caller can promise nothing is left.
	for deadline = time.Now().Add(time.Second); groupAlive(pgid) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if done == nil {
		return nil
	}
	return <-done
}

// groupAlive reports whether the group still has a running member. A
// signal probe alone is not enough: killed children are re-parented to
// init and stay zombies, still counted in the group, until init reaps
// them, which can take a second or more in a container.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	live, ok := liveMembers(pgid)
	return !ok || len(live) > 0
}

// liveMembers lists the non-zombie processes of group pgid from /proc; ok
// is false when /proc cannot be read (not Linux), and the caller must
// assume the group is alive.
func liveMembers(pgid int) (pids []int, ok bool) {
	procs, ok := processTable()
	for _, p := range procs {
		if p.pgrp == pgid && !p.zombie {
			pids = append(pids, p.pid)
		}
	}
	return pids, ok
}

// procInfo is what the process table says of one process.
type procInfo struct {
	pid, ppid, pgrp int
	zombie          bool
	start           uint64 // clock ticks after boot
}

// processTable reads /proc; ok is false where it cannot be read.
func processTable() (procs []procInfo, ok bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // exited meanwhile
		}
		// Fields after the parenthesised command name: state ppid pgrp …
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		pgrp, _ := strconv.Atoi(fields[2])
		var start uint64
		if len(fields) > 19 {
			start, _ = strconv.ParseUint(fields[19], 10, 64)
		}
		procs = append(procs, procInfo{pid: pid, ppid: ppid, pgrp: pgrp, zombie: fields[0] == "Z" || fields[0] == "X", start: start})
	}
	return procs, true
}
