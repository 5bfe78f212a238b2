package checkpoint

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/llmrt/llmrt/tools"
)

// dirty is what changed since the last checkpoint as the watcher saw it:
// the paths that were created, written, re-moded, deleted or renamed.
type dirty struct {
	paths map[string]bool
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// refresh brings the latest manifest up to date from what the watcher
// saw, looking only at the paths it names: the cost of a checkpoint is
// that of what changed, not of the tree. touched holds the paths whose
// entries may differ from the latest manifest's. ok false means the
// watcher cannot say (it is not running, or an event needs a walk of
// the whole tree): the caller walks it.
func (s *Store) refresh(ctx context.Context, store bool) (m Manifest, touched map[string]bool, ok bool, err error) {
	if s.w == nil {
		return nil, nil, false, nil
	}
	d := dirty{paths: map[string]bool{}}
	if full, err := s.w.drain(&d); full || err != nil {
		return nil, nil, false, nil
	}
	if len(d.paths) == 0 {
		return s.last, nil, true, nil
	}
	ws, err := tools.NewWorkspace(s.opts.Root)
	if err != nil {
		return nil, nil, false, nil
	}
	root := ws.Root()
	paths := make([]string, 0, len(d.paths))
	for p := range d.paths {
		paths = append(paths, p)
	}
	// Parents before their children, so a directory that came or went
	// is dealt with as a whole first.
	sort.Slice(paths, func(i, j int) bool {
		return strings.Count(paths[i], "/") < strings.Count(paths[j], "/") ||
			strings.Count(paths[i], "/") == strings.Count(paths[j], "/") && paths[i] < paths[j]
	})
	m = maps.Clone(s.last)
	touched = map[string]bool{}
	trees := map[string]bool{} // directories added or dropped whole
	for _, rel := range paths {
		if err := ctx.Err(); err != nil {
			return nil, nil, false, err
		}
		if underAny(trees, rel) {
			continue
		}
		prev, had := m[rel]
		info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			if had {
				dropTree(m, rel, prev.IsDir(), touched)
				trees[rel] = true
			}
			continue
		}
		if had && prev.IsDir() != info.IsDir() {
			dropTree(m, rel, prev.IsDir(), touched)
			had = false
		}
		if !had {
			// New here: part of the snapshot if a walk would visit it.
			parent := parentRel(rel)
			if pe, ok := m[parent]; parent != "" && (!ok || !pe.IsDir()) {
				continue // below a directory the snapshot leaves out
			}
			if ws.Ignored(filepath.Join(root, filepath.FromSlash(rel)), info.IsDir()) {
				continue
			}
		}
		f := found{rel: rel, d: fs.FileInfoToDirEntry(info)}
		if err := s.entry(root, &f, store); err != nil {
			return nil, nil, false, err
		}
		if !f.ok {
			if had {
				delete(m, rel)
				touched[rel] = true
			}
			continue
		}
		m[rel], touched[rel] = f.e, true
		if f.e.IsDir() && !had {
			if err := s.addTree(ctx, ws, m, rel, store, touched); err != nil {
				return nil, nil, false, err
			}
			trees[rel] = true
		}
	}
	return m, touched, true, nil
}

// addTree adds directory rel's contents to m and watches it and every
// directory below it. Each is watched before it is listed, so a change
// made after its listing is reported.
func (s *Store) addTree(ctx context.Context, ws *tools.Workspace, m Manifest, rel string, store bool, touched map[string]bool) error {
	root := ws.Root()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := s.w.add(rel, abs); err != nil {
		return errWatch
	}
	var below []found
	err := ws.Walk(ctx, abs, tools.WalkOptions{Hidden: true}, func(r string, d fs.DirEntry) error {
		if d.IsDir() {
			if err := s.w.add(r, filepath.Join(root, filepath.FromSlash(r))); err != nil {
				return errWatch
			}
		}
		below = append(below, found{rel: r, d: d})
		return nil
	})
	if err != nil {
		return err
	}
	for i := range below {
		if err := s.entry(root, &below[i], store); err != nil {
			return err
		}
		if below[i].ok {
			m[below[i].rel], touched[below[i].rel] = below[i].e, true
		}
	}
	return nil
}

// errWatch is a directory that could not be watched: the store stops
// watching and walks the tree from then on.
var errWatch = errors.New("checkpoint: cannot watch a directory")

// dropTree removes rel from m, and everything below it when it was a
// directory, noting each in touched.
func dropTree(m Manifest, rel string, isDir bool, touched map[string]bool) {
	delete(m, rel)
	touched[rel] = true
	if !isDir {
		return
	}
	prefix := rel + "/"
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			delete(m, k)
			touched[k] = true
		}
	}
}

// underAny reports whether rel lies below one of dirs.
func underAny(dirs map[string]bool, rel string) bool {
	for p := parentRel(rel); p != ""; p = parentRel(p) {
		if dirs[p] {
			return true
		}
	}
	return false
}

func parentRel(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// changedPaths reports whether any of the touched paths differs between
// m and the latest manifest.
func (s *Store) changedPaths(m Manifest, touched map[string]bool) bool {
	for k := range touched {
		a, inM := m[k]
		b, inLast := s.last[k]
		if inM != inLast || inM && a != b {
			return true
		}
	}
	return false
}
