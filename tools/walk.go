package tools

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
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

	// listers, when positive, lists directories ahead of the walk in that
	// many goroutines (see walker).
	listers int
	// beneath, when set, opens the walk's directories (its caller closes
	// it); otherwise the walk opens its start directory itself.
	beneath *beneath
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
	return w.walk(ctx, start, opts, func(rel, _ string, d fs.DirEntry) error { return fn(rel, d) })
}

// walk is Walk handing fn the absolute path too, so callers that open the
// files need not rebuild it.
//
// The visiting order is sequential, but the expensive part of a walk —
// reading directories, loading .gitignore files and matching every entry
// against them — can run ahead in opts.listers goroutines: when the walk
// enters a directory it queues the listing of each of its subdirectories,
// so they are usually ready by the time the walk reaches them.
func (w *Workspace) walk(ctx context.Context, start string, opts WalkOptions, fn func(rel, abs string, d fs.DirEntry) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // tells listers still working that nobody waits for them
	b := opts.beneath
	if b == nil {
		b = openBeneath(start)
		defer b.close() // after the listers below have stopped: defers run last in, first out
	}
	wk := &walker{ctx: ctx, w: w, opts: opts, fn: fn, b: b}
	if opts.listers > 0 {
		wk.queue = make(chan *listing, 1024)
		var listers sync.WaitGroup
		for range opts.listers {
			// Each lister ends when the queue is closed below.
			listers.Go(func() {
				for l := range wk.queue {
					wk.list(l)
				}
			})
		}
		// The listers are done before b is closed.
		defer listers.Wait()
		defer close(wk.queue)
	}
	rel := w.Rel(start)
	var parts []string
	if rel == "." {
		rel = ""
	} else {
		parts = strings.Split(rel, "/")
	}
	var patterns []ignoreRule
	if !opts.NoIgnore {
		patterns = w.ancestorPatterns(start)
	}
	root := &listing{abs: start, rel: rel, parts: parts, depth: 1, patterns: patterns, ready: make(chan struct{})}
	wk.list(root)
	err := wk.visit(root)
	if errors.Is(err, ErrStopWalk) {
		return nil
	}
	return err
}

// walker holds what stays the same during one walk.
type walker struct {
	ctx   context.Context
	w     *Workspace
	opts  WalkOptions
	fn    func(rel, abs string, d fs.DirEntry) error
	queue chan *listing // nil: list inline
	b     *beneath      // opens the directories below the start
}

// listing is one directory to list; ready is closed once entries is set.
type listing struct {
	abs, rel string
	parts    []string // rel split, for gitignore matching
	depth    int
	patterns []ignoreRule // rules in force above this directory

	ready   chan struct{}
	entries []listed
}

// listed is a visible entry of a listing; sub is set for directories
// the walk will enter.
type listed struct {
	d        fs.DirEntry
	rel, abs string
	sub      *listing
}

// list reads l's directory and keeps the entries the walk must visit.
// Paths are built by concatenation, not filepath.Join/Rel: this runs once
// per file of a search and must stay cheap.
func (wk *walker) list(l *listing) {
	defer close(l.ready)
	if wk.ctx.Err() != nil {
		return
	}
	entries, err := wk.b.readDir(l.abs)
	if err != nil {
		// An unreadable directory is skipped, not fatal: the walk reports
		// what it can see.
		return
	}
	patterns := l.patterns
	if !wk.opts.NoIgnore {
		patterns = appendIgnoreFile(patterns, l.abs, wk.w.domain(l.abs))
	}
	var matcher *dirMatcher
	if len(patterns) > 0 {
		matcher = newDirMatcher(patterns, l.parts)
	}
	absPrefix := l.abs + string(filepath.Separator)
	if strings.HasSuffix(l.abs, string(filepath.Separator)) {
		absPrefix = l.abs
	}
	relPrefix := ""
	if l.rel != "" {
		relPrefix = l.rel + "/"
	}
	descend := wk.opts.MaxDepth == 0 || l.depth < wk.opts.MaxDepth
	for _, e := range entries {
		name := e.Name()
		if !wk.opts.Hidden && strings.HasPrefix(name, ".") {
			continue
		}
		isDir := e.IsDir()
		if isDir && skippedDirs[name] {
			continue
		}
		if matcher != nil && matcher.match(name, isDir) {
			continue
		}
		le := listed{d: e, rel: relPrefix + name, abs: absPrefix + name}
		if isDir && descend {
			le.sub = &listing{abs: le.abs, rel: le.rel, parts: append(l.parts[:len(l.parts):len(l.parts)], name),
				depth: l.depth + 1, patterns: patterns}
		}
		l.entries = append(l.entries, le)
	}
}

// visit waits for l, queues the listings of its subdirectories, and hands
// its entries to fn in order, descending into each directory in turn.
func (wk *walker) visit(l *listing) error {
	select {
	case <-l.ready:
	case <-wk.ctx.Done():
		return wk.ctx.Err()
	}
	if err := wk.ctx.Err(); err != nil {
		return err
	}
	for _, e := range l.entries {
		if e.sub == nil {
			continue
		}
		e.sub.ready = make(chan struct{})
		if wk.queue != nil {
			select {
			case wk.queue <- e.sub:
				continue
			default: // queue full: list it when we get there
			}
		}
		e.sub.ready = nil
	}
	for _, e := range l.entries {
		err := wk.fn(e.rel, e.abs, e.d)
		if errors.Is(err, fs.SkipDir) {
			continue
		}
		if err != nil {
			return err
		}
		if e.sub != nil {
			if e.sub.ready == nil {
				e.sub.ready = make(chan struct{})
				wk.list(e.sub)
			}
			if err := wk.visit(e.sub); err != nil {
				return err
			}
		}
	}
	return nil
}
