package tools

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

const noFollowNonBlock = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// guardMax bounds the size of a protected file kept to be put back.
const guardMax = 1 << 20

// guard remembers protected files as they were before a command, to put
// them back if the command changed them. The workspace grants a confined
// command writes anywhere below its root (the kernel's rules cannot
// leave a file out), so this is how the host's own configuration in the
// workspace stays out of its reach.
type guard struct {
	root  string
	files []guarded
}

type guarded struct {
	rel     string
	exists  bool
	content []byte
	mode    fs.FileMode
	parents []parentState
}

// parentState is how a directory on the way to a protected file was: a
// plain directory, a symlink to one (the user's own, say a .llmrt kept in
// a dotfiles repository), or missing.
type parentState struct {
	rel    string
	exists bool
	link   string // the symlink's target; "" for a plain directory
}

// newGuard records the protected files under root.
func newGuard(root string, rels []string) *guard {
	g := &guard{root: root}
	for _, rel := range rels {
		f := guarded{rel: filepath.Clean(rel)}
		f.parents = g.parentsOf(f.rel)
		abs := filepath.Join(root, f.rel)
		if info, err := os.Lstat(abs); err == nil {
			if !info.Mode().IsRegular() || info.Size() > guardMax {
				continue // not something llmrt reads as its configuration
			}
			data, err := readNoFollow(abs)
			if err != nil {
				continue
			}
			f.exists, f.content, f.mode = true, data, info.Mode().Perm()
		}
		g.files = append(g.files, f)
	}
	return g
}

// restore puts back every protected file the command changed, created or
// removed, and returns their paths. The directories on the way are put
// back as they were too: a symlink the user made stays a symlink, never
// replaced by a directory.
func (g *guard) restore() []string {
	var changed []string
	for _, f := range g.files {
		if g.same(f) {
			continue
		}
		changed = append(changed, f.rel)
		abs := filepath.Join(g.root, f.rel)
		g.restoreParents(f)
		if err := os.RemoveAll(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if f.exists {
			if os.MkdirAll(filepath.Dir(abs), 0o755) == nil {
				_ = os.WriteFile(abs, f.content, f.mode)
			}
		}
	}
	return changed
}

// same reports whether f is as it was: the same regular file with the
// same content, or still absent, and reached through the same
// directories.
func (g *guard) same(f guarded) bool {
	abs := filepath.Join(g.root, f.rel)
	if !slices.Equal(g.parentsOf(f.rel), f.parents) {
		return false
	}
	info, err := os.Lstat(abs)
	if !f.exists {
		return errors.Is(err, fs.ErrNotExist)
	}
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	data, err := readNoFollow(abs)
	return err == nil && bytes.Equal(data, f.content)
}

// parentsOf returns the state of each directory on the way from the root
// to rel.
func (g *guard) parentsOf(rel string) []parentState {
	var out []parentState
	dir := "."
	for _, p := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if p == "." {
			continue
		}
		dir = filepath.Join(dir, p)
		st := parentState{rel: dir}
		if info, err := os.Lstat(filepath.Join(g.root, dir)); err == nil {
			st.exists = true
			if !info.IsDir() {
				st.link, _ = os.Readlink(filepath.Join(g.root, dir))
				if st.link == "" {
					st.link = "?" // neither a directory nor a symlink
				}
			}
		}
		out = append(out, st)
	}
	return out
}

// restoreParents puts back each directory on the way to f that is not as
// it was: what replaced it goes, a symlink is made again with its
// target, a plain directory is made again when the file is put back.
func (g *guard) restoreParents(f guarded) {
	now := g.parentsOf(f.rel)
	for i, was := range f.parents {
		if i < len(now) && now[i] == was {
			continue
		}
		abs := filepath.Join(g.root, was.rel)
		switch info, err := os.Lstat(abs); {
		case err != nil:
		case was.link != "":
			_ = os.RemoveAll(abs) // what the command put in place of the user's symlink
		case !info.IsDir():
			_ = os.Remove(abs)
		}
		if was.link != "" && was.link != "?" {
			_ = os.Symlink(was.link, abs)
		}
		return // the directories below were reached through this one
	}
}

// note tells the model what was undone.
func guardNote(changed []string) string {
	return fmt.Sprintf("the command changed %s, which configure llmrt itself; commands in the sandbox may not change them, so the change was undone. If it is needed, tell the user, who can make it", strings.Join(changed, ", "))
}

// readNoFollow reads a regular file without following a final symlink
// and without blocking on a special file.
func readNoFollow(abs string) ([]byte, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|noFollowNonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	var b bytes.Buffer
	_, err = b.ReadFrom(f)
	return b.Bytes(), err
}
