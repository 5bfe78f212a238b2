package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// emitter serialises events from the loop and tool goroutines to the sink.
// Once the sink refuses an event the run is cancelled and nothing more is
// delivered.
type emitter struct {
	mu       sync.Mutex
	sink     func(Event) bool
	cancel   context.CancelFunc
	runID    string
	parentID string
	iter     int
	stopped  bool
	// silent says no one sees the events as they are emitted (Complete
	// without an observer), so streamed answer text is shown to no one
	// and a restart cannot contradict it.
	silent bool
	// report hears every warning, whoever else does (Config.Reporter).
	report Reporter
}

func (e *emitter) emit(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ev.Type == EventWarning && e.report != nil {
		e.report.Warn(e.runID, *ev.Warning)
	}
	if e.stopped {
		return
	}
	ev.RunID, ev.ParentID, ev.Iteration = e.runID, e.parentID, e.iter
	ev.Time = time.Now()
	if !e.sink(ev) {
		e.stopped = true
		e.cancel()
	}
}

func (e *emitter) setIter(n int) {
	e.mu.Lock()
	e.iter = n
	e.mu.Unlock()
}

// forward delivers an event of a sub-run as it is, keeping its run id,
// parent id and iteration.
func (e *emitter) forward(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return
	}
	if !e.sink(ev) {
		e.stopped = true
		e.cancel()
	}
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "run_" + hex.EncodeToString(b[:])
}
