package engine_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadmeProgram: the program in README's library section compiles and
// passes vet as copied, and runs the same request, with the same error
// checks, as ExampleRuntime_Complete, which `go test` runs.
func TestReadmeProgram(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## The library\n")
	if !ok {
		t.Fatal("README has no library section")
	}
	_, block, ok := strings.Cut(section, "```go\n")
	if !ok {
		t.Fatal("README's library section has no Go block")
	}
	program, _, _ := strings.Cut(block, "```")
	if !strings.HasPrefix(program, "package main\n") {
		t.Fatalf("README's first Go block is not a whole program:\n%s", program)
	}

	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, fn, _ := strings.Cut(string(example), "func ExampleRuntime_Complete() {")
	want, got := completeCall(fn), completeCall(program)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("README's Complete call differs from ExampleRuntime_Complete's:\nREADME:  %q\nexample: %q", got, want)
	}

	// The go command builds a package under testdata when it is named
	// explicitly; the directory is removed afterwards.
	dir, err := os.MkdirTemp("testdata", "readme-")
	if err != nil {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if dir, err = os.MkdirTemp("testdata", "readme-"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		os.RemoveAll(dir)
		os.Remove("testdata") // only when empty
	})
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("go", "vet", "./"+filepath.ToSlash(dir)).CombinedOutput(); err != nil {
		t.Errorf("README's program does not vet: %v\n%s", err, out)
	}
}

// completeCall returns the trimmed lines of src from the Complete call up
// to the first print: the request and the error checks.
func completeCall(src string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "res, err := rt.Complete(") {
			in = true
		}
		if !in {
			continue
		}
		if strings.HasPrefix(l, "fmt.Print") {
			break
		}
		out = append(out, l)
	}
	return out
}

// TestCommentsStandAlone: no Go source outside tests cites sections of a
// specification that is not in the repository; comments explain
// themselves or point to docs/.
func TestCommentsStandAlone(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "SPEC") {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d cites a document outside the repository: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
