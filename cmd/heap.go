package cmd

import (
	"os"
	"runtime"
	"runtime/debug"
)

// firstCollection is the heap size at which a llmrt process first
// collects garbage: above what a one-shot or a 100,000-token reply
// allocates, and low enough that a long tool loop's peak memory stays near
// what it was (16 MB put it up by a third).
const firstCollection = 8 << 20

// startingHeap puts the process's first garbage collection off until the
// heap reaches firstCollection, then leaves collection to GOGC's default.
//
// The runtime's first goal is a 4 MB heap, which llmrt reaches about the
// time a long reply streams in. That one collection marks the binary's
// globals and every span set up so far, and faults in the memory its
// sweep needs: about a tenth of a 100,000-token stream's CPU, for a live
// heap of 1 MB. Runs that allocate less than firstCollection never pay it;
// the others pay it once, later, and from then on collect as before. (The
// Go compiler sizes its starting heap the same way.)
//
// A GOGC or GOMEMLIMIT the user set stands.
func startingHeap() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	const runtimeMinimum = 4 << 20 // the first goal at GOGC=100, which scales with GOGC
	prev := debug.SetGCPercent(100 * firstCollection / runtimeMinimum)
	// The cleanup runs after the first collection, which finds the
	// sentinel unreachable. (32 bytes: an object under 16 bytes may share
	// a block with others and so stay reachable.)
	sentinel := new([32]byte)
	runtime.AddCleanup(sentinel, func(percent int) { debug.SetGCPercent(percent) }, prev)
}
