package cmd_test

import (
	"strings"
	"testing"
)

// TestNoVShorthand: -v means the same on every command, namely nothing;
// --verbose and --version are spelled out.
func TestNoVShorthand(t *testing.T) {
	t.Parallel()
	sb := newSandbox(t)
	for _, args := range [][]string{{"-v"}, {"run", "-v", "-p", "x"}, {"tools", "-v"}, {"tools", "call", "-v", "read_file"}, {"sessions", "-v"}} {
		o := sb.run(cli{args: args})
		if o.code != 2 || !contains(o.stderr, "unknown shorthand flag: 'v'") {
			t.Errorf("llmrt %s: exit %d, stderr %q, want exit 2 for an unknown -v", strings.Join(args, " "), o.code, o.stderr)
		}
	}
	if o := sb.run(cli{args: []string{"--version"}}); o.code != 0 || !contains(o.stdout, "llmrt") {
		t.Errorf("llmrt --version: exit %d, stdout %q", o.code, o.stdout)
	}
}
