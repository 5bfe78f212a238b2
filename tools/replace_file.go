package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// A write never changes a file in place. The new content goes to a
// temporary file in the same directory, which is synced, given the mode
// and owner of the file it replaces, and renamed over it: on a full disk,
// a file size limit or any other error the original stays as it was and
// the temporary file is removed. A reader sees the old file or the new
// one, never a mix. What a rename does not keep — extended attributes,
// ACLs, the inode number — is not kept.
//
// Files with more than one hard link are refused: the other link may be
// outside the workspace, and a write through this one would either change
// that file (in place) or silently split the two (by rename).

// replaceOp says what replaceFile does with the file that is there.
type replaceOp int

const (
	// replaceCreate makes a new file and fails if one exists.
	replaceCreate replaceOp = iota
	// replaceOverwrite replaces the file, or creates it.
	replaceOverwrite
	// replaceAppend copies the file and adds the content after it.
	replaceAppend
)

// linkRefusal is the refusal of a write to a file that has more than one
// hard link, or "" when the file has one (or info is nil).
func linkRefusal(rel string, info fs.FileInfo) string {
	if n := hardLinks(info); n > 1 {
		return fmt.Sprintf("refused: %s has %d hard links, so it is also reachable under another name, maybe outside the workspace; "+
			"files with more than one hard link are never written or edited", rel, n)
	}
	return ""
}

// hardLinks is the link count of info, 0 if unknown.
func hardLinks(info fs.FileInfo) uint64 {
	if info == nil {
		return 0
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}

// replaceFile writes content to abs, a path ResolveWrite returned, as op
// says, through a temporary file renamed over it (see above). prev is the
// file there now (nil: none). The directory must exist.
func (w *Workspace) replaceFile(abs string, prev fs.FileInfo, op replaceOp, content string) (err error) {
	if why := linkRefusal(w.Rel(abs), prev); why != "" {
		return errors.New(why)
	}
	dir, err := w.openDir(filepath.Dir(abs))
	if err != nil {
		return err
	}
	defer dir.Close()
	base := filepath.Base(abs)
	if prev != nil {
		if err := writable(dir, base); err != nil {
			return err
		}
	}
	tmp, f, err := createTemp(dir, base, prev)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			dir.Remove(tmp)
		}
	}()
	if op == replaceAppend && prev != nil {
		if err := copyFrom(dir, base, prev, f); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(f, content); err != nil {
		return bare(err)
	}
	if err := keepAttributes(f, prev); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return bare(err)
	}
	if err := f.Close(); err != nil {
		return bare(err)
	}
	if op == replaceCreate {
		err = publishNew(dir, tmp, base)
	} else if err = unchanged(dir, base, prev); err == nil {
		err = dir.Rename(tmp, base)
	}
	if err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// openDir opens the directory abs of the workspace as a root, so the
// steps of a write name files in it, never a path that a symlink swapped
// in since could redirect.
func (w *Workspace) openDir(abs string) (*os.Root, error) {
	r, rel, err := w.openRoot(abs, true)
	if err != nil {
		return nil, err
	}
	if rel == "." {
		return r, nil
	}
	defer r.Close()
	return r.OpenRoot(rel)
}

// writable checks that the file base of dir may be written, as opening
// it to write in place would: a rename needs only the directory's
// permission, and must not replace a file its mode keeps from being
// written. The open neither truncates nor blocks.
func writable(dir *os.Root, base string) error {
	f, err := dir.OpenFile(base, os.O_WRONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// createTemp creates an empty temporary file next to base in dir: hidden,
// named after base, private until its mode is set (a new file gets the
// usual 0644 less the umask).
func createTemp(dir *os.Root, base string, prev fs.FileInfo) (string, *os.File, error) {
	perm := fs.FileMode(0o644)
	if prev != nil {
		perm = 0o600
	}
	for range 10 {
		var b [6]byte
		rand.Read(b[:])
		name := "." + base + ".llmrt-" + hex.EncodeToString(b[:]) + ".tmp"
		if len(name) > 255 {
			name = ".llmrt-" + hex.EncodeToString(b[:]) + ".tmp"
		}
		f, err := dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, errors.New("no free name for a temporary file")
}

// copyFrom copies the file base of dir, which must still be the file prev
// describes, to f.
func copyFrom(dir *os.Root, base string, prev fs.FileInfo, f *os.File) error {
	src, err := dir.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(info, prev) {
		return fmt.Errorf("%s was replaced while it was being written; read it again", base)
	}
	_, err = io.Copy(f, src)
	return bare(err)
}

// bare drops the temporary file's name from an error of the write ("file
// too large", "no space left on device"): the caller names the file the
// model asked for.
func bare(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// keepAttributes gives f the permission bits, owner and group of prev.
// An owner or group this process may not give is an error: the write
// would otherwise hand the file to whoever runs llmrt.
func keepAttributes(f *os.File, prev fs.FileInfo) error {
	if prev == nil {
		return nil
	}
	if err := f.Chmod(prev.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	want, ok := prev.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	info, err := f.Stat()
	if err != nil {
		return err
	}
	have := info.Sys().(*syscall.Stat_t)
	if have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	if err := f.Chown(int(want.Uid), int(want.Gid)); err != nil {
		return fmt.Errorf("cannot keep the file's owner %d:%d (%w); change it with shell_cmd if you must", want.Uid, want.Gid, err)
	}
	// A chown may clear the set-user-ID and set-group-ID bits.
	return f.Chmod(prev.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
}

// unchanged checks, last thing before the rename, that base in dir is
// still the file prev describes (or still missing, for nil), so a file
// swapped in while the new content was written — another file, a named
// pipe, a device — is neither replaced nor written to.
func unchanged(dir *os.Root, base string, prev fs.FileInfo) error {
	info, err := dir.Lstat(base)
	switch {
	case prev == nil && errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil && prev != nil:
		return fmt.Errorf("%s went away while it was being written: %w", base, err)
	case err != nil:
		return err
	case prev == nil || !os.SameFile(info, prev):
		return fmt.Errorf("%s was replaced while it was being written; read it again", base)
	}
	return nil
}

// publishNew gives the finished temporary file tmp the name base, unless
// a file of that name has appeared meanwhile: a hard link is made and the
// temporary name removed, which fails rather than replaces. Where the
// file system has no hard links, a rename does it after a last check.
func publishNew(dir *os.Root, tmp, base string) error {
	err := dir.Link(tmp, base)
	if err == nil {
		dir.Remove(tmp)
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, serr := dir.Lstat(base); !errors.Is(serr, fs.ErrNotExist) {
		return fs.ErrExist
	}
	return dir.Rename(tmp, base)
}

// syncDir makes a rename in dir durable. It is best effort: the new file
// is in place whether or not the directory's sync succeeds.
func syncDir(dir *os.Root) {
	if d, err := dir.Open("."); err == nil {
		d.Sync()
		d.Close()
	}
}
