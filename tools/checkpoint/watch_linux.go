package checkpoint

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchMask is what a watched directory reports: its entries appearing,
// going, being renamed, written or re-moded, and itself going away.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_ATTRIB |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_EXCL_UNLINK | unix.IN_ONLYDIR

// watcher asks the kernel (inotify) which directories of the workspace
// saw changes since it was last drained, so a checkpoint looks again at
// those only instead of at every file. The kernel queues an event during
// the system call that makes the change, so once a command has returned,
// everything it did is in the queue.
type watcher struct {
	fd  int
	dir map[int]string // watch descriptor → directory, relative to the root ("" the root)
	buf []byte
}

func newWatcher() (*watcher, error) {
	// Close-on-exec: the commands a session runs must not inherit it.
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	return &watcher{fd: fd, dir: map[int]string{}, buf: make([]byte, 64<<10)}, nil
}

// add watches the directory abs, rel to the root. Running out of watches
// (fs.inotify.max_user_watches) is an error: the store goes back to
// walking the whole tree.
func (w *watcher) add(rel, abs string) error {
	if len(w.dir) >= watchBudget() {
		return unix.ENOSPC
	}
	wd, err := unix.InotifyAddWatch(w.fd, abs, watchMask)
	if err != nil {
		return err
	}
	w.dir[wd] = rel
	return nil
}

func (w *watcher) close() {
	if w != nil && w.fd >= 0 {
		unix.Close(w.fd)
		w.fd = -1
	}
}

// drain reads the events queued since the last call into d. It reports
// full when the events cannot be followed path by path (the queue
// overflowed, a directory was renamed, an ignore file changed, the root
// went away): then only a walk of the whole tree is right.
func (w *watcher) drain(d *dirty) (full bool, err error) {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if errors.Is(err, unix.EAGAIN) || n == 0 {
			return full, nil
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return true, err
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			nameLen := int(ev.Len)
			name := ""
			if nameLen > 0 {
				raw := w.buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+nameLen]
				name = string(bytes.TrimRight(raw, "\x00"))
			}
			off += unix.SizeofInotifyEvent + nameLen
			if w.event(int(ev.Wd), ev.Mask, name, d) {
				full = true
			}
		}
	}
}

// event records one event in d and reports whether only a full walk can
// account for it.
func (w *watcher) event(wd int, mask uint32, name string, d *dirty) (full bool) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		return true
	}
	dir, ok := w.dir[wd]
	if mask&unix.IN_IGNORED != 0 {
		delete(w.dir, wd)
		return false
	}
	if !ok {
		return false
	}
	switch {
	case mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
		// A watched directory renamed would report under its old path;
		// the root gone leaves nothing to follow.
		return mask&unix.IN_MOVE_SELF != 0 || dir == ""
	case name == "":
		// The directory itself changed (its mode, say).
		if dir != "" {
			d.paths[dir] = true
		}
	case name == ".gitignore":
		// What the walk skips below here may have changed.
		return true
	case mask&unix.IN_ISDIR != 0 && mask&(unix.IN_MOVED_FROM|unix.IN_MOVED_TO) != 0:
		// A renamed directory's watches carry its old path.
		return true
	default:
		d.paths[joinRel(dir, name)] = true
	}
	return false
}

// watchLimit, when positive, replaces watchBudget's answer, for tests of
// a workspace with more directories than that.
var watchLimit int

// maxWatches bounds the directories one store watches. Watches are the
// user's to share with their editor and build tools
// (fs.inotify.max_user_watches): a store takes at most a quarter of them,
// and no more than this; a workspace with more directories is walked.
const maxWatches = 16384

var budget = sync.OnceValue(func() int {
	n := maxWatches
	if data, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches"); err == nil {
		if max, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && max > 0 {
			n = min(n, max/4)
		}
	}
	return n
})

func watchBudget() int {
	if watchLimit > 0 {
		return watchLimit
	}
	return budget()
}

// watching reports whether this platform can watch directories.
const watching = true
