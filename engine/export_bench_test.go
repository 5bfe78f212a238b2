package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/providers"
)

// BenchAccounting times what the loop does before each model call to
// decide whether to compact (maybeCompact: the window, the size of the next
// request) for a run holding n messages of about 250 tokens, inside the
// window: after a counted call that covered all but the last tool round,
// and with nothing counted yet (the first call, or the one after a
// compaction), when every message is estimated.
func BenchAccounting(b *testing.B, n int) {
	r := &run{req: Request{Model: "gpt-4.1"}, tools: &toolset{}}
	for i := range n {
		role := providers.RoleUser
		if i%2 == 1 {
			role = providers.RoleAssistant
		}
		r.conv.wire = append(r.conv.wire, providers.TextMessage(role, strings.Repeat("word ", 200)))
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		size requestSize
	}{
		{"counted", requestSize{known: 50_000, counted: n - 2}},
		{"uncounted", requestSize{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			r.conv.size = c.size
			b.ReportAllocs()
			for b.Loop() {
				r.maybeCompact(ctx)
			}
			if _, warnings, diags := r.tally.report(); len(warnings) > 0 || len(diags) > 0 || r.conv.nextTokens(r.tools.specs) < 50_000 {
				b.Fatalf("the benchmark should stay inside a known window: %v %v", warnings, diags)
			}
		})
	}
}
