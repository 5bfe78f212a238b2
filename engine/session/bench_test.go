package session

import (
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// BenchmarkWriteEvent measures one tool_result line (1 KiB of output), with
// the sync after each line (a crash or kill loses at most the line being
// written) and without it, to show what that durability costs on the disk
// the benchmark runs on.
func BenchmarkWriteEvent(b *testing.B) {
	ev := engine.Event{
		Type: engine.EventToolResult, RunID: "run_0123456789abcdef", Iteration: 3,
		Call:    &engine.CallInfo{Index: 0, ID: "call_1", Name: "read_file"},
		Outcome: &engine.ToolOutcome{Content: strings.Repeat("package main // line\n", 50)},
	}
	for _, sync := range []bool{true, false} {
		name := "sync"
		if !sync {
			name = "nosync"
		}
		b.Run(name, func(b *testing.B) {
			store := &Store{Dir: b.TempDir()}
			w, err := store.Create(Meta{})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			w.dst.(*fileRecords).noSync = !sync
			b.ReportAllocs()
			for b.Loop() {
				if err := w.WriteEvent(ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
