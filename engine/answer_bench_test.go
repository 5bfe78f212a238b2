package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/scripted"
)

// BenchmarkStreamedAnswer streams an answer of each size as plain text
// and as a final_answer call's argument, both in word-sized pieces: what
// the same bytes cost either way should be close (linear in what
// streams, not quadratic in the growing argument).
func BenchmarkStreamedAnswer(b *testing.B) {
	for _, size := range []int{100 << 10, 1 << 20, 4 << 20} {
		words := strings.Repeat("lorem ipsum dolor sit amet, ", size/28+1)[:size]
		for _, as := range []string{"text", "final_answer"} {
			b.Run(fmt.Sprintf("%s/%dKiB", as, size>>10), func(b *testing.B) {
				var turn scripted.Turn
				if as == "text" {
					turn = scripted.Turn{Text: words}
				} else {
					args, _ := json.Marshal(map[string]string{"answer": words})
					turn = scripted.Turn{ToolCalls: []scripted.Call{{Name: engine.FinalAnswerTool, Arguments: args}}}
				}
				sp := scripted.New()
				rt, err := engine.New(engine.Config{Providers: map[string]providers.Provider{"s": sp}})
				if err != nil {
					b.Fatal(err)
				}
				dir := b.TempDir()
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					sp.Register("bench", &scripted.Script{Turns: []scripted.Turn{turn}})
					req := engine.Request{Provider: "s", Model: "bench", WorkDir: dir, BuiltIns: []string{}, Finish: engine.FinishText,
						Messages: []engine.Message{providers.TextMessage(providers.RoleUser, "go")}}
					b.StartTimer()
					var last engine.Event
					for ev := range rt.Stream(context.Background(), req) {
						last = ev
					}
					if last.Result == nil || last.Result.Status != engine.StatusCompleted {
						b.Fatalf("got %+v", last.Result)
					}
				}
			})
		}
	}
}
