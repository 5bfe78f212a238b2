package confine

import (
	"errors"
	"os"
	"syscall"
)

// makeView carries out the mounts of a view, in order.
func makeView(ms []Mount) error {
	var saved []int // by slot; -1 where the path was missing
	defer func() {
		for _, fd := range saved {
			if fd >= 0 {
				syscall.Close(fd)
			}
		}
	}()
	for _, m := range ms {
		var err error
		switch m.Op {
		case Private:
			err = syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, "")
		case Save:
			fd, serr := openTree(m.Path)
			if errors.Is(serr, syscall.ENOENT) {
				fd, serr = -1, nil
			}
			saved, err = append(saved, fd), serr
		case ReadOnly:
			err = readOnly(m.Path, true)
		case Tmpfs:
			if err = os.MkdirAll(m.Path, 0o755); err == nil {
				err = mountTmpfs(m.Path, m.RO, "mode=1777")
			}
		case Attach:
			if m.Slot < 0 || m.Slot >= len(saved) {
				err = syscall.EINVAL
			} else if fd := saved[m.Slot]; fd >= 0 {
				err = attach(fd, m.Path, m.RO)
			}
		case Bind:
			err = bind(m.Path, m.Path, m.RO)
		case Hide:
			err = bind("/dev/null", m.Path, true)
		case Dev:
			err = makeDev()
		case Proc:
			err = syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, "")
			if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EBUSY) {
				err = nil // a container that masks parts of /proc: the host's stays
			}
		default:
			err = syscall.EINVAL
		}
		if err != nil {
			if _, ok := err.(*opError); ok {
				return err
			}
			return fail(opNames[m.Op], m.Path, err)
		}
	}
	return nil
}

var opNames = map[MountOp]string{Private: "make mounts private", Save: "keep", ReadOnly: "make read-only",
	Tmpfs: "mount a private directory on", Attach: "attach", Bind: "bind", Hide: "hide", Dev: "make /dev", Proc: "mount /proc"}

func mountTmpfs(path string, ro bool, data string) error {
	flags := uintptr(syscall.MS_NOSUID | syscall.MS_NODEV)
	if ro {
		flags |= syscall.MS_RDONLY
	}
	return syscall.Mount("tmpfs", path, "tmpfs", flags, data)
}

// bind mounts a copy of the tree at from onto to.
func bind(from, to string, ro bool) error {
	fd, err := openTree(from)
	if err != nil {
		return fail("keep", from, err)
	}
	defer syscall.Close(fd)
	return attach(fd, to, ro)
}

// attach puts the detached tree fd at path, making the mount point (a
// directory, or an empty file for a file's tree) where it is missing.
func attach(fd int, path string, ro bool) error {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return err
		}
		if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			err = os.MkdirAll(path, 0o755)
		} else if err = os.MkdirAll(parent(path), 0o755); err == nil {
			err = touch(path)
		}
		if err != nil {
			return err
		}
	}
	if err := moveMount(fd, path); err != nil {
		return err
	}
	if ro {
		return readOnly(path, true)
	}
	return nil
}

// parent is the directory of the absolute path path (path/filepath is
// not imported here: see doc.go).
func parent(path string) string {
	for i := len(path) - 1; i > 0; i-- {
		if path[i] == '/' {
			return path[:i]
		}
	}
	return "/"
}

func touch(path string) error {
	fd, err := syscall.Open(path, syscall.O_CREAT|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return err
	}
	return syscall.Close(fd)
}

// devices are the host's device nodes a private /dev holds.
var devices = []string{"null", "zero", "random", "urandom", "tty"}

// makeDev mounts a private /dev over the host's: its devices, a devpts of
// its own (so no terminal of the host's is there), an empty /dev/shm and
// the usual links; then it makes /dev itself read-only.
func makeDev() error {
	fds := make([]int, len(devices))
	for i, d := range devices {
		fd, err := openTree("/dev/" + d)
		if err != nil {
			fd = -1
		}
		fds[i] = fd
	}
	defer func() {
		for _, fd := range fds {
			if fd >= 0 {
				syscall.Close(fd)
			}
		}
	}()
	if err := syscall.Mount("tmpfs", "/dev", "tmpfs", syscall.MS_NOSUID|syscall.MS_NOEXEC, "mode=0755"); err != nil {
		return err
	}
	for i, d := range devices {
		if fds[i] < 0 {
			continue
		}
		if err := attach(fds[i], "/dev/"+d, false); err != nil {
			return fail("attach", "/dev/"+d, err)
		}
	}
	for _, d := range []string{"/dev/pts", "/dev/shm"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return fail("mkdir", d, err)
		}
	}
	if err := syscall.Mount("devpts", "/dev/pts", "devpts", syscall.MS_NOSUID|syscall.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return fail("mount", "/dev/pts", err)
	}
	if err := mountTmpfs("/dev/shm", false, "mode=1777"); err != nil {
		return fail("mount", "/dev/shm", err)
	}
	for link, to := range map[string]string{"ptmx": "pts/ptmx", "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(to, "/dev/"+link); err != nil {
			return fail("link", "/dev/"+link, err)
		}
	}
	return readOnly("/dev", false)
}
