package replay

import (
	"runtime"
	"testing"
)

// AllocPerByte starts counting the bytes a benchmark allocates; the
// function it returns, called after the loop, reports them per byte of
// input as "B/byte" (size is the input of one iteration). The stream
// parsers' target is a fraction of a byte, which B/op hides.
func AllocPerByte(b *testing.B, size int) func() {
	b.Helper()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	start := m.TotalAlloc
	return func() {
		runtime.ReadMemStats(&m)
		if b.N > 0 && size > 0 {
			b.ReportMetric(float64(m.TotalAlloc-start)/float64(b.N)/float64(size), "B/byte")
		}
	}
}
