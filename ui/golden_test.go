package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// update rewrites the golden files: go test ./ui -run NAME -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares a screen, stripped of ANSI escapes and of trailing
// spaces on each line, with testdata/<name>.golden.
func golden(t *testing.T, name, screen string) {
	t.Helper()
	got := plain(screen)
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("screen differs from %s (run with -update to accept it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// plain strips ANSI escapes and trailing spaces from each line.
func plain(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
