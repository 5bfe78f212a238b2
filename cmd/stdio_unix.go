//go:build unix

package cmd

import "golang.org/x/sys/unix"

// stdioGone reports whether stdout or stderr is a pipe (or terminal)
// whose other end is gone: what a SIGPIPE means for llmrt. The same
// signal comes when a pipe to a child process breaks — a status line
// command or an MCP server that exits without reading its input — and
// that one is for the code that writes to it, not a reason to stop.
func stdioGone() bool {
	fds := []unix.PollFd{{Fd: 1}, {Fd: 2}}
	if _, err := unix.Poll(fds, 0); err != nil {
		return false
	}
	for _, f := range fds {
		if f.Revents&(unix.POLLERR|unix.POLLHUP) != 0 {
			return true
		}
	}
	return false
}
