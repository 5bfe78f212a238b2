//go:build !unix

package checkpoint

import "io/fs"

// inode is 0 where the platform has none to offer; size, time and mode
// still detect changes.
func inode(fs.FileInfo) uint64 { return 0 }
