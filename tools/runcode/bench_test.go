package runcode

import (
	"testing"

	"go.starlark.net/starlark"
)

// benchProgram is pure computation full of guarded operations: + and *
// on ints and strings, %, a method call and list +=.
const benchProgram = `
s = 0
out = []
for i in range(20000):
    s = s + i * 2
    t = "%d" % i + "x" * 3
    out += [t.replace("x", "y")]
`

// BenchmarkGuards compares a program run as Starlark runs it with the
// same program guarded (rewritten, charged, its heap polled), the cost of
// the memory bound.
func BenchmarkGuards(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			th := &starlark.Thread{}
			if _, err := starlark.ExecFileOptions(fileOptions, th, "program", benchProgram, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("guarded", func(b *testing.B) {
		for b.Loop() {
			th := &starlark.Thread{}
			mem := newMemory(defaultMemory)
			limitSteps(th, defaultSteps, mem)
			if err := execGuarded(th, benchProgram, guards(mem)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
