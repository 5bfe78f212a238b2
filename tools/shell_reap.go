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
