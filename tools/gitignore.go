package tools

import (
	"bufio"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreRule is one line of a .gitignore file. go-git parses and matches
// it; the rule also remembers its domain (the directory holding the file)
// and whether it is a simple name pattern (no slash), which lets
// dirMatcher evaluate it once per directory instead of once per path
// component of every entry.
type ignoreRule struct {
	p      gitignore.Pattern
	domain []string
	simple bool
}

func parseIgnoreRule(line string, domain []string) ignoreRule {
	// The same steps go-git's ParsePattern takes before deciding whether a
	// pattern is a glob over path components (it contains a slash).
	body := strings.TrimPrefix(line, "!")
	if !strings.HasSuffix(body, `\ `) {
		body = strings.TrimRight(body, " ")
	}
	body = strings.TrimSuffix(body, "/")
	return ignoreRule{p: gitignore.ParsePattern(line, domain), domain: domain, simple: !strings.Contains(body, "/")}
}

// dirMatcher decides, for the entries of one directory, whether the rules
// exclude them, with exactly the result of go-git's Matcher on the full
// path. A simple rule matches a path when it matches any component below
// its domain, so its verdict on the directory's own components is
// computed once, leaving one name match per entry.
type dirMatcher struct {
	rules    []ignoreRule
	inDomain []bool                  // the directory lies in the rule's domain
	parent   []gitignore.MatchResult // simple rules: verdict on the directory's components
	short    [][]string              // simple rules: domain + entry name
	full     []string                // directory components + entry name
}

func newDirMatcher(rules []ignoreRule, dirParts []string) *dirMatcher {
	m := &dirMatcher{
		rules:    rules,
		inDomain: make([]bool, len(rules)),
		parent:   make([]gitignore.MatchResult, len(rules)),
		short:    make([][]string, len(rules)),
		full:     append(dirParts[:len(dirParts):len(dirParts)], ""),
	}
	for k, r := range rules {
		if !r.simple {
			continue
		}
		m.inDomain[k] = len(dirParts) >= len(r.domain) && slicesEqual(dirParts[:len(r.domain)], r.domain)
		if m.inDomain[k] {
			m.parent[k] = r.p.Match(dirParts, true)
			m.short[k] = append(r.domain[:len(r.domain):len(r.domain)], "")
		}
	}
	return m
}

// match reports whether the entry name of the directory is excluded: the
// last rule with a verdict decides, as in gitignore.Matcher.
func (m *dirMatcher) match(name string, isDir bool) bool {
	m.full[len(m.full)-1] = name
	for k := len(m.rules) - 1; k >= 0; k-- {
		r := &m.rules[k]
		var res gitignore.MatchResult
		switch {
		case !r.simple:
			res = r.p.Match(m.full, isDir)
		case !m.inDomain[k]:
			continue
		case m.parent[k] != gitignore.NoMatch:
			res = m.parent[k]
		default:
			m.short[k][len(m.short[k])-1] = name
			res = r.p.Match(m.short[k], isDir)
		}
		if res != gitignore.NoMatch {
			return res == gitignore.Exclude
		}
	}
	return false
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ancestorPatterns loads the .gitignore files from the workspace root down
// to, but not including, start.
func (w *Workspace) ancestorPatterns(start string) []ignoreRule {
	if !within(w.root, start) || start == w.root {
		return nil
	}
	rel, err := filepath.Rel(w.root, start)
	if err != nil {
		return nil
	}
	dir := w.root
	rules := appendIgnoreFile(nil, dir, nil)
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, p := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, p)
		rules = appendIgnoreFile(rules, dir, w.domain(dir))
	}
	return rules
}

// domain is dir's path below the root as gitignore path components.
func (w *Workspace) domain(dir string) []string {
	rel := w.Rel(dir)
	if rel == "." || rel == dir {
		return nil
	}
	return strings.Split(rel, "/")
}

// appendIgnoreFile parses dir/.gitignore, if present, onto rules. The
// result never aliases rules, so sibling directories do not see each
// other's rules.
func appendIgnoreFile(rules []ignoreRule, dir string, domain []string) []ignoreRule {
	f, err := openNoBlock(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return rules
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return rules
	}
	out := rules[:len(rules):len(rules)]
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, parseIgnoreRule(line, domain))
	}
	return out
}

// Ignored reports whether abs is excluded by the workspace's .gitignore
// files, is a skipped directory or lies in one: whether a walk from the
// root would leave it out.
func (w *Workspace) Ignored(abs string, isDir bool) bool {
	rel := w.Rel(abs)
	if rel == abs || rel == "." {
		return false
	}
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		// As in a walk: .git and node_modules are skipped as directories;
		// a file of that name (a worktree's .git) is an ordinary file.
		if skippedDirs[p] && (isDir || i < len(parts)-1) {
			return true
		}
	}
	rules := w.ancestorPatterns(abs)
	return len(rules) > 0 && newDirMatcher(rules, parts[:len(parts)-1]).match(parts[len(parts)-1], isDir)
}
