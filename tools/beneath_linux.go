package tools

import (
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 turns out to be missing (Linux before
// 5.6, or a seccomp filter that refuses it); opens then go by name.
var noOpenat2 atomic.Bool

// openRelative opens rel below dirfd without following any symlink, with
// openat2; where it is missing, it opens abs by name (refusing a symlink
// in the last step only).
func openRelative(dirfd int, rel, abs string, flags int) (int, error) {
	if !noOpenat2.Load() {
		how := &unix.OpenHow{Flags: uint64(flags), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
		fd, err := openRetry(func() (int, error) { return unix.Openat2(dirfd, rel, how) })
		if err != unix.ENOSYS && err != unix.EPERM {
			return fd, err
		}
		noOpenat2.Store(true)
	}
	return openRetry(func() (int, error) { return unix.Open(abs, flags, 0) })
}
