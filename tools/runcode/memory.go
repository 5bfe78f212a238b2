package runcode

import (
	"fmt"
	"runtime"
	"runtime/metrics"
)

// defaultMemory is the memory one Starlark program may take.
const defaultMemory = 256 << 20

// pollSteps is how many Starlark steps run between two looks at the heap.
const pollSteps = 4096

// memory bounds the memory one Starlark program allocates, so that a
// program cannot end llmrt with "fatal error: out of memory", which Go
// cannot recover from: the allocation has to be refused before it is
// made.
//
// Starlark has no allocation hook, so the bound is kept in two ways:
//
//   - Operations that can ask for a lot in one step — repetition (x * n),
//     concatenation, formatting, str and repr, json.encode, join, replace,
//     split, and the constructors that size their result from a range —
//     are charged before they run with what their result will take (see
//     guardProgram and the guarded builtins), and refused when it does
//     not fit.
//   - Every pollSteps steps, and on every charge, the heap is measured:
//     once it has grown by more than the limit since the program started
//     the program is stopped.
//
// What it does not cover: the measure is the process's heap, so what
// other goroutines allocate while the program runs (another program of a
// sub-run, the screen) counts too, and garbage left from before the
// program can lend it a little room; an operation the guards do not know
// (a host global's function, a tool's result, which is capped anyway) is
// seen only after it returns; and the limit is for Starlark's values, not
// for the tools a program calls, which are bounded on their own.
type memory struct {
	limit uint64
	base  uint64 // heap objects when the program started
	gcAt  uint64 // heap objects after the last collection forced here

	// pending is what was charged since the heap was last measured:
	// small charges are added up rather than each measured.
	pending uint64
	sample  []metrics.Sample
}

// heapObjects is the runtime metric memory watches: the bytes of heap
// objects, live or not yet collected.
const heapObjects = "/memory/classes/heap/objects:bytes"

// newMemory starts the accounting of a program that may take limit bytes.
func newMemory(limit uint64) *memory {
	m := &memory{limit: limit, sample: []metrics.Sample{{Name: heapObjects}}}
	m.base = m.heap()
	return m
}

func (m *memory) heap() uint64 {
	metrics.Read(m.sample)
	if m.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m.sample[0].Value.Uint64()
}

// used is how much the heap has grown since the program started.
func (m *memory) used() uint64 {
	h := m.heap()
	if h < m.base {
		return 0
	}
	return h - m.base
}

// charge reserves n bytes for an allocation the program is about to
// make, and fails when they do not fit under the limit. Charges of under
// a mebibyte are added up and the heap measured once they reach one, so
// small operations cost no measurement each.
func (m *memory) charge(n uint64) error {
	if n > m.limit {
		return m.exceeded()
	}
	if m.pending += n; m.pending < 1<<20 {
		return nil
	}
	m.pending = 0
	return m.fits(n)
}

// check stops a program whose heap has outgrown the limit step by step.
func (m *memory) check() error {
	m.pending = 0
	return m.fits(0)
}

// fits measures the heap and fails when n more bytes would pass the
// limit.
func (m *memory) fits(n uint64) error {
	if m.used()+n <= m.limit {
		return nil
	}
	// The heap holds garbage too: collect it before deciding, unless a
	// collection forced here is recent (the heap has grown little since),
	// so a program that works close to its limit does not collect at
	// every step.
	if h := m.heap(); h >= m.gcAt+m.limit/8 {
		runtime.GC()
		m.gcAt = m.heap()
		// Garbage that was there when the program started has gone
		// too: what is left is at least the heap the program started
		// from, so the base comes down to it.
		m.base = min(m.base, m.gcAt)
		if m.used()+n <= m.limit {
			return nil
		}
	}
	return m.exceeded()
}

func (m *memory) exceeded() error { return memoryLimit(m.limit) }

// memoryLimit is the error of a program that would pass its memory limit.
type memoryLimit uint64

func (l memoryLimit) Error() string {
	return fmt.Sprintf("memory limit of %s reached: the program was stopped before allocating more", mebibytes(uint64(l)))
}

// mebibytes renders n bytes as "256 MiB".
func mebibytes(n uint64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
