package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Workspace confines tool paths to a root directory and remembers what the
// current run has read. Create one per run.
type Workspace struct {
	root      string   // absolute, symlinks resolved
	readRoots []string // extra read-only roots (loaded skills), resolved

	mu   sync.Mutex
	seen map[string]stamp // files read by this run, by absolute path
}

// stamp identifies the version of a file the run has seen.
type stamp struct {
	size    int64
	modTime time.Time
}

// NewWorkspace returns a workspace rooted at dir, which must exist.
func NewWorkspace(dir string) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("workspace %s is not a directory", dir)
	}
	return &Workspace{root: real, seen: make(map[string]stamp)}, nil
}

// Root returns the absolute, symlink-free workspace root.
func (w *Workspace) Root() string { return w.root }

// AddReadRoot makes dir readable (not writable) by the file tools, as a
// loaded skill's files must be.
func (w *Workspace) AddReadRoot(dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("read root %s: %w", dir, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.readRoots = append(w.readRoots, real)
	return nil
}

// Resolve maps a path given by the model to an absolute path inside the
// workspace or a read root, following symlinks. The path need not exist.
func (w *Workspace) Resolve(p string) (string, error) { return w.resolve(p, false) }

// ResolveWrite is Resolve for paths the tool will change: only the
// workspace root qualifies.
func (w *Workspace) ResolveWrite(p string) (string, error) { return w.resolve(p, true) }

func (w *Workspace) resolve(p string, write bool) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	joined := p
	if !filepath.IsAbs(p) {
		joined = filepath.Join(w.root, p)
	}
	joined = filepath.Clean(joined)
	real, err := evalExisting(joined)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", p, err)
	}
	if within(w.root, real) {
		return real, nil
	}
	if !write {
		w.mu.Lock()
		roots := w.readRoots
		w.mu.Unlock()
		for _, r := range roots {
			if within(r, real) {
				return real, nil
			}
		}
	}
	if within(w.root, joined) {
		return "", fmt.Errorf("refused: %q resolves through a symlink to %s, outside the workspace %s", p, real, w.root)
	}
	return "", fmt.Errorf("refused: %q is outside the workspace %s; only paths inside it may be used", p, w.root)
}

// Rel returns abs relative to the workspace root with forward slashes, or
// abs itself when it lies elsewhere (a read root).
func (w *Workspace) Rel(abs string) string {
	rel, err := filepath.Rel(w.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return filepath.ToSlash(rel)
}

// noteRead records that the run has seen the current version of a file.
func (w *Workspace) noteRead(abs string, info fs.FileInfo) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen[abs] = stamp{size: info.Size(), modTime: info.ModTime()}
}

// checkFresh refuses a change to an existing file that differs on disk from
// the version this run read, so a run never overwrites changes made since
// it read a file. Files the run never read pass.
func (w *Workspace) checkFresh(abs string) error {
	w.mu.Lock()
	st, read := w.seen[abs]
	w.mu.Unlock()
	if !read {
		return nil
	}
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.Size() != st.size || !info.ModTime().Equal(st.modTime) {
		return fmt.Errorf("refused: %s changed on disk since this run read it; read it again before changing it", w.Rel(abs))
	}
	return nil
}

// hasRead reports whether the run has read abs.
func (w *Workspace) hasRead(abs string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.seen[abs]
	return ok
}

// within reports whether p is root or lies below it.
func within(root, p string) bool {
	if p == root {
		return true
	}
	if root == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(p, root+string(filepath.Separator))
}

// evalExisting resolves symlinks in the longest existing prefix of p and
// appends the rest, so paths that do not exist yet are still checked.
func evalExisting(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	parent, base := filepath.Dir(p), filepath.Base(p)
	if parent == p {
		return p, nil
	}
	// A dangling symlink must not be followed blindly on write: resolve its
	// target like any other path.
	if target, lerr := os.Readlink(p); lerr == nil {
		if !filepath.IsAbs(target) {
			target = filepath.Join(parent, target)
		}
		return evalExisting(filepath.Clean(target))
	}
	realParent, err := evalExisting(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(realParent, base), nil
}

// OpenFile opens abs, a path Resolve or ResolveWrite returned, through an
// os.Root of the workspace (or of the read root that holds it). A symlink
// swapped in between resolving and opening therefore cannot lead outside:
// the open fails instead. Only the workspace may be opened for writing.
func (w *Workspace) OpenFile(abs string, flag int, perm fs.FileMode) (*os.File, error) {
	r, rel, err := w.openRoot(abs, flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.OpenFile(rel, flag, perm)
}

// MkdirAll creates directory abs and its missing parents inside the
// workspace, through an os.Root as OpenFile does.
func (w *Workspace) MkdirAll(abs string, perm fs.FileMode) error {
	r, rel, err := w.openRoot(abs, true)
	if err != nil {
		return err
	}
	defer r.Close()
	if rel == "." {
		return nil
	}
	return r.MkdirAll(rel, perm)
}

// Mkdir creates directory abs, whose parent must exist, through an
// os.Root as OpenFile does.
func (w *Workspace) Mkdir(abs string, perm fs.FileMode) error {
	r, rel, err := w.openRoot(abs, true)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.Mkdir(rel, perm)
}

// openRoot opens the root that holds abs and returns abs relative to it.
func (w *Workspace) openRoot(abs string, write bool) (*os.Root, string, error) {
	base := w.root
	if !within(w.root, abs) {
		base = ""
		if !write {
			w.mu.Lock()
			for _, r := range w.readRoots {
				if within(r, abs) {
					base = r
				}
			}
			w.mu.Unlock()
		}
		if base == "" {
			return nil, "", fmt.Errorf("refused: %s is outside the workspace %s", abs, w.root)
		}
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil {
		return nil, "", err
	}
	r, err := os.OpenRoot(base)
	if err != nil {
		return nil, "", err
	}
	return r, rel, nil
}
