//go:build !linux

package tools

import "golang.org/x/sys/unix"

// openRelative opens rel below dirfd without following any symlink
// (O_NOFOLLOW_ANY, macOS 11 and later).
func openRelative(dirfd int, rel, abs string, flags int) (int, error) {
	return openRetry(func() (int, error) { return unix.Openat(dirfd, rel, flags|unix.O_NOFOLLOW_ANY, 0) })
}
