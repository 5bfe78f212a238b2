package tools

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ancestorPatterns loads the .gitignore files from the workspace root down
// to, but not including, start.
func (w *Workspace) ancestorPatterns(start string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	if !within(w.root, start) || start == w.root {
		return nil
	}
	rel, err := filepath.Rel(w.root, start)
	if err != nil {
		return nil
	}
	dir := w.root
	ps = appendIgnoreFile(ps, dir, nil)
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, p := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, p)
		ps = appendIgnoreFile(ps, dir, w.domain(dir))
	}
	return ps
}

// domain is dir's path below the root as gitignore path components.
func (w *Workspace) domain(dir string) []string {
	rel := w.Rel(dir)
	if rel == "." || rel == dir {
		return nil
	}
	return strings.Split(rel, "/")
}

// appendIgnoreFile parses dir/.gitignore, if present, onto ps. The result
// never aliases ps, so sibling directories do not see each other's rules.
func appendIgnoreFile(ps []gitignore.Pattern, dir string, domain []string) []gitignore.Pattern {
	f, err := os.Open(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return ps
	}
	defer f.Close()
	out := ps[:len(ps):len(ps)]
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}

// Ignored reports whether rel (relative to the root) is excluded by the
// workspace's .gitignore files or lies in a skipped directory.
func (w *Workspace) Ignored(abs string, isDir bool) bool {
	rel := w.Rel(abs)
	if rel == abs || rel == "." {
		return false
	}
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if skippedDirs[p] {
			return true
		}
	}
	ps := w.ancestorPatterns(abs)
	return len(ps) > 0 && gitignore.NewMatcher(ps).Match(parts, isDir)
}
