package tools

import (
	"os"

	"golang.org/x/sys/unix"
)

// exitWatch tells when a started process has exited, before anyone reaps
// it, through a pidfd the runtime poller waits on.
type exitWatch struct{ f *os.File }

// watchExit starts watching process pid, which must not have been waited
// for yet (its pid could belong to another process then). Where the
// kernel has no pidfds it watches nothing.
func watchExit(pid int) exitWatch {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return exitWatch{}
	}
	return exitWatch{os.NewFile(uintptr(fd), "pidfd")}
}

// exited returns a channel closed when the process has exited, or nil
// (never ready) when it is not watched. Its goroutine ends with close.
func (w exitWatch) exited() <-chan struct{} {
	if w.f == nil {
		return nil
	}
	rc, err := w.f.SyscallConn()
	if err != nil {
		return nil
	}
	ch := make(chan struct{})
	go func() {
		// A pidfd polls as readable once its process has exited; Read
		// waits on the poller until then, or until close. Only a pidfd
		// seen readable says the process exited.
		exited := false
		_ = rc.Read(func(fd uintptr) bool {
			p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			n, err := unix.Poll(p, 0)
			exited = err == nil && n > 0
			return exited || err != nil
		})
		if exited {
			close(ch)
		}
	}()
	return ch
}

func (w exitWatch) close() {
	if w.f != nil {
		w.f.Close()
	}
}
