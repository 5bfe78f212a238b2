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
// call of `true`. Each op makes one call with the sandbox off and one in
// each confined mode, taking turns so that a busy machine weighs on all
// alike (on Linux as root the network goes with a namespace, for other
// users with the socket filter). It reports each mode's median, fastest
// and slowest call in milliseconds.
func BenchmarkShellCmdSandbox(b *testing.B) {
	modes := []sandbox.Mode{sandbox.Off}
	if err := sandbox.Available(); err == nil {
		modes = append(modes, sandbox.WorkspaceWrite, sandbox.ReadOnly)
	}
	ws, _ := NewWorkspace(b.TempDir())
	args := json.RawMessage(`{"command":"true"}`)
	took := make([][]time.Duration, len(modes))
	for b.Loop() {
		for i, mode := range modes {
			shell := shellCmdTool(ws, ShellOptions{Sandbox: sandbox.Policy{Mode: mode}})
			start := time.Now()
			res, err := shell.Execute(context.Background(), args)
			took[i] = append(took[i], time.Since(start))
			if err != nil || res.IsError || res.Failed {
				b.Fatal(mode, err, res.Content)
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	for i, mode := range modes {
		d := took[i]
		slices.Sort(d)
		b.ReportMetric(ms(d[len(d)/2]), string(mode)+"-median-ms")
		b.ReportMetric(ms(d[0]), string(mode)+"-min-ms")
		b.ReportMetric(ms(d[len(d)-1]), string(mode)+"-max-ms")
	}
}
