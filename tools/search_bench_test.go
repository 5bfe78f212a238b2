package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/tools/internal/treegen"
)

// BenchmarkSearchFiles searches the 20,000-file tree of bench/search.sh
// (generated once, outside the timing). Compare with ripgrep through
// bench/search.sh.
func BenchmarkSearchFiles(b *testing.B) {
	dir := b.TempDir()
	if err := treegen.Write(dir, treegen.Default); err != nil {
		b.Fatal(err)
	}
	ws, err := NewWorkspace(dir)
	if err != nil {
		b.Fatal(err)
	}
	tl := builtin(&testing.T{}, ws, Options{}, "search_files")
	cases := []struct {
		name string
		args map[string]any
	}{
		{"regex", map[string]any{"content": treegen.BenchRegex, "max_results": 1 << 30}},
		{"literal", map[string]any{"content": "ErrNotFoundHere", "max_results": 1 << 30}},
		{"ignore-case", map[string]any{"content": `(?i)sessionsavehandler\(`, "max_results": 1 << 30}},
		// No literal at all: bound by Go's regexp engine, not by IO.
		{"no-literal", map[string]any{"content": `[0-9]{4}`, "max_results": 1 << 30}},
		{"first-200", map[string]any{"content": "TODO", "max_results": 200}},
		{"glob-only", map[string]any{"pattern": "**/*.ts", "max_results": 1 << 30}},
	}
	for _, c := range cases {
		raw, _ := json.Marshal(c.args)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := tl.Execute(context.Background(), raw)
				if err != nil || res.IsError || (c.name == "regex" && strings.HasPrefix(res.Content, "[no matches")) {
					b.Fatalf("search_files(%s) = %v %.200s", raw, err, res.Content)
				}
			}
		})
	}
}
