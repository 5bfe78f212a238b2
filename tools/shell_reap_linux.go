package tools

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// startTime is the start time of process pid in clock ticks after boot, or
// 0 when it cannot be read.
func startTime(pid int) uint64 {
	procs, _ := processTable()
	for _, p := range procs {
		if p.pid == pid {
			return p.start
		}
	}
	return 0
}

// EnableSubreaper makes this process the child subreaper of everything it
// starts: a process whose parent exits is re-parented here instead of to
// init, so commands that detach (setsid, nohup, double forks) stay
// descendants of llmrt and StopAll can find them. Programs call it once at
// start-up; without it, leftovers are still found by their call marker.
func EnableSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// hasMarker reports whether process pid was started with marker in its
// environment.
func hasMarker(pid int, marker string) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	want := []byte(callMarkerVar + "=" + marker)
	for kv := range bytes.SplitSeq(env, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true
		}
	}
	return false
}

// childrenNow returns this process's live children: pid → start time.
func childrenNow() map[int]uint64 {
	self := os.Getpid()
	procs, _ := processTable()
	kids := map[int]uint64{}
	for _, p := range procs {
		if p.ppid == self && !p.zombie {
			kids[p.pid] = p.start
		}
	}
	return kids
}

// stop stops whatever the call left running, wherever it moved: every
// process carrying the call's marker and, while no other call runs, every
// process this process adopted during the call (and their descendants),
// marker or not, and the process groups they are in. SIGTERM, then
// SIGKILL after grace. A process that forks and exits faster than pids
// are read (a hopper) is gone by the time its pid is signalled, but its
// group is not. Zombies it leaves as this process's children are reaped.
// It returns how many processes and groups it found.
func (c *callWatch) stop(grace time.Duration) int {
	sole := callsRunning.Load() == 1
	live, groups, dead := c.find(sole)
	found := len(live) + len(groups)
	// The ones killed here that were re-parented to this process become
	// its zombies: reap them by pid too.
	dead = append(dead, live...)
	if found > 0 {
		left := func() bool { return len(live) > 0 || anyGroup(groups) }
		signalAll(live, groups, syscall.SIGTERM)
		for deadline := time.Now().Add(grace); left() && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
			live, groups, dead = c.more(sole, groups, dead)
			// A process forked after the signal was sent has not had it.
			signalAll(live, groups, syscall.SIGTERM)
		}
		signalAll(live, groups, syscall.SIGKILL)
		for deadline := time.Now().Add(time.Second); left() && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
			live, groups, dead = c.more(sole, groups, dead)
			signalAll(live, groups, syscall.SIGKILL)
		}
		_, _, more := c.find(sole)
		dead = append(dead, more...)
	}
	slices.Sort(dead)
	reap(slices.Compact(dead))
	return found
}

// more looks again for the call's leftovers: the live ones, the groups
// seen so far and now, and the zombies to reap.
func (c *callWatch) more(sole bool, groups, dead []int) (live, allGroups, allDead []int) {
	live, now, zombies := c.find(sole)
	for _, g := range now {
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	return live, groups, append(append(dead, zombies...), live...)
}

// anyGroup reports whether a running process is left in one of groups
// (zombies, which no signal ends, do not count).
func anyGroup(groups []int) bool {
	return slices.ContainsFunc(groups, groupAlive)
}

// find lists the call's live leftovers, the process groups they are in
// (never this process's own) and the zombies among this process's
// children that are the call's to reap. adopted says whether children
// this process adopted during the call count as the call's.
func (c *callWatch) find(adopted bool) (live, groups, dead []int) {
	self, group := os.Getpid(), syscall.Getpgrp()
	procs, _ := processTable()
	// A child in this process's own group was started by it in the
	// foreground (an editor the chat opened), never by a call, whose
	// processes start in a group of their own.
	isNew := func(p procInfo) bool {
		start, ok := c.before[p.pid]
		return p.ppid == self && p.pgrp != group && !(ok && start == p.start)
	}
	children := map[int][]int{}
	pgrp := map[int]int{}
	leads := map[int]bool{} // live processes that lead their group
	var roots []int
	for _, p := range procs {
		if p.pid == p.pgrp && !p.zombie {
			leads[p.pid] = true
		}
		if p.pid == self || (p.start < c.since && !p.zombie) {
			continue
		}
		pgrp[p.pid] = p.pgrp
		switch {
		case p.zombie:
			if p.ppid == self && (p.pgrp == c.pgid || adopted && isNew(p)) {
				dead = append(dead, p.pid)
			}
		case hasMarker(p.pid, c.marker), adopted && isNew(p):
			roots = append(roots, p.pid)
		default:
			children[p.ppid] = append(children[p.ppid], p.pid)
		}
	}
	// A leftover's descendants are leftovers too, whatever they carry.
	isLive := map[int]bool{}
	for len(roots) > 0 {
		pid := roots[0]
		roots = roots[1:]
		live = append(live, pid)
		isLive[pid] = true
		roots = append(roots, children[pid]...)
		delete(children, pid)
	}
	// A group's id is the pid of the process that made it. The group of a
	// leftover or of one of the call's zombies is signalled unless that process still runs and is not a
	// leftover: an unconfined command shares this process's session,
	// where it could join the group of a process this one started (an
	// MCP server). The members of a hopper's group have moved on by the
	// time their pids are read; its maker is long gone.
	seen := map[int]bool{}
	for _, pid := range append(live[:len(live):len(live)], dead...) {
		g := pgrp[pid]
		if g <= 1 || g == group || seen[g] {
			continue
		}
		seen[g] = true
		if !leads[g] || isLive[g] {
			groups = append(groups, g)
		}
	}
	return live, groups, dead
}

// StopAll stops every process this process started that is still running,
// children and their descendants alike (with EnableSubreaper, detached
// ones too): SIGTERM, then SIGKILL after grace. Programs call it on the
// way out, whatever the way.
func StopAll(grace time.Duration) {
	if childless() {
		// Nothing was started, or all of it has ended and been waited
		// for: the process table need not be read (thousands of entries
		// on a busy machine).
		return
	}
	self := os.Getpid()
	descendants := func() (live []int) {
		procs, ok := processTable()
		if !ok {
			return nil
		}
		children := map[int][]procInfo{}
		for _, p := range procs {
			children[p.ppid] = append(children[p.ppid], p)
		}
		queue := []int{self}
		for len(queue) > 0 {
			pid := queue[0]
			queue = queue[1:]
			for _, c := range children[pid] {
				if c.zombie {
					continue
				}
				live = append(live, c.pid)
				queue = append(queue, c.pid)
			}
		}
		return live
	}
	live := descendants()
	if len(live) == 0 {
		return
	}
	signalAll(live, nil, syscall.SIGTERM)
	for deadline := time.Now().Add(grace); len(live) > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		live = descendants()
	}
	signalAll(live, nil, syscall.SIGKILL)
	for deadline := time.Now().Add(time.Second); len(live) > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		live = descendants()
	}
}

// signalAll sends sig to each of pids and to each process group of groups.
func signalAll(pids, groups []int, sig syscall.Signal) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, sig)
	}
	for _, g := range groups {
		_ = syscall.Kill(-g, sig)
	}
}

// reap collects the exit status of zombie children by pid, never with a
// wildcard wait, which would steal the status another Wait expects.
func reap(pids []int) {
	for _, pid := range pids {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	}
}

// childless reports whether this process has no child, live or a zombie,
// forked from any of its threads. Every descendant is below a child (a
// re-parented one, with EnableSubreaper, is a child itself), so a
// childless process has none. It asks waitid for any child without
// waiting or reaping (WNOWAIT): the kernel answers ECHILD only when there
// is none, so a zombie stays for whoever waits for it. It is false when
// the kernel cannot say.
func childless() bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WSTOPPED|unix.WCONTINUED|unix.WNOHANG|unix.WNOWAIT|unix.WALL, nil)
		if err != unix.EINTR {
			return err == unix.ECHILD
		}
	}
}
