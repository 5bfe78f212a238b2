package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Change kinds a restore makes.
const (
	Created  = "created"  // the restore creates the path
	Modified = "modified" // the restore rewrites it (content or mode)
	Deleted  = "deleted"  // the restore removes it
)

// Change is one path a restore changes.
type Change struct {
	Path string
	Kind string
	Dir  bool
	// Added and Removed count the lines the restore adds to and takes
	// from a text file.
	Added, Removed int

	// retype says a file stands where a directory must, or the reverse.
	retype bool
}

// Plan is what restoring a checkpoint does to the workspace as it is.
type Plan struct {
	Target  Checkpoint
	Changes []Change
	// Conflicts are paths changed outside llmrt since the latest
	// checkpoint that the restore would overwrite or remove.
	Conflicts []string
	// Skipped are files over the size limit the restore leaves alone.
	Skipped []string
	// Kept are directories the restore would remove but which still hold
	// files it does not manage (ignored ones).
	Kept []string
}

// ErrConflict is returned by Restore when files changed outside llmrt
// would be overwritten and the caller did not force it.
var ErrConflict = errors.New("files changed outside llmrt since the last checkpoint")

// Restore puts the workspace back as it was at target. Files changed
// outside llmrt since the latest checkpoint are not overwritten unless
// force is set: the plan lists them and the error is ErrConflict. With
// dryRun the plan, conflicts included, is returned and nothing changes.
// A restore that changes the workspace ends with a checkpoint of its
// own, so later changes are measured from the restored state.
func (s *Store) Restore(ctx context.Context, target Checkpoint, force, dryRun bool) (*Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return nil, err
	}
	if s.opts.Root == "" {
		return nil, errors.New("checkpoint: no workspace root")
	}
	want, err := s.manifest(target.Manifest)
	if err != nil {
		return nil, err
	}
	cur, _, err := s.scan(ctx, false, false)
	if err != nil {
		return nil, err
	}
	p := s.plan(target, want, cur)
	if err := s.diffStats(p, want); err != nil {
		return nil, err
	}
	if len(p.Conflicts) > 0 && !force && !dryRun {
		return p, ErrConflict
	}
	if dryRun || len(p.Changes) == 0 {
		return p, nil
	}
	if err := s.apply(p, want); err != nil {
		return p, err
	}
	_, err = s.take(ctx, target.Turn, PhaseRestore, "")
	return p, err
}

// plan compares the current tree with the target, and with the latest
// checkpoint to find changes made outside llmrt.
func (s *Store) plan(target Checkpoint, want, cur Manifest) *Plan {
	p := &Plan{Target: target}
	paths := make(map[string]bool, len(want)+len(cur))
	for k := range want {
		paths[k] = true
	}
	for k := range cur {
		paths[k] = true
	}
	for _, path := range sortedKeys(paths) {
		w, inWant := want[path]
		c, inCur := cur[path]
		if (inWant && w.Big) || (inCur && c.Big) {
			if inWant != inCur || !w.sameContent(c) {
				p.Skipped = append(p.Skipped, path)
			}
			continue
		}
		var ch Change
		switch {
		case inWant && inCur && w.IsDir() && c.IsDir():
			if w.Mode == c.Mode {
				continue
			}
			ch = Change{Path: path, Kind: Modified, Dir: true}
		case inWant && inCur && w.sameContent(c):
			continue
		case inWant && inCur && w.IsDir() != c.IsDir():
			// A file where a directory was, or the reverse: remove it and
			// create the other; listed as one change.
			ch = Change{Path: path, Kind: Modified, Dir: w.IsDir(), retype: true}
		case inWant && inCur:
			ch = Change{Path: path, Kind: Modified}
		case inWant:
			ch = Change{Path: path, Kind: Created, Dir: w.IsDir()}
		default:
			ch = Change{Path: path, Kind: Deleted, Dir: c.IsDir()}
		}
		if l, inLast := s.last[path]; inLast != inCur || (inCur && !l.IsDir() && !l.sameContent(c)) {
			p.Conflicts = append(p.Conflicts, path)
		}
		p.Changes = append(p.Changes, ch)
	}
	return p
}

// IsDir reports whether the entry is a directory.
func (e Entry) IsDir() bool { return e.Mode.IsDir() }

// diffStats counts the lines each file change adds and removes.
func (s *Store) diffStats(p *Plan, want Manifest) error {
	root := s.opts.Root
	for i := range p.Changes {
		ch := &p.Changes[i]
		if ch.Dir {
			continue
		}
		var before, after []byte
		if ch.Kind != Created {
			before, _ = os.ReadFile(filepath.Join(root, filepath.FromSlash(ch.Path)))
		}
		if w, ok := want[ch.Path]; ok && w.Hash != "" && w.Link == "" && !w.IsDir() {
			data, err := s.blob(w.Hash)
			if err != nil {
				return err
			}
			after = data
		}
		ch.Added, ch.Removed = lineDiff(before, after)
	}
	return nil
}

// lineDiff counts the lines of after missing from before and the lines
// of before missing from after, as multisets: a cheap measure of a diff
// that is exact for additions and removals and counts a changed line as
// one of each.
func lineDiff(before, after []byte) (added, removed int) {
	if bytes.IndexByte(before, 0) >= 0 || bytes.IndexByte(after, 0) >= 0 {
		return 0, 0 // binary
	}
	count := map[string]int{}
	for _, l := range splitLines(before) {
		count[l]++
	}
	for _, l := range splitLines(after) {
		if count[l] > 0 {
			count[l]--
		} else {
			added++
		}
	}
	for _, n := range count {
		removed += n
	}
	return added, removed
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
}

// apply makes the plan's changes: removals deepest first, then
// directories and files shallowest first.
func (s *Store) apply(p *Plan, want Manifest) error {
	root := s.opts.Root
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	kept := map[string]bool{}
	var removals []Change
	for _, ch := range p.Changes {
		if ch.Kind == Deleted || ch.retype {
			removals = append(removals, ch)
		}
	}
	// Deepest first, so a directory is empty of what llmrt manages when
	// its turn comes.
	sort.Slice(removals, func(i, j int) bool { return removals[i].Path > removals[j].Path })
	for _, ch := range removals {
		path := abs(ch.Path)
		info, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if !info.IsDir() {
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("checkpoint: remove %s: %w", ch.Path, err)
			}
			continue
		}
		if err := os.Remove(path); err != nil {
			// Still holds ignored or oversized files: leave it.
			kept[ch.Path] = true
			p.Kept = append(p.Kept, ch.Path)
		}
	}
	for _, ch := range p.Changes { // sorted by path: parents first
		w, ok := want[ch.Path]
		if !ok || kept[ch.Path] {
			continue
		}
		path := abs(ch.Path)
		switch {
		case w.IsDir():
			if err := os.Mkdir(path, w.Mode.Perm()); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("checkpoint: create %s: %w", ch.Path, err)
			}
			if err := os.Chmod(path, chmodBits(w.Mode)); err != nil {
				return fmt.Errorf("checkpoint: %s: %w", ch.Path, err)
			}
		case w.Link != "":
			os.Remove(path)
			if err := os.Symlink(w.Link, path); err != nil {
				return fmt.Errorf("checkpoint: create %s: %w", ch.Path, err)
			}
		default:
			data, err := s.blob(w.Hash)
			if err != nil {
				return err
			}
			if err := writeAtomic(path, data, chmodBits(w.Mode)); err != nil {
				return fmt.Errorf("checkpoint: write %s: %w", ch.Path, err)
			}
		}
	}
	return nil
}

// chmodBits keeps the bits os.Chmod applies.
func chmodBits(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
