// Package treegen writes a deterministic, source-like file tree for
// benchmarking search_files against ripgrep: nested packages of Go,
// TypeScript, Python, Markdown and JSON files, a .gitignore with ignored
// directories full of files, hidden files and a few binaries.
package treegen

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Spec sizes a tree.
type Spec struct {
	// Files is the number of searchable (not ignored, not hidden, text)
	// files.
	Files int
	// Ignored is the number of files under .gitignored directories.
	Ignored int
	// Binaries is the number of binary files (NUL bytes) among the rest.
	Binaries int
	// Seed makes the content reproducible.
	Seed uint64
}

// Default is the benchmark tree of issue #3: 20,000 searchable files.
var Default = Spec{Files: 20_000, Ignored: 2_000, Binaries: 20, Seed: 3}

// BenchRegex is the expression both search_files and ripgrep look for.
const BenchRegex = `func \w+Handler\(`

var exts = []string{".go", ".go", ".go", ".ts", ".py", ".md", ".json"}

var idents = []string{"ctx", "req", "resp", "err", "cfg", "user", "session", "cache", "store", "client",
	"server", "token", "item", "items", "count", "limit", "offset", "buf", "path", "name"}

var types = []string{"Config", "Request", "Response", "Store", "Client", "Server", "Session", "User", "Token", "Cache"}

// Write creates the tree under dir, which must exist.
func Write(dir string, s Spec) error {
	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15))
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("build/\ndist/\n*.log\n/vendor/\nnode_modules/\n"), 0o644); err != nil {
		return err
	}
	for i := range s.Files {
		rel := fmt.Sprintf("pkg%02d/mod%02d/part%d/file%04d%s", i%20, (i/20)%25, (i/500)%4, i, exts[i%len(exts)])
		if err := writeSource(filepath.Join(dir, rel), rng); err != nil {
			return err
		}
	}
	ignored := []string{"build", "dist", "vendor", "node_modules"}
	for i := range s.Ignored {
		rel := fmt.Sprintf("%s/gen%02d/out%04d.go", ignored[i%len(ignored)], i%10, i)
		if err := writeSource(filepath.Join(dir, rel), rng); err != nil {
			return err
		}
	}
	for i := range s.Binaries {
		b := make([]byte, 4096+rng.IntN(60_000))
		for j := range b {
			b[j] = byte(rng.IntN(256))
		}
		copy(b[100:], "func BinaryHandler(") // must not be reported
		b[50] = 0
		if err := writeBytes(filepath.Join(dir, fmt.Sprintf("assets/blob%02d.bin", i)), b); err != nil {
			return err
		}
	}
	return writeSource(filepath.Join(dir, ".hidden/secret.go"), rng)
}

func writeBytes(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// writeSource writes 20 to 250 lines of Go-like code; about one function
// in 40 is a Handler.
func writeSource(p string, rng *rand.Rand) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "// Package %s is generated benchmark input.\npackage %s\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\n", pick(rng, idents), pick(rng, idents))
	lines := 20 + rng.IntN(230)
	for n := 0; n < lines; {
		n += writeFunc(w, rng)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeFunc(w *bufio.Writer, rng *rand.Rand) int {
	name := pick(rng, types) + pick(rng, []string{"Load", "Save", "Open", "Close", "Parse", "Render"})
	if rng.IntN(40) == 0 {
		name += "Handler"
	}
	fmt.Fprintf(w, "// %s handles %s for the %s.\n", name, pick(rng, idents), pick(rng, idents))
	fmt.Fprintf(w, "func %s(ctx context.Context, %s *%s) (*%s, error) {\n", name, pick(rng, idents), pick(rng, types), pick(rng, types))
	body := 2 + rng.IntN(8)
	for range body {
		switch rng.IntN(5) {
		case 0:
			fmt.Fprintf(w, "\t%s, err := %s.%s(ctx, %s)\n", pick(rng, idents), pick(rng, idents), pick(rng, types), pick(rng, idents))
		case 1:
			fmt.Fprintf(w, "\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"%s %s: %%w\", err)\n\t}\n", pick(rng, idents), pick(rng, idents))
		case 2:
			fmt.Fprintf(w, "\tfor i := 0; i < %s.%s; i++ {\n\t\t%s += i\n\t}\n", pick(rng, idents), pick(rng, types), pick(rng, idents))
		case 3:
			fmt.Fprintf(w, "\t// TODO(%s): %s the %s before %s.\n", pick(rng, idents), pick(rng, idents), pick(rng, types), pick(rng, idents))
		default:
			fmt.Fprintf(w, "\t%s := &%s{Name: %q, Limit: %d}\n", pick(rng, idents), pick(rng, types), pick(rng, idents), rng.IntN(1000))
		}
	}
	fmt.Fprintf(w, "\treturn nil, nil\n}\n\n")
	return body*2 + 5
}

func pick(rng *rand.Rand, xs []string) string { return xs[rng.IntN(len(xs))] }
