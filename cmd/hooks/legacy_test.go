package hooks

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/engine"
)

// TestLegacyMCPMatcher: a matcher in llmrt's own config written with the
// old <server>_<tool> name of an MCP tool still matches the call of
// mcp__<server>__<tool>, with one warning naming the new name however
// often it fires; a matcher for another tool does not match.
func TestLegacyMCPMatcher(t *testing.T) {
	dir := t.TempDir()
	call := engine.HookCall{ID: "c1", Tool: "mcp__calc__get-sum", Source: "mcp:calc", Arguments: []byte(`{"a":1}`)}
	for _, tc := range []struct {
		matcher string
		blocks  bool
	}{{"calc_get-sum", true}, {"calc_.*", true}, {"mcp__calc__get-sum", true}, {"calc_fail", false}, {"other_get-sum", false}} {
		r, warned := runner(t, dir, hookJSON(PreToolUse, tc.matcher, "cat >/dev/null; echo no >&2; exit 2"), false)
		for range 2 {
			v := r.BeforeTool(context.Background(), call)
			if got := v.Decision == engine.HookBlock; got != tc.blocks {
				t.Errorf("matcher %q on %s: blocked %v, want %v", tc.matcher, call.Tool, got, tc.blocks)
			}
		}
		old := 0
		for _, w := range *warned {
			if strings.Contains(w, "mcp__calc__get-sum") && strings.Contains(w, tc.matcher) {
				old++
			}
		}
		if wantWarn := tc.blocks && !strings.HasPrefix(tc.matcher, "mcp__"); (old == 1) != wantWarn || old > 1 {
			t.Errorf("matcher %q: %d warnings about the old name %v, want one: %v", tc.matcher, old, wantWarn, *warned)
		}
	}
}
