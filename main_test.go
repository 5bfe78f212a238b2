package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// initBudgets are the bytes a package's init may allocate when llmrt
// starts. Every package not listed gets defaultInitBudget. The listed ones
// are known costs, set about 25% above what they allocate today so noise
// does not trip them; lowering one when its cost goes away is progress,
// raising one needs a reason written here.
var initBudgets = map[string]int{
	// goldmark, the Markdown parser.
	"github.com/yuin/goldmark/extension": 330_000,
	"github.com/yuin/goldmark/util":      180_000,
	"github.com/yuin/goldmark/parser":    140_000,
	"golang.org/x/net/html":              160_000,
}

const defaultInitBudget = 100_000

// TestInitAllocations runs the built binary with GODEBUG=inittrace=1 and
// fails when a package's init allocates more than its budget: start-up
// work creeps in through dependencies, and a timed test could not tell it
// from a slow machine.
func TestInitAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "llmrt")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("llmrt version: %v\n%s", err, stderr.String())
	}
	seen := 0
	total := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		seen++
		bytes, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("cannot read %q", sc.Text())
		}
		total += bytes
		budget, ok := initBudgets[f[1]]
		if !ok {
			budget = defaultInitBudget
		}
		if bytes > budget {
			t.Errorf("package %s allocates %d bytes at init, over its budget of %d: keep it off the start-up path (lazy init, another library), or raise its budget in initBudgets with the reason", f[1], bytes, budget)
		}
	}
	if seen < 50 {
		t.Fatalf("read only %d init lines; the inittrace format may have changed:\n%s", seen, stderr.String())
	}
	t.Log(fmt.Sprintf("%d packages allocate %d bytes at init", seen, total))
}
