package tools

import (
	"fmt"
	"os"
	"sync/atomic"
)

// callMarkerVar is set in the environment of every shell_cmd process to a
// value unique to the call. Children inherit it, also those that leave the
// call's process group (setsid, nohup, double forks), so the call's
// leftovers can be found and stopped when it returns.
const callMarkerVar = "LLMRT_CALL"

var callSeq atomic.Uint64

// newCallMarker returns a marker no other call of this process uses.
func newCallMarker() string {
	return fmt.Sprintf("%d-%d", os.Getpid(), callSeq.Add(1))
}

// callsRunning counts the shell_cmd calls of this process that have not
// returned. It is process-wide on purpose: processes that detach from a
// call are adopted by this process (see EnableSubreaper), whichever call
// they came from, so a call may treat adopted processes as its own only
// while no other call runs.
var callsRunning atomic.Int32

// callWatch is what a shell_cmd call knows to find what it leaves behind:
// its marker, its process group, when it started, and which children
// this process had before it, so that the processes adopted during the
// call (detached ones that dropped the marker: env -i, unset) are told
// apart from the ones started on purpose, such as MCP servers.
type callWatch struct {
	marker string
	pgid   int
	since  uint64         // start time of the call's first process
	before map[int]uint64 // this process's children at the start: pid → start time
}

// watchCall starts watching a call; the caller must call done once, when
// the call returns.
func watchCall(marker string) *callWatch {
	callsRunning.Add(1)
	return &callWatch{marker: marker, before: childrenNow()}
}

// started records the call's first process, the leader of its group.
func (c *callWatch) started(pid int) {
	c.pgid = pid
	c.since = startTime(pid)
}

// done ends the watch.
func (c *callWatch) done() { callsRunning.Add(-1) }
