package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
	"github.com/llmrt/llmrt/tools"
)

// BenchmarkLoopIteration measures the engine's own overhead per iteration:
// a 100-iteration run against the in-process scripted provider, each
// iteration a schema-validated call of a trivial host tool, the last a
// final_answer. Reported per iteration (ns/iter, allocs/iter).
func BenchmarkLoopIteration(b *testing.B) {
	const iterations = 100
	turns := make([]scripted.Turn, 0, iterations)
	for i := 0; i < iterations-1; i++ {
		args, _ := json.Marshal(fmt.Sprintf(`{"step":%d,"note":"look at file %d"}`, i, i))
		turns = append(turns, scripted.Turn{ToolCalls: []scripted.Call{{Name: "step", Arguments: args}},
			Usage: &providers.Usage{InputTokens: 100, OutputTokens: 10}})
	}
	turns = append(turns, answer("done"))
	step := engine.Tool{
		Name: "step", Description: "take a step", Kind: tools.KindRead,
		Schema:  json.RawMessage(`{"type":"object","properties":{"step":{"type":"integer"},"note":{"type":"string"}},"required":["step"],"additionalProperties":false}`),
		Execute: func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Text("ok"), nil },
	}
	sp := scripted.New()
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"s": sp}})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sp.Register("bench", &scripted.Script{Turns: turns})
		req := engine.Request{
			Provider: "s", Model: "bench", WorkDir: dir, MaxIterations: iterations,
			BuiltIns: []string{}, Tools: []engine.Tool{step},
			Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "go")},
		}
		b.StartTimer()
		res, err := rt.Complete(context.Background(), req)
		if err != nil || res.Status != engine.StatusCompleted || res.Iterations != iterations {
			b.Fatalf("got %v %s after %d iterations", err, res.Status, res.Iterations)
		}
	}
	b.StopTimer()
	perIter := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / iterations
	b.ReportMetric(perIter, "ns/iter")
	b.ReportMetric(perIter/1000, "µs/iter")
}

// BenchmarkPathExists1000 compares 1,000 path_exists calls made by one
// run_code program (one model round trip) with the same calls made as
// 1,000 model turns, against the zero-latency in-process provider. Each
// op is one whole run.
func BenchmarkPathExists1000(b *testing.B) {
	const calls = 1000
	dir := b.TempDir()
	sp := scripted.New()
	rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"s": sp}})
	if err != nil {
		b.Fatal(err)
	}
	prog, _ := json.Marshal(map[string]string{"code": fmt.Sprintf("n = 0\nfor i in range(%d):\n    if path_exists(path='f%%d' %% i):\n        n += 1\nprint(n)\n", calls)})
	programTurns := []scripted.Turn{{ToolCalls: []scripted.Call{{Name: engine.RunCodeTool, Arguments: prog}}}, answer("done")}
	var turnByTurn []scripted.Turn
	for i := 0; i < calls; i++ {
		args, _ := json.Marshal(fmt.Sprintf(`{"path":"f%d"}`, i))
		turnByTurn = append(turnByTurn, scripted.Turn{ToolCalls: []scripted.Call{{Name: "path_exists", Arguments: args}}})
	}
	turnByTurn = append(turnByTurn, answer("done"))
	for _, c := range []struct {
		name  string
		turns []scripted.Turn
		tools []string
	}{
		{"run_code", programTurns, []string{"path_exists", engine.RunCodeTool}},
		{"turns", turnByTurn, []string{"path_exists"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sp.Register(c.name, &scripted.Script{Turns: c.turns})
				res, err := rt.Complete(context.Background(), engine.Request{
					Provider: "s", Model: c.name, WorkDir: dir, MaxIterations: calls + 1, BuiltIns: c.tools,
					Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "go")},
				})
				if err != nil || res.Status != engine.StatusCompleted || res.Iterations != len(c.turns) {
					b.Fatalf("%v %s %+v after %d iterations", err, res.Status, res.Error, res.Iterations)
				}
			}
		})
	}
}
