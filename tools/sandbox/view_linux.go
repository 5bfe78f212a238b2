//go:build linux

package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/llmrt/llmrt/tools/sandbox/internal/confine"
)

// The filesystem a confined command sees, in mount namespaces of its own:
// the host's, read-only, with
//   - the workspace (writable under workspace-write) and the writable
//     paths of the policy as they are;
//   - a private, empty and writable directory over each place where the
//     host keeps Unix sockets and temporary files (privateDirs), so that
//     no socket of the host's is there to connect to;
//   - llmrt's own configuration and state directories empty;
//   - the workspace's .llmrt, .mcp.json and .git/hooks read-only and the
//     hidden files (the .env) reading as empty;
//   - a private /dev and the /proc of the command's PID namespace.
// llmrt's executable and the command's program stay where they are, so
// that a program kept in a directory now private still runs.

// protectedPaths are the workspace's paths that configure llmrt or run
// code outside the sandbox later (git runs hooks): read-only in the view.
var protectedPaths = []string{".llmrt", ".mcp.json", ".env", filepath.Join(".git", "hooks")}

// privateDirs lists the directories that get a private, empty directory
// in the view: those where programs put temporary files and Unix sockets
// (tmux's, ssh-agent's, D-Bus's, Docker's, X11's), from the environment
// getenv reads.
func privateDirs(getenv func(string) string) []string {
	dirs := []string{"/tmp", "/var/tmp", "/run", "/var/run"}
	for _, v := range []string{"TMPDIR", "XDG_RUNTIME_DIR", "TMUX_TMPDIR"} {
		if d := getenv(v); filepath.IsAbs(d) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	return dirs
}

// llmrtDirs are llmrt's configuration and state directories, which hold
// keys, sessions and the folders the user trusts: empty in the view.
func llmrtDirs(getenv func(string) string) []string {
	var dirs []string
	home := getenv("HOME")
	for _, d := range []struct{ env, fallback string }{{"XDG_CONFIG_HOME", ".config"}, {"XDG_STATE_HOME", filepath.Join(".local", "state")}} {
		base := getenv(d.env)
		if !filepath.IsAbs(base) {
			if !filepath.IsAbs(home) {
				continue
			}
			base = filepath.Join(home, d.fallback)
		}
		dirs = append(dirs, filepath.Join(base, "llmrt"))
	}
	return dirs
}

// viewInput is what a view is made of, as real paths.
type viewInput struct {
	workspace string
	readOnly  bool     // the workspace is read-only (read-only mode)
	writable  []string // further writable trees
	private   []string // directories replaced by private writable ones
	emptied   []string // directories replaced by empty read-only ones
	protected []string // read-only in the view
	hidden    []string // files that read as empty
	keep      []string // files that stay visible where they are
}

// entry is one mount of a view's middle part, ordered by depth.
type entry struct {
	path string
	kind int // the order of mounts at one depth: entryMask, entryTree
	m    confine.Mount
}

const (
	entryMask = iota
	entryTree
)

// errNoView says a policy's view cannot be made: the workspace is the
// root itself, which no mount can replace under a running process.
var errNoView = errors.New("the workspace is the root directory")

// plan returns the mounts that make the view of in, and the directories a
// command may write in it (Landlock's writable roots there).
func plan(in viewInput) ([]confine.Mount, []string, error) {
	trees := append([]string{in.workspace}, in.writable...)
	if slices.Contains(trees, "/") {
		return nil, nil, errNoView
	}
	mounts := []confine.Mount{{Op: confine.Private}}
	var entries []entry
	var emptied, masks []string
	for _, d := range in.emptied {
		if isDir(d) && !within(d, emptied) && !slices.ContainsFunc(trees, func(t string) bool { return inside(t, d) }) {
			emptied = append(emptied, d)
			entries = append(entries, entry{d, entryMask, confine.Mount{Op: confine.Tmpfs, Path: d, RO: true}})
		}
	}
	// A private directory inside another is made again inside it: its
	// path ($TMPDIR, $XDG_RUNTIME_DIR) is there and writable.
	for _, d := range in.private {
		if isDir(d) && !slices.Contains(masks, d) && !within(d, emptied) {
			masks = append(masks, d)
			entries = append(entries, entry{d, entryMask, confine.Mount{Op: confine.Tmpfs, Path: d}})
		}
	}
	writable := slices.Clone(masks)
	masks = append(masks, emptied...)
	// Trees and kept files are copied before anything covers them, and
	// put back in their place once the view around them is made.
	slots := 0
	attach := func(path string, ro bool) {
		mounts = append(mounts, confine.Mount{Op: confine.Save, Path: path})
		entries = append(entries, entry{path, entryTree, confine.Mount{Op: confine.Attach, Path: path, Slot: slots, RO: ro}})
		slots++
	}
	for i, t := range trees {
		attach(t, i == 0 && in.readOnly)
		if i > 0 || !in.readOnly {
			writable = append(writable, t)
		}
	}
	for _, k := range in.keep {
		// An empty directory is read-only: no mount point can be made
		// in it, and what is kept there stays hidden.
		if !visible(k, masks, trees) && !within(k, emptied) {
			attach(k, true)
			trees = append(trees, k)
		}
	}
	mounts = append(mounts, confine.Mount{Op: confine.ReadOnly, Path: "/"})
	slices.SortStableFunc(entries, func(a, b entry) int {
		if d := depth(a.path) - depth(b.path); d != 0 {
			return d
		}
		return a.kind - b.kind
	})
	for _, e := range entries {
		mounts = append(mounts, e.m)
	}
	mounts = append(mounts, confine.Mount{Op: confine.Dev}, confine.Mount{Op: confine.Proc})
	for _, p := range in.protected {
		if !in.readOnly && visible(p, masks, trees) && !slices.Contains(in.hidden, p) {
			mounts = append(mounts, confine.Mount{Op: confine.Bind, Path: p, RO: true})
		}
	}
	for _, h := range in.hidden {
		if visible(h, masks, trees) {
			mounts = append(mounts, confine.Mount{Op: confine.Hide, Path: h})
		}
	}
	return mounts, append(writable, "/dev/shm"), nil
}

// visible reports whether path is in the view: under no mask, or put back
// with a tree at least as deep as the deepest mask over it.
func visible(path string, masks, trees []string) bool {
	deepest := func(dirs []string) int {
		d := -1
		for _, dir := range dirs {
			if inside(path, dir) {
				d = max(d, depth(dir))
			}
		}
		return d
	}
	m := deepest(masks)
	return m < 0 || deepest(trees) >= m
}

// inside reports whether path is dir or below it.
func inside(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+"/")
}

// within reports whether path is inside one of dirs.
func within(path string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return inside(path, d) })
}

func depth(path string) int {
	if path == "/" {
		return 0
	}
	return strings.Count(path, "/")
}

// isDir reports whether path is a directory, not through a symlink.
func isDir(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.IsDir()
}

// realPaths resolves paths to the real paths of those that exist.
func realPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil && filepath.IsAbs(real) && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

// viewOf gathers the view of p for a command running program.
func viewOf(p Policy, program string) viewInput {
	ws := p.Workspace
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	if abs, err := filepath.Abs(ws); err == nil {
		ws = abs
	}
	in := viewInput{workspace: ws, readOnly: p.Mode == ReadOnly, hidden: p.hiddenFiles()}
	for _, w := range realPaths(p.Writable) {
		if w != ws && !slices.Contains(in.writable, w) {
			in.writable = append(in.writable, w)
		}
	}
	in.private = realPaths(append(privateDirs(os.Getenv), os.TempDir()))
	in.emptied = realPaths(llmrtDirs(os.Getenv))
	for _, rel := range protectedPaths {
		in.protected = append(in.protected, realPaths([]string{filepath.Join(ws, rel)})...)
	}
	keep := []string{program}
	if exe, err := os.Executable(); err == nil {
		keep = append(keep, exe)
	}
	for _, k := range realPaths(keep) {
		if info, err := os.Stat(k); err == nil && info.Mode().IsRegular() {
			in.keep = append(in.keep, k)
		}
	}
	return in
}
