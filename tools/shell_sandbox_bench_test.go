package tools

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/llmrt/llmrt/tools/sandbox"
)

// BenchmarkShellCmdSandbox measures what the sandbox adds to a shell_cmd
// call: one call of `true` with the sandbox off and in each confined mode
// (on Linux as root the network goes with a namespace, for other users
// with the socket filter). Besides the mean it reports the median, the
// fastest and the slowest call.
func BenchmarkShellCmdSandbox(b *testing.B) {
	args := json.RawMessage(`{"command":"true"}`)
	for _, mode := range []sandbox.Mode{sandbox.Off, sandbox.WorkspaceWrite, sandbox.ReadOnly} {
		b.Run(string(mode), func(b *testing.B) {
			if err := sandbox.Available(); mode != sandbox.Off && err != nil {
				b.Skip(err)
			}
			ws, _ := NewWorkspace(b.TempDir())
			shell := shellCmdTool(ws, ShellOptions{Sandbox: sandbox.Policy{Mode: mode}})
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				res, err := shell.Execute(context.Background(), args)
				took = append(took, time.Since(start))
				if err != nil || res.IsError || res.Failed {
					b.Fatal(err, res.Content)
				}
			}
			slices.Sort(took)
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(took[len(took)/2]), "median-ms")
			b.ReportMetric(ms(took[0]), "min-ms")
			b.ReportMetric(ms(took[len(took)-1]), "max-ms")
		})
	}
}
