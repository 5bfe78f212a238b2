package cmd

import (
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// gogc is the GC percent in force.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func TestStartingHeapCollectsAsUsualAfterTheFirstCollection(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set in the environment, and startingHeap leaves it alone")
	}
	if got := gogc(); got != 100 {
		t.Fatalf("GOGC is %d before startingHeap, want the default 100", got)
	}
	startingHeap()
	if got, want := gogc(), uint64(100*firstCollection/(4<<20)); got != want {
		t.Fatalf("after startingHeap GOGC is %d, want %d (a first goal of %d MB)", got, want, firstCollection>>20)
	}
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for gogc() != 100 {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC is still %d 10 s after the first collection, want 100", gogc())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
