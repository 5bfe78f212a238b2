package skills

import (
	"context"
	"strings"
	"testing"

	"github.com/llmrt/llmrt/tools"
)

func TestCatalogueEmpty(t *testing.T) {
	c := Discover(Roots(RootOptions{Home: t.TempDir(), Projects: []string{t.TempDir()}}))
	if got := c.Instructions(); got != "" {
		t.Errorf("Instructions with no skills: got %q, want empty", got)
	}
	ts, err := c.Tools(context.Background())
	if err != nil || len(ts) != 0 {
		t.Errorf("Tools with no skills: got %v, %v; want none", ts, err)
	}
}

func TestCatalogueInstructions(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "b", skillMD("pdf", "Extract text from PDF files.", "secret body"), nil)
	writeSkill(t, root, "a", "---\nname: deploy\ndescription: |\n  Deploy the service.\n  Use for staging.\n---\nsteps", nil)
	c := Discover([]Root{{Dir: root}})
	got := c.Instructions()
	want := "- deploy: Deploy the service. Use for staging.\n- pdf: Extract text from PDF files.\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("catalogue list:\ngot  %q\nwant it to end with %q", got, want)
	}
	for _, w := range []string{"# Skills", LoadToolName} {
		if !strings.Contains(got, w) {
			t.Errorf("catalogue %q: want it to mention %q", got, w)
		}
	}
	if strings.Contains(got, "secret body") || strings.Contains(got, root) {
		t.Errorf("catalogue %q: only names and descriptions belong in it", got)
	}
	ts, err := c.Tools(context.Background())
	if err != nil || len(ts) != 1 || ts[0].Name != LoadToolName || ts[0].Kind != "read" {
		t.Fatalf("Tools: got %+v, %v; want load_skill of kind read", ts, err)
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"a\n  b\tc", 10, "a b c"},
		{"abcdef", 6, "abcdef"},
		{"abcdefgh", 6, "abc…"},
		{"ééééé", 7, "éé…"},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in, tt.max); got != tt.want {
			t.Errorf("oneLine(%q, %d): got %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

// The engine's ToolSource, Diagnoser and Instructor, restated: the
// catalogue must satisfy them without importing the engine.
var (
	_ interface {
		Tools(context.Context) ([]tools.Tool, error)
	} = (*Catalogue)(nil)
	_ interface{ Diagnostics() []tools.Diagnostic } = (*Catalogue)(nil)
	_ interface{ Instructions() string }            = (*Catalogue)(nil)
)

// TestCatalogueStableSlices: the engine rebuilds a run's tool surface when
// a source returns a different slice, so Tools must return the same one.
func TestCatalogueStableSlices(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "a", skillMD("a", "A.", ""), nil)
	c := Discover([]Root{{Dir: root}})
	one, _ := c.Tools(context.Background())
	two, _ := c.Tools(context.Background())
	if len(one) != 1 || &one[0] != &two[0] {
		t.Errorf("Tools: got different slices on two calls, want the same")
	}
}
