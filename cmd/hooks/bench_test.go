package hooks

import (
	"context"
	"os"
	"testing"
)

// BenchmarkPreToolUse is what one PreToolUse hook adds to a tool call: a
// shell started, the call's JSON written to it, its answer read.
func BenchmarkPreToolUse(b *testing.B) {
	dir := b.TempDir()
	set, err := Parse([]byte(hookJSON(PreToolUse, "Bash", "cat >/dev/null")), "bench")
	if err != nil {
		b.Fatal(err)
	}
	set.Claude = true
	r := &Runner{Sets: []Set{set}, Dir: dir, ProjectDir: dir, Env: os.Environ()}
	c := shellCall("go test ./...")
	ctx := context.Background()
	for b.Loop() {
		r.BeforeTool(ctx, c)
	}
}

// BenchmarkNoMatchingHook is a call no hook matches: no process starts.
func BenchmarkNoMatchingHook(b *testing.B) {
	set, _ := Parse([]byte(hookJSON(PreToolUse, "Write", "cat >/dev/null")), "bench")
	set.Claude = true
	r := &Runner{Sets: []Set{set}, Dir: b.TempDir()}
	c := shellCall("go test ./...")
	ctx := context.Background()
	for b.Loop() {
		r.BeforeTool(ctx, c)
	}
}
