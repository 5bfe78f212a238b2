package tools

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// WalkOptions control a workspace walk.
type WalkOptions struct {
	// Hidden includes entries whose name starts with a dot.
	Hidden bool
	// MaxDepth bounds the depth below the start directory: 1 lists only
	// its children. 0 means no bound.
	MaxDepth int
	// NoIgnore disables .gitignore handling.
	NoIgnore bool
}

// skippedDirs are never descended into unless named as the start.
var skippedDirs = map[string]bool{".git": true, "node_modules": true}

// ErrStopWalk, returned by a walk callback, ends the walk without error.
var ErrStopWalk = errors.New("stop walk")

// Walk visits the entries below start (an absolute path inside the
// workspace) in lexical order, honouring .gitignore files from the
// workspace root down and skipping .git and node_modules. fn receives the
// path relative to the workspace root (forward slashes) and the entry.
// Returning fs.SkipDir from fn on a directory skips it.
func (w *Workspace) Walk(ctx context.Context, start string, opts WalkOptions, fn func(rel string, d fs.DirEntry) error) error {
	var patterns []gitignore.Pattern
	if !opts.NoIgnore {
		patterns = w.ancestorPatterns(start)
	}
	err := w.walkDir(ctx, start, 1, patterns, opts, fn)
	if errors.Is(err, ErrStopWalk) {
		return nil
	}
	return err
}

func (w *Workspace) walkDir(ctx context.Context, dir string, depth int, patterns []gitignore.Pattern, opts WalkOptions, fn func(string, fs.DirEntry) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		// An unreadable directory is skipped, not fatal: the walk reports
		// what it can see.
		return nil
	}
	if !opts.NoIgnore {
		patterns = appendIgnoreFile(patterns, dir, w.domain(dir))
	}
	var matcher gitignore.Matcher
	if len(patterns) > 0 {
		matcher = gitignore.NewMatcher(patterns)
	}
	for _, e := range entries {
		name := e.Name()
		if !opts.Hidden && strings.HasPrefix(name, ".") {
			continue
		}
		abs := filepath.Join(dir, name)
		isDir := e.IsDir()
		if isDir && skippedDirs[name] {
			continue
		}
		rel := w.Rel(abs)
		if matcher != nil && matcher.Match(strings.Split(rel, "/"), isDir) {
			continue
		}
		err := fn(rel, e)
		if errors.Is(err, fs.SkipDir) {
			continue
		}
		if err != nil {
			return err
		}
		if isDir && (opts.MaxDepth == 0 || depth < opts.MaxDepth) {
			if err := w.walkDir(ctx, abs, depth+1, patterns, opts, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

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
