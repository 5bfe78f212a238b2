package engine

import (
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

// BenchAccounting times nextRequestTokens for a run holding n messages,
// as the loop calls it before each model call: after a counted call that
// covered all but the last tool round.
func BenchAccounting(b *testing.B, n int) {
	r := &run{req: Request{Model: "gpt-4o"}, tools: &toolset{}}
	for i := range n {
		role := providers.RoleUser
		if i%2 == 1 {
			role = providers.RoleAssistant
		}
		r.wire = append(r.wire, providers.TextMessage(role, strings.Repeat("word ", 200)))
	}
	b.Run("counted", func(b *testing.B) {
		r.ctx = contextUsage{known: 50_000, counted: n - 2}
		b.ReportAllocs()
		for b.Loop() {
			if r.nextRequestTokens() < 50_000 {
				b.Fatal("estimate below the counted size")
			}
		}
	})
	b.Run("uncounted", func(b *testing.B) {
		r.ctx = contextUsage{}
		b.ReportAllocs()
		for b.Loop() {
			_ = r.nextRequestTokens()
		}
	})
}
