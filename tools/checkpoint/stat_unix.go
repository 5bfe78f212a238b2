//go:build unix

package checkpoint

import (
	"io/fs"
	"syscall"
)

// inode returns the file's inode number, which tells a file replaced by
// rename from the same file rewritten in place.
func inode(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
