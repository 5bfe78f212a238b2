package tools

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// TestDirMatcherAgreesWithGoGit checks the per-directory evaluation of
// ignore rules against go-git's Matcher on random rule sets and paths.
func TestDirMatcherAgreesWithGoGit(t *testing.T) {
	lines := []string{"*.log", "build/", "/secret", "!keep.log", "a/b", "**/gen", "doc/**/*.md", "x*", "!x1",
		"dir/", "/top/", "*.tmp", "foo/**", `\!bang`, "name ", "sub/*.go", "!sub/", "b", "!a", "gen/", "**/foo/z.go"}
	domains := [][]string{nil, nil, {"a"}, {"a", "b"}, {"doc"}}
	names := []string{"a", "b", "build", "keep.log", "x.log", "x1", "x2", "gen", "doc", "foo", "sub", "z.go", "top", "secret", "r.md", "!bang", "name", "dir"}
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 300 {
		var rules []ignoreRule
		var patterns []gitignore.Pattern
		var desc []string
		for range 1 + rng.IntN(8) {
			line, dom := lines[rng.IntN(len(lines))], domains[rng.IntN(len(domains))]
			rules = append(rules, parseIgnoreRule(line, dom))
			patterns = append(patterns, gitignore.ParsePattern(line, dom))
			desc = append(desc, strings.Join(dom, "/")+":"+line)
		}
		want := gitignore.NewMatcher(patterns)
		for range 200 {
			parts := make([]string, 1+rng.IntN(5))
			for i := range parts {
				parts[i] = names[rng.IntN(len(names))]
			}
			isDir := rng.IntN(2) == 0
			got := newDirMatcher(rules, parts[:len(parts)-1]).match(parts[len(parts)-1], isDir)
			if w := want.Match(parts, isDir); got != w {
				t.Fatalf("round %d: rules %q, path %q (dir %v): dirMatcher %v, go-git %v", round, desc, parts, isDir, got, w)
			}
		}
	}
}
