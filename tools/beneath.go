package tools

import (
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// beneath opens the files and directories below one directory, the start
// of a walk, by their absolute paths, without following a symlink at any
// step. A walk never enters a symlink: it descends only into directories
// and scans only regular files. So a directory or file swapped for a
// symlink after the walk saw it (to lead outside the workspace) makes the
// open fail instead of reading what the link points to. The zero value
// (no directory open) opens by name, refusing a symlink in the last step
// only.
type beneath struct {
	fd   int // -1: open by name
	root string
}

// openBeneath opens dir, a path already resolved and checked to be inside
// the workspace, as the base of later opens.
func openBeneath(dir string) *beneath {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		fd = -1
	}
	return &beneath{fd: fd, root: strings.TrimSuffix(dir, "/")}
}

// close releases the base directory.
func (b *beneath) close() {
	if b != nil && b.fd >= 0 {
		unix.Close(b.fd)
		b.fd = -1
	}
}

// open opens abs, which lies below the base, with flags (O_CLOEXEC and
// O_NOFOLLOW are added); it never blocks on a named pipe when flags hold
// O_NONBLOCK.
func (b *beneath) open(abs string, flags int) (int, error) {
	flags |= unix.O_CLOEXEC | unix.O_NOFOLLOW
	if b == nil || b.fd < 0 {
		return openRetry(func() (int, error) { return unix.Open(abs, flags, 0) })
	}
	rel := "."
	if abs != b.root {
		r, ok := strings.CutPrefix(abs, b.root+"/")
		if !ok {
			return -1, unix.EXDEV
		}
		rel = r
	}
	return openRelative(b.fd, rel, abs, flags)
}

// readDir lists the directory abs below the base, sorted by name as
// os.ReadDir does.
func (b *beneath) readDir(abs string) ([]os.DirEntry, error) {
	fd, err := b.open(abs, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: abs, Err: err}
	}
	f := os.NewFile(uintptr(fd), abs)
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

func openRetry(open func() (int, error)) (int, error) {
	for {
		fd, err := open()
		if err != unix.EINTR {
			return fd, err
		}
	}
}
