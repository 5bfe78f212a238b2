package mcp

import (
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkStart starts n stdio servers together and closes them, once per
// iteration; compare n=1 with n=3 of each kind (the target is n=3 under
// 1.5× n=1). The kinds: this test binary as a Go server (its start is
// CPU-bound), the same waiting 100 ms before it serves (a start bound by
// latency, as npx's is: there the ratio shows how concurrent the start
// is), and the everything server on node when .ci/npm is installed.
func BenchmarkStart(b *testing.B) {
	exe, _ := os.Executable()
	goServer := Server{Command: exe, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1"}}
	slow := Server{Command: exe, Env: map[string]string{"LLMRT_MCP_TEST_SERVER": "1", "LLMRT_MCP_TEST_START_DELAY": "100ms"}}
	kinds := []struct {
		name string
		sv   Server
	}{{"go", goServer}, {"slow-start", slow}}
	if dir := os.Getenv("LLMRT_CI_NPM"); dir != "" {
		node := npmServer(dir, "", "server-everything", "stdio")
		kinds = append(kinds, struct {
			name string
			sv   Server
		}{"node-everything", node})
	}
	for _, k := range kinds {
		for _, n := range []int{1, 3} {
			b.Run(k.name+"/n="+itoa(n), func(b *testing.B) {
				var list []Server
				for i := 0; i < n; i++ {
					sv := k.sv
					sv.Name = "s" + itoa(i)
					list = append(list, sv)
				}
				dir := b.TempDir()
				for b.Loop() {
					src := New(list, dir)
					ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
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
}
