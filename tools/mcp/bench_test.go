package mcp

import (
	"context"
	"os"
	"testing"
	"time"
)

// benchStart starts n stdio servers (this test binary) together and
// closes them, once per iteration. Compare -bench 'Start/1' with 'Start/3'.
func BenchmarkStart(b *testing.B) {
	exe, _ := os.Executable()
	for _, n := range []int{1, 3} {
		b.Run(map[int]string{1: "1", 3: "3"}[n], func(b *testing.B) {
			var list []Server
			for i := 0; i < n; i++ {
				list = append(list, Server{Name: "s" + itoa(i), Command: exe, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1"}})
			}
			for b.Loop() {
				src := New(list, b.TempDir())
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_ = src.Start(ctx)
				cancel()
				if d := src.Diagnostics(); len(d) > 0 {
					b.Fatal(d)
				}
				b.StopTimer()
				src.Close()
				b.StartTimer()
			}
		})
	}
}
